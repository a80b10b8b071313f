"""ProcessFunction given as a class: yielding zero, one or many records, returning a list instead
of yielding, typed and untyped outputs, open()/close(), and chained after another process;
both modes."""
from pyflink.common import Types
from pyflink.datastream import (
    ProcessFunction,
    RuntimeContext,
    RuntimeExecutionMode,
    StreamExecutionEnvironment,
)


class Fan(ProcessFunction):
    def open(self, runtime_context: RuntimeContext):
        self.total = 0

    def process_element(self, value, ctx):
        self.total += value
        for i in range(value % 3):
            yield value, i, self.total


class AsList(ProcessFunction):
    def process_element(self, value, ctx):
        return ['%s/%s' % (value[0], value[1])]


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
for mode in [RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH]:
    env.set_runtime_mode(mode)
    tag = 'S ' if mode == RuntimeExecutionMode.STREAMING else 'B '
    ds = env.from_collection([1, 2, 3, 4, 5], type_info=Types.INT())
    fanned = ds.process(Fan(), output_type=Types.TUPLE([Types.INT(), Types.INT(), Types.INT()]))
    fanned.print(tag + 'typed')
    ds.process(Fan()).process(AsList(), output_type=Types.STRING()).print(tag + 'chained')
    env.execute()
