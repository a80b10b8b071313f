"""key_by + reduce with lambda / ReduceFunction class, keys from lambdas, KeySelector classes,
tuple keys and key_type; STREAMING emits every rolling value, BATCH only the last per key."""
from pyflink.common import Types
from pyflink.datastream import (
    KeySelector,
    ReduceFunction,
    RuntimeExecutionMode,
    StreamExecutionEnvironment,
)


class FirstField(KeySelector):
    def get_key(self, value):
        return value[0]


class Concat(ReduceFunction):
    def reduce(self, a, b):
        return a[0], a[1] + b[1], a[2] + '+' + b[2]


DATA = [('a', 1, 'x'), ('b', 2, 'y'), ('a', 3, 'z'), ('c', 4, 'w'), ('b', 5, 'v'), ('a', 6, 'u')]
TYPE = Types.TUPLE([Types.STRING(), Types.INT(), Types.STRING()])

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
for mode in [RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH]:
    env.set_runtime_mode(mode)
    tag = 'S ' if mode == RuntimeExecutionMode.STREAMING else 'B '
    ds = env.from_collection(DATA, type_info=TYPE)
    ds.key_by(FirstField()).reduce(Concat()).print(tag + 'class')
    ds.key_by(lambda t: t[1] % 2, key_type=Types.INT()) \
        .reduce(lambda a, b: (a[0] + b[0], max(a[1], b[1]), b[2])).print(tag + 'parity')
    # a tuple key from a lambda, untyped stream in between
    ds.map(lambda t: (t[0], t[1] > 2, t[1])) \
        .key_by(lambda t: (t[0], t[1])) \
        .reduce(lambda a, b: (a[0], a[1], a[2] * b[2])).print(tag + 'tuple key')
    env.execute()
