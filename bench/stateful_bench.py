"""Stateful streaming benchmark: pystream vs the same jobs hand-written in PySpark, in the
same run (STREAMING mode, bounded input, N records, default 1M, local[2]).

Jobs (1000 keys):
  1. keyed ValueState counter: a KeyedProcessFunction counting per key, emitting every count.
  2. tumbling event-time window sum: timestamps from a TimestampAssigner (record x at x ms),
     key_by -> 10 s tumbling event-time windows -> reduce; the end of the input fires all.

The hand-written versions run the same Python functions (pairing, key selector, timestamp
assigner, reduce) in ``mapInArrow`` and ``transformWithState``: (1) with a typed ValueState,
(2) with a MapState of window start -> reduced value and an event-time timer per window.
``window-one-value`` compares job 2 with a hand-written variant that keeps all of a key's
windows in one ValueState and one timer per key (pystream's own layout). ``window-native``
compares job 2 with Spark's own ``withWatermark`` + ``groupBy(window(...),
key).agg(sum)``, which sums in the JVM without any Python function: a reference for the cost
of a Python reduce, not a target. (Spark's append mode keeps the last window open at the end
of the input: the hand-written jobs emit one window per key less than pystream.) Prints
seconds and pystream's time relative to hand-written; runs alternate, best of ``--repeat``.

    python -m bench.stateful_bench [--records 1000000] [--repeat 3]
"""
from __future__ import annotations

import argparse
import shutil

from bench.core_bench import (
    N_KEYS,
    add_counts,
    compare,
    first,
    run_stream,
    to_pair,
    write_numbers,
)

WINDOW_SECONDS = 10


def key_of(x):
    return x % N_KEYS


def millis(x):
    return x


# ---------------------------------------------------------------------------------------------
# pystream jobs


def pystream_counter(n: int) -> None:
    from pystream.common import Types, WatermarkStrategy
    from pystream.datastream import StreamExecutionEnvironment
    from pystream.datastream.connectors import DiscardingSink, NumberSequenceSource
    from pystream.datastream.functions import KeyedProcessFunction
    from pystream.datastream.state import ValueStateDescriptor

    class Count(KeyedProcessFunction):
        def open(self, runtime_context):
            self.count = runtime_context.get_state(ValueStateDescriptor("count", Types.LONG()))

        def process_element(self, value, ctx):
            count = (self.count.value() or 0) + 1
            self.count.update(count)
            yield ctx.get_current_key(), count

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    env.from_source(NumberSequenceSource(0, n - 1), WatermarkStrategy.no_watermarks(), "seq") \
        .key_by(key_of, Types.LONG()) \
        .process(Count(), Types.TUPLE([Types.LONG(), Types.LONG()])) \
        .sink_to(DiscardingSink())
    env.execute("counter")


def pystream_window_sum(n: int) -> None:
    from pystream.common import Time, Types, WatermarkStrategy
    from pystream.common.watermark_strategy import TimestampAssigner
    from pystream.datastream import StreamExecutionEnvironment
    from pystream.datastream.connectors import DiscardingSink, NumberSequenceSource
    from pystream.datastream.window import TumblingEventTimeWindows

    class Millis(TimestampAssigner):
        def extract_timestamp(self, value, record_timestamp):
            return millis(value)

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    strategy = WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Millis())
    env.from_source(NumberSequenceSource(0, n - 1), strategy, "seq") \
        .map(to_pair, Types.TUPLE([Types.LONG(), Types.LONG()])) \
        .key_by(first, Types.LONG()) \
        .window(TumblingEventTimeWindows.of(Time.seconds(WINDOW_SECONDS))) \
        .reduce(add_counts) \
        .sink_to(DiscardingSink())
    env.execute("window sum")


# ---------------------------------------------------------------------------------------------
# hand-written PySpark


