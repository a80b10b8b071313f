"""Core benchmark: pystream vs the same jobs hand-written in PySpark, in the same run.

Jobs (N records, default 1M, local[2]):
  1. map/filter chain (BATCH): map -> filter -> map, Python lambdas.
  2. keyed rolling reduce (STREAMING): every rolling update is emitted.
  3. keyed reduce (BATCH): the final value per key.

The hand-written versions run the same Python functions the fastest way PySpark offers:
``mapInArrow`` with list comprehensions, ``transformWithState`` with typed state,
``groupBy().applyInArrow``. Prints records/s and pystream's time relative to hand-written.

    python bench/core_bench.py [--records 1000000] [--repeat 3]
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time

N_KEYS = 1000


def double(x):
    return x * 2


def not_div3(x):
    return x % 3 != 0


def plus_one(x):
    return x + 1


def to_pair(x):
    return x % N_KEYS, 1


def first(pair):
    return pair[0]


def add_counts(a, b):
    return a[0], a[1] + b[1]


# ---------------------------------------------------------------------------------------------
# pystream jobs


def pystream_chain(n: int) -> None:
    from pystream.common import Types, WatermarkStrategy
    from pystream.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
    from pystream.datastream.connectors import DiscardingSink, NumberSequenceSource

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(RuntimeExecutionMode.BATCH)
    env.set_parallelism(2)
    env.from_source(NumberSequenceSource(0, n - 1), WatermarkStrategy.no_watermarks(), "seq") \
        .map(double, Types.LONG()).filter(not_div3).map(plus_one, Types.LONG()) \
        .sink_to(DiscardingSink())
    env.execute("chain")


def pystream_reduce(n: int, batch: bool) -> None:
    from pystream.common import Types, WatermarkStrategy
    from pystream.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
    from pystream.datastream.connectors import DiscardingSink, NumberSequenceSource

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(RuntimeExecutionMode.BATCH if batch else RuntimeExecutionMode.STREAMING)
    env.set_parallelism(2)
    pairs = Types.TUPLE([Types.LONG(), Types.LONG()])
    env.from_source(NumberSequenceSource(0, n - 1), WatermarkStrategy.no_watermarks(), "seq") \
        .map(to_pair, pairs).key_by(first).reduce(add_counts).sink_to(DiscardingSink())
    env.execute("reduce")


# ---------------------------------------------------------------------------------------------
# hand-written PySpark


def spark_chain(spark, n: int) -> None:
    import pyarrow as pa

    def chain(batches):
        for batch in batches:
            values = [plus_one(v) for v in (double(x) for x in batch.column(0).to_pylist())
                      if not_div3(v)]
            yield pa.RecordBatch.from_arrays([pa.array(values, pa.int64())], names=["id"])

    spark.range(0, n, 1, 2).mapInArrow(chain, "id long").write.format("noop") \
        .mode("overwrite").save()


def spark_reduce_streaming(spark, source_dir: str) -> None:
    import pyarrow as pa
    from pyspark.sql import Row
    from pyspark.sql.streaming import StatefulProcessor

    def pairs(batches):
        for batch in batches:
            out = [to_pair(x) for x in batch.column(0).to_pylist()]
            keys = [first(p) for p in out]
            yield pa.RecordBatch.from_arrays(
                [pa.array(keys, pa.int64()), pa.array([p[0] for p in out], pa.int64()),
                 pa.array([p[1] for p in out], pa.int64())], names=["key", "f0", "f1"])

    class RollingReduce(StatefulProcessor):
        def init(self, handle):
            self.state = handle.getValueState("acc", "f0 long, f1 long")

        def handleInputRows(self, key, rows, timerValues):
            acc = self.state.get()
            for row in rows:
                value = (row.f0, row.f1)
                acc = value if acc is None else add_counts(acc, value)
                yield Row(f0=acc[0], f1=acc[1])
            self.state.update(acc)

        def close(self):
            pass

    run_stream(spark.readStream.schema("value long").parquet(source_dir)
               .mapInArrow(pairs, "key long, f0 long, f1 long")
               .groupBy("key").transformWithState(RollingReduce(), "f0 long, f1 long",
                                                  "Append", "None"))


def run_stream(df) -> None:
    """Run a streaming DataFrame into Spark's ``noop`` sink until its input is consumed."""
    checkpoint = tempfile.mkdtemp()
    try:
        df.writeStream.format("noop").trigger(availableNow=True) \
            .option("checkpointLocation", checkpoint).start().awaitTermination()
    finally:
        shutil.rmtree(checkpoint, ignore_errors=True)


