"""connect() of two streams of different types with a CoMapFunction (one result per element
of either input) and a CoFlatMapFunction (zero or more results); both runtime modes."""
from pyflink.common import Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import CoFlatMapFunction, CoMapFunction


class Describe(CoMapFunction):
    def map1(self, value):
        return 'map1 int %d squared=%d' % (value, value * value)

    def map2(self, value):
        return 'map2 str %s upper=%s' % (value, value.upper())


class Split(CoFlatMapFunction):
    def flat_map1(self, value):
        for i in range(value):
            yield 'flat_map1 %d.%d' % (value, i)

    def flat_map2(self, value):
        for word in value.split('-'):
            if word:
                yield 'flat_map2 %s' % word


for mode in (RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(mode)
    env.set_parallelism(1)
    numbers = env.from_collection([0, 1, 2, 3], Types.INT())
    words = env.from_collection(['a-b', '', 'c--d'], Types.STRING())
    connected = numbers.connect(words)
    connected.map(Describe(), Types.STRING()).map(lambda s, m=mode.name: m + ' ' + s).print()
    connected.flat_map(Split(), Types.STRING()).map(lambda s, m=mode.name: m + ' ' + s).print()
    env.execute()
