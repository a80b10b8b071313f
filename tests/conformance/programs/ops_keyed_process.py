"""KeyedProcessFunction without timers: get_current_key for lambda / KeySelector keys and a
ValueState running count per key, open() with the runtime context; both modes."""
from pyflink.common import Types
from pyflink.datastream import (
    KeyedProcessFunction,
    KeySelector,
    RuntimeContext,
    RuntimeExecutionMode,
    StreamExecutionEnvironment,
)
from pyflink.datastream.state import ValueStateDescriptor


class Count(KeyedProcessFunction):
    def open(self, runtime_context: RuntimeContext):
        self.count = runtime_context.get_state(ValueStateDescriptor('count', Types.INT()))

    def process_element(self, value, ctx):
        seen = (self.count.value() or 0) + 1
        self.count.update(seen)
        yield '%r #%d of key %r' % (value, seen, ctx.get_current_key())


class Upper(KeySelector):
    def get_key(self, value):
        return value[0].upper()


DATA = [('a', 1), ('B', 2), ('A', 3), ('b', 4), ('c', 5)]
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
for mode in [RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH]:
    env.set_runtime_mode(mode)
    tag = 'S ' if mode == RuntimeExecutionMode.STREAMING else 'B '
    ds = env.from_collection(DATA, type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
    ds.key_by(Upper()).process(Count(), output_type=Types.STRING()).print(tag + 'selector')
    ds.key_by(lambda t: t[1] % 2 == 0, key_type=Types.BOOLEAN()) \
        .process(Count(), output_type=Types.STRING()).print(tag + 'bool')
    env.execute()
