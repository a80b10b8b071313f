"""map, flat_map and filter given as lambdas, plain functions, generator functions, callable
objects and MapFunction/FlatMapFunction/FilterFunction classes; in both runtime modes."""
from pyflink.common import Types
from pyflink.datastream import (
    FilterFunction,
    FlatMapFunction,
    MapFunction,
    RuntimeExecutionMode,
    StreamExecutionEnvironment,
)


class Square(MapFunction):
    def map(self, value):
        return value * value


class Repeat(FlatMapFunction):
    def flat_map(self, value):
        for i in range(value % 3):
            yield '%d.%d' % (value, i)


class Odd(FilterFunction):
    def filter(self, value):
        return value % 2 == 1


class AddN:
    def __init__(self, n):
        self.n = n

    def __call__(self, value):
        return value + self.n


def halves(value):
    return [value / 2] if value % 2 else []


def words(line):
    yield from line.split()


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
for mode in [RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH]:
    env.set_runtime_mode(mode)
    tag = 'S ' if mode == RuntimeExecutionMode.STREAMING else 'B '
    numbers = env.from_collection([1, 2, 3, 4], type_info=Types.INT())
    numbers.map(Square(), output_type=Types.INT()).filter(Odd()).print(tag + 'class map+filter')
    numbers.map(AddN(100)).filter(lambda v: v > 102).print(tag + 'callable map+lambda filter')
    numbers.flat_map(Repeat(), output_type=Types.STRING()).print(tag + 'class flat_map')
    numbers.flat_map(halves).print(tag + 'list flat_map')
    env.from_collection(['a b', '', 'c  d e'], type_info=Types.STRING()) \
        .flat_map(words, output_type=Types.STRING()).map(str.upper, output_type=Types.STRING()) \
        .print(tag + 'generator flat_map')
    # filter on truthiness of non-bool results, and a filter that drops everything
    numbers.filter(lambda v: v % 3).print(tag + 'truthy filter')
    numbers.filter(lambda v: False).print(tag + 'empty')
    env.execute()