def spark_counter(spark, source_dir: str) -> None:
    import pyarrow as pa
    from pyspark.sql import Row
    from pyspark.sql.streaming import StatefulProcessor

    def keyed(batches):
        for batch in batches:
            values = batch.column(0).to_pylist()
            yield pa.RecordBatch.from_arrays(
                [pa.array([key_of(x) for x in values], pa.int64()),
                 pa.array(values, pa.int64())], names=["key", "value"])

    class Count(StatefulProcessor):
        def init(self, handle):
            self.count = handle.getValueState("count", "count long")

        def handleInputRows(self, key, rows, timerValues):
            current = self.count.get()
            count = 0 if current is None else current[0]
            for _ in rows:
                count += 1
                yield Row(key=key[0], count=count)
            self.count.update((count,))

        def close(self):
            pass

    run_stream(spark.readStream.schema("value long").parquet(source_dir)
                .mapInArrow(keyed, "key long, value long")
                .groupBy("key").transformWithState(Count(), "key long, count long", "Append",
                                                   "None"))


EVENTS = "key long, f0 long, f1 long, ms long"


def window_events(batches):
    """The hand-written window jobs' input: the pairs with their key and timestamp."""
    import pyarrow as pa

    for batch in batches:
        values = batch.column(0).to_pylist()
        pairs = [to_pair(x) for x in values]
        yield pa.RecordBatch.from_arrays(
            [pa.array([first(p) for p in pairs], pa.int64()),
             pa.array([p[0] for p in pairs], pa.int64()),
             pa.array([p[1] for p in pairs], pa.int64()),
             pa.array([millis(x) for x in values], pa.int64())],
            names=["key", "f0", "f1", "ms"])


def run_windows_by_key(spark, source_dir: str, processor) -> None:
    """The hand-written window jobs: events with a watermark, ``processor`` per key."""
    from pyspark.sql import functions as F

    run_stream(spark.readStream.schema("value long").parquet(source_dir)
               .mapInArrow(window_events, EVENTS)
               .withColumn("ts", F.timestamp_millis("ms")).withWatermark("ts", "0 seconds")
               .groupBy("key").transformWithState(processor, "f0 long, f1 long", "Append",
                                                  "EventTime"))


def spark_window_reduce(spark, source_dir: str) -> None:
    """The window job with the same Python reduce function: transformWithState keyed by key,
    a MapState of window start -> reduced value and an event-time timer at each window's
    end (what Flink's window operator does, written directly on Spark)."""
    from pyspark.sql import Row
    from pyspark.sql.streaming import StatefulProcessor

    size = WINDOW_SECONDS * 1000

    class WindowReduce(StatefulProcessor):
        def init(self, handle):
            self.handle = handle
            self.windows = handle.getMapState("windows", "start long", "f0 long, f1 long")

        def handleInputRows(self, key, rows, timerValues):
            reduced = {}
            for row in rows:
                start = row.ms - row.ms % size
                value = (row.f0, row.f1)
                if start not in reduced:
                    stored = self.windows.getValue((start,))
                    if stored is None:
                        self.handle.registerTimer(start + size - 1)
                    reduced[start] = value if stored is None else add_counts(tuple(stored),
                                                                             value)
                else:
                    reduced[start] = add_counts(reduced[start], value)
            for start, value in reduced.items():
                self.windows.updateValue((start,), value)
            return iter(())

        def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):
            start = expiredTimerInfo.getExpiryTimeInMs() + 1 - size
            value = self.windows.getValue((start,))
            self.windows.removeKey((start,))
            yield Row(f0=value[0], f1=value[1])

        def close(self):
            pass

    run_windows_by_key(spark, source_dir, WindowReduce())


