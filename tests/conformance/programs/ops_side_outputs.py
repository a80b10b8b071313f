"""ProcessFunction and KeyedProcessFunction emitting to side outputs via OutputTag (typed, list
type -> ROW, untyped/pickled), read back with get_side_output; main output alongside; both modes."""
from pyflink.common import Row, Types
from pyflink.datastream import (
    KeyedProcessFunction,
    OutputTag,
    ProcessFunction,
    RuntimeExecutionMode,
    StreamExecutionEnvironment,
)

EVEN = OutputTag('even', Types.INT())
NEGATIVE = OutputTag('negative', [Types.STRING(), Types.INT()])
OTHER = OutputTag('other')


class Split(ProcessFunction):
    def process_element(self, value, ctx):
        if value < 0:
            yield NEGATIVE, Row('neg', value)
        elif value % 2 == 0:
            yield EVEN, value
            yield OTHER, {'even': value}
        else:
            yield value * 100


class KeyedSplit(KeyedProcessFunction):
    def process_element(self, value, ctx):
        yield OTHER, (ctx.get_current_key(), value)
        if value > 2:
            yield 'big %d' % value


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
for mode in [RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH]:
    env.set_runtime_mode(mode)
    tag = 'S ' if mode == RuntimeExecutionMode.STREAMING else 'B '
    numbers = env.from_collection([1, 2, -3, 4, 5, -6], type_info=Types.INT())
    main = numbers.process(Split(), output_type=Types.INT())
    main.print(tag + 'main')
    main.get_side_output(EVEN).map(lambda v: v + 1, output_type=Types.INT()).print(tag + 'even+1')
    main.get_side_output(NEGATIVE).print(tag + 'negative')
    main.get_side_output(OTHER).print(tag + 'other')
    keyed = numbers.key_by(lambda v: 'pos' if v > 0 else 'neg') \
        .process(KeyedSplit(), output_type=Types.STRING())
    keyed.print(tag + 'keyed main')
    keyed.get_side_output(OTHER).print(tag + 'keyed other')
    env.execute()
