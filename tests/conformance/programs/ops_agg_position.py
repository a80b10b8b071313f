"""sum/min/max/min_by/max_by by position on TUPLE streams and on a basic-type stream; min/max keep
the other fields of the first record, min_by/max_by return a whole record; both modes."""
from pyflink.common import Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment

DATA = [('a', 3, 'first'), ('a', 1, 'second'), ('b', 5, 'third'), ('a', 1, 'fourth'),
        ('a', 7, 'fifth'), ('b', 2, 'sixth')]
TYPE = Types.TUPLE([Types.STRING(), Types.INT(), Types.STRING()])

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
for mode in [RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH]:
    env.set_runtime_mode(mode)
    tag = 'S ' if mode == RuntimeExecutionMode.STREAMING else 'B '
    keyed = env.from_collection(DATA, type_info=TYPE).key_by(lambda t: t[0])
    keyed.sum(1).print(tag + 'sum')
    keyed.min(1).print(tag + 'min')
    keyed.max(1).print(tag + 'max')
    keyed.min_by(1).print(tag + 'min_by')
    keyed.max_by(1).print(tag + 'max_by')
    # a basic-type stream: the default position 0 is the value itself
    env.from_collection([4, 9, 2, 7], type_info=Types.LONG()).key_by(lambda v: v % 2) \
        .max().print(tag + 'basic max')
    env.execute()