def spark_window_reduce_one_value(spark, source_dir: str) -> None:
    """The window job with the same Python reduce, all of a key's windows in one ValueState
    (a pickled dict of window start -> reduced value) and one timer per key at its earliest
    window end: the layout pystream uses, written by hand."""
    import pickle

    from pyspark.sql import Row
    from pyspark.sql.streaming import StatefulProcessor

    size = WINDOW_SECONDS * 1000

    class WindowReduce(StatefulProcessor):
        def init(self, handle):
            self.handle = handle
            self.windows = handle.getValueState("windows", "blob binary")

        def _load(self):
            stored = self.windows.get()
            return {} if stored is None else pickle.loads(stored[0])

        def _save(self, windows, timer):
            earliest = min(windows) + size - 1 if windows else None
            if earliest != timer:
                if timer is not None:
                    self.handle.deleteTimer(timer)
                if earliest is not None:
                    self.handle.registerTimer(earliest)
            if windows:
                self.windows.update((pickle.dumps(windows),))
            else:
                self.windows.clear()

        def handleInputRows(self, key, rows, timerValues):
            windows = self._load()
            timer = min(windows) + size - 1 if windows else None
            for row in rows:
                start = row.ms - row.ms % size
                value = (row.f0, row.f1)
                windows[start] = add_counts(windows[start], value) if start in windows \
                    else value
            self._save(windows, timer)
            return iter(())

        def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):
            windows = self._load()
            watermark = max(timerValues.getCurrentWatermarkInMs(),
                            expiredTimerInfo.getExpiryTimeInMs())
            for start in sorted(windows):
                if start + size - 1 > watermark:
                    break
                value = windows.pop(start)
                yield Row(f0=value[0], f1=value[1])
            self._save(windows, None)

        def close(self):
            pass

    run_windows_by_key(spark, source_dir, WindowReduce())


def spark_window_sum(spark, source_dir: str) -> None:
    from pyspark.sql import functions as F

    df = spark.readStream.schema("value long").parquet(source_dir) \
        .mapInArrow(window_events, EVENTS) \
        .select("key", "f1", F.timestamp_millis("ms").alias("ts")) \
        .withWatermark("ts", "0 seconds") \
        .groupBy(F.window("ts", "%d seconds" % WINDOW_SECONDS), "key") \
        .agg(F.sum("f1").alias("f1"))
    run_stream(df)


# ---------------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", default="counter,window,window-one-value,window-native",
                        help="comma-separated: counter, window, window-one-value, "
                             "window-native")
    args = parser.parse_args()
    n = args.records

    from pystream import session

    session.configure(master="local[2]", conf={"spark.ui.enabled": "false",
                                               "spark.sql.shuffle.partitions": "2"})
    spark = session.get_session()
    numbers = write_numbers(n)
    jobs = {
        "counter": ("keyed ValueState counter", lambda: pystream_counter(n),
                    lambda: spark_counter(spark, numbers)),
        "window": ("tumbling event-time window sum", lambda: pystream_window_sum(n),
                   lambda: spark_window_reduce(spark, numbers)),
        "window-one-value": ("window sum vs one ValueState/key",
                             lambda: pystream_window_sum(n),
                             lambda: spark_window_reduce_one_value(spark, numbers)),
        "window-native": ("window sum vs Spark's native sum", lambda: pystream_window_sum(n),
                          lambda: spark_window_sum(spark, numbers)),
    }
    print("records: %d, local[2], STREAMING, best of %d (median in brackets)\n"
          % (n, args.repeat))
    print("%-32s %17s %17s %8s" % ("job", "pystream s", "PySpark s", "ratio"))
    try:
        for job in args.jobs.split(","):
            name, ours, theirs = jobs[job]
            ours(), theirs()  # warm-up: Python workers, first-query costs
            (ours_best, ours_median), (theirs_best, theirs_median) = compare(
                args.repeat, ours, theirs)
            print("%-32s %7.2f [%6.2f] %7.2f [%6.2f] %7.2fx" % (
                name, ours_best, ours_median, theirs_best, theirs_median,
                ours_best / theirs_best), flush=True)
    finally:
        shutil.rmtree(numbers, ignore_errors=True)
        session.stop_session()
    print("\nratio = pystream time / hand-written PySpark time (1.00x = as fast)")


if __name__ == "__main__":
    main()