def spark_reduce_batch(spark, n: int) -> None:
    import pyarrow as pa

    def pairs(batches):
        for batch in batches:
            out = [to_pair(x) for x in batch.column(0).to_pylist()]
            yield pa.RecordBatch.from_arrays(
                [pa.array([first(p) for p in out], pa.int64()),
                 pa.array([p[0] for p in out], pa.int64()),
                 pa.array([p[1] for p in out], pa.int64())], names=["key", "f0", "f1"])

    def fold(table):
        acc = None
        for value in zip(table.column("f0").to_pylist(), table.column("f1").to_pylist()):
            acc = value if acc is None else add_counts(acc, value)
        return pa.table({"f0": [acc[0]], "f1": [acc[1]]}, schema=pa.schema(
            [("f0", pa.int64()), ("f1", pa.int64())]))

    spark.range(0, n, 1, 2).mapInArrow(pairs, "key long, f0 long, f1 long") \
        .groupBy("key").applyInArrow(fold, "f0 long, f1 long").write.format("noop") \
        .mode("overwrite").save()


def write_numbers(n: int) -> str:
    import pyarrow as pa
    import pyarrow.parquet as pq

    directory = tempfile.mkdtemp(prefix="bench-numbers-")
    half = n // 2
    for i, (lo, hi) in enumerate([(0, half), (half, n)]):
        pq.write_table(pa.table({"value": pa.array(range(lo, hi), pa.int64())}),
                       "%s/part-%d.parquet" % (directory, i))
    return directory


# ---------------------------------------------------------------------------------------------


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def compare(repeat: int, ours, theirs):
    """Alternate the two jobs (the machine's load changes over time); best and median."""
    ours_times, theirs_times = [], []
    for _ in range(repeat):
        ours_times.append(timed(ours))
        theirs_times.append(timed(theirs))
    return ((min(ours_times), statistics.median(ours_times)),
            (min(theirs_times), statistics.median(theirs_times)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    n = args.records

    from pystream import session

    session.configure(master="local[2]", conf={"spark.ui.enabled": "false",
                                               "spark.sql.shuffle.partitions": "2"})
    spark = session.get_session()
    numbers = write_numbers(n)
    jobs = [
        ("map/filter chain (BATCH)", lambda: pystream_chain(n), lambda: spark_chain(spark, n)),
        ("keyed rolling reduce (STREAMING)", lambda: pystream_reduce(n, batch=False),
         lambda: spark_reduce_streaming(spark, numbers)),
        ("keyed reduce, final values (BATCH)", lambda: pystream_reduce(n, batch=True),
         lambda: spark_reduce_batch(spark, n)),
    ]
    print("records: %d, local[2], best of %d (median in brackets)\n" % (n, args.repeat))
    print("%-36s %16s %16s %8s" % ("job", "pystream rec/s", "PySpark rec/s", "ratio"))
    try:
        for name, ours, theirs in jobs:
            ours(), theirs()  # warm-up: Python workers, first-query costs
            (ours_best, ours_median), (theirs_best, theirs_median) = compare(
                args.repeat, ours, theirs)
            print("%-36s %9.0f [%5.0fk] %9.0f [%5.0fk] %7.2fx" % (
                name, n / ours_best, n / ours_median / 1000, n / theirs_best,
                n / theirs_median / 1000, ours_best / theirs_best))
    finally:
        shutil.rmtree(numbers, ignore_errors=True)
        session.stop_session()
    print("\nratio = pystream time / hand-written PySpark time (1.00x = as fast)")


if __name__ == "__main__":
    main()
