"""Side outputs from a ProcessFunction: `yield tag, value` routes to an OutputTag (typed and
untyped tags), plain `yield value` to the main output; get_side_output() of each tag; one
element can go to several outputs; both runtime modes."""
from pyflink.common import Types
from pyflink.datastream import (
    OutputTag,
    ProcessFunction,
    RuntimeExecutionMode,
    StreamExecutionEnvironment,
)

NEGATIVE = OutputTag('negative', Types.INT())
BIG = OutputTag('big', Types.TUPLE([Types.STRING(), Types.INT()]))
ODD = OutputTag('odd')   # untyped: pickled


class Route(ProcessFunction):
    def process_element(self, value, ctx):
        if value < 0:
            yield NEGATIVE, value
            return
        if value > 100:
            yield BIG, ('big', value)
        if value % 2:
            yield ODD, {'odd': value}
        yield value * 10


for mode in (RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(mode)
    env.set_parallelism(1)
    main = env.from_collection([1, -2, 3, 150, 201, -7, 8], Types.INT()) \
        .process(Route(), Types.INT())
    m = mode.name
    main.map(lambda v, m=m: '%s main %d' % (m, v)).print()
    main.get_side_output(NEGATIVE).map(lambda v, m=m: '%s negative %d' % (m, v)).print()
    main.get_side_output(BIG).map(lambda v, m=m: '%s big %s' % (m, v)).print()
    main.get_side_output(ODD).map(lambda v, m=m: '%s odd %s' % (m, v)).print()
    env.execute()
