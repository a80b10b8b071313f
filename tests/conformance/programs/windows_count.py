"""Count windows (STREAMING): count_window(3) fires every third element of a key and drops an
incomplete last window at the end of input. PyFlink's sliding count windows are not Flink
Java's evictor-based ones: count_window(3, 2) starts a window every 2 elements of a key and
fires it once it holds 3 elements (a: [1,2,3], [3,4,5], [5,6,7]); CountSlidingWindowAssigner.of(2,
3) keeps 2 of every 3 elements. window() with count assigners shows the CountWindow ids."""
from pyflink.common import Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import ProcessWindowFunction
from pyflink.datastream.window import CountSlidingWindowAssigner, CountTumblingWindowAssigner


class Describe(ProcessWindowFunction):
    def __init__(self, name):
        self.name = name

    def process(self, key, context, elements):
        yield '%s key=%s window=%s values=%s' % (self.name, key, context.window(),
                                                 [e[1] for e in elements])


env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)
data = [('a', 1), ('b', 10), ('a', 2), ('a', 3), ('b', 20), ('a', 4), ('a', 5), ('b', 30),
        ('a', 6), ('a', 7), ('b', 40)]
keyed = env.from_collection(data, Types.TUPLE([Types.STRING(), Types.INT()])) \
    .key_by(lambda r: r[0])
keyed.count_window(3).reduce(lambda x, y: (x[0], x[1] + y[1])) \
    .map(lambda r: 'tumbling3 reduce %s %d' % r).print()
keyed.count_window(3, 2).reduce(lambda x, y: (x[0], x[1] + y[1])) \
    .map(lambda r: 'sliding3/2 reduce %s %d' % r).print()
keyed.window(CountTumblingWindowAssigner.of(2)).process(Describe('tumbling2'), Types.STRING()) \
    .print()
keyed.window(CountSlidingWindowAssigner.of(2, 3)) \
    .process(Describe('sliding2/3'), Types.STRING()).print()
env.execute()
