"""A four-operator map/filter job over NumberSequenceSource, collected.

    python map_filter.py N MODE


Written against PyFlink's API; the benchmark runs it as it is on pystream and, with the
top-level package renamed to ``pyflink``, on real PyFlink. With N <= 10 it reads N elements
from a collection and prints them instead. Prints ``count sum`` of what it collected.
"""
import sys

from pystream.common import Types, WatermarkStrategy
from pystream.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pystream.datastream.connectors.number_seq import NumberSequenceSource


def main(n: int, mode: str) -> None:
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(RuntimeExecutionMode.BATCH if mode == "batch"
                         else RuntimeExecutionMode.STREAMING)
    env.set_parallelism(2)
    if n <= 10:
        env.from_collection(list(range(n)), Types.LONG()) \
            .map(lambda x: x * 2, Types.LONG()).filter(lambda x: x % 3 != 0) \
            .map(lambda x: x + 1, Types.LONG()).print()
        env.execute("map_filter")
        return
    numbers = env.from_source(NumberSequenceSource(0, n - 1), WatermarkStrategy.no_watermarks(),
                              "numbers")
    result = numbers.map(lambda x: x * 2, Types.LONG()).filter(lambda x: x % 3 != 0) \
        .map(lambda x: x + 1, Types.LONG())
    count = total = 0
    with result.execute_and_collect("map_filter") as values:
        for value in values:
            count += 1
            total += value
    print(count, total)


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
