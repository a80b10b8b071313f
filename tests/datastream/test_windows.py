"""Windows: event-time, count and global windows with every window function, in both modes.

Expected outputs were checked on PyFlink 2.3 (parallelism 1) in STREAMING mode; in BATCH mode
PyFlink sorts a keyed input by key and timestamp, and fires every window at the end of its key.
(PyFlink 2.3 loses windows of merging assigners in BATCH mode; pystream gives the STREAMING
results there.)
"""
import pytest

from pystream.common import Duration, Time, Types, WatermarkStrategy
from pystream.common.watermark_strategy import TimestampAssigner
from pystream.datastream.functions import (
    AggregateFunction,
    AllWindowFunction,
    ProcessWindowFunction,
    WindowFunction,
)
from pystream.datastream.window import (
    CountTrigger,
    EventTimeSessionWindows,
    GlobalWindows,
    SessionWindowTimeGapExtractor,
    SlidingEventTimeWindows,
    Trigger,
    TriggerResult,
    TumblingEventTimeWindows,
)
from pystream.errors import JobExecutionError
from tests.conftest import is_batch
from tests.helpers import collect_sorted

T = Types.TUPLE([Types.STRING(), Types.INT(), Types.LONG()])
# (key, value, timestamp); b's element at 4000 arrives after a's at 12500
DATA = [("a", 1, 1000), ("a", 2, 2000), ("b", 3, 3000), ("a", 4, 6000), ("b", 5, 11000),
        ("a", 6, 12500), ("b", 7, 4000), ("a", 8, 30000)]


class ByField2(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[2]


def timed(env, data=DATA, out_of_orderness_ms=None):
    strategy = (WatermarkStrategy.for_monotonous_timestamps() if out_of_orderness_ms is None
                else WatermarkStrategy.for_bounded_out_of_orderness(
                    Duration.of_millis(out_of_orderness_ms)))
    env.set_parallelism(1)
    return env.from_collection(data, T).assign_timestamps_and_watermarks(
        strategy.with_timestamp_assigner(ByField2()))


def keyed(env):
    return timed(env).key_by(lambda e: e[0])


def ordered(records: list) -> list:
    return sorted(records, key=repr)


def add(a, b):
    return a[0], a[1] + b[1], max(a[2], b[2])


class WindowSum(ProcessWindowFunction):
    def process(self, key, context, elements):
        yield key, context.window().start, context.window().end, sum(e[1] for e in elements)


class Average(AggregateFunction):
    def create_accumulator(self):
        return 0, 0

    def add(self, value, accumulator):
        return accumulator[0] + value[1], accumulator[1] + 1

    def get_result(self, accumulator):
        return accumulator[0] / accumulator[1]

    def merge(self, a, b):
        return a[0] + b[0], a[1] + b[1]


def test_tumbling_event_time_reduce(env):
    ds = keyed(env).window(TumblingEventTimeWindows.of(Time.seconds(5))).reduce(add)
    assert collect_sorted(ds) == ordered([("a", 3, 2000), ("a", 4, 6000), ("a", 6, 12500),
                                  ("a", 8, 30000), ("b", 5, 11000), ("b", 10, 4000)])


def test_sliding_event_time_process_window_function(env):
    ds = keyed(env).window(SlidingEventTimeWindows.of(Time.seconds(10), Time.seconds(5))) \
        .process(WindowSum())
    assert collect_sorted(ds) == ordered([
        ("a", -5000, 5000, 3), ("a", 0, 10000, 7), ("a", 10000, 20000, 6),
        ("a", 25000, 35000, 8), ("a", 30000, 40000, 8), ("a", 5000, 15000, 10),
        ("b", -5000, 5000, 10), ("b", 0, 10000, 10), ("b", 10000, 20000, 5),
        ("b", 5000, 15000, 5)])


def test_session_windows_aggregate(env):
    ds = keyed(env).window(EventTimeSessionWindows.with_gap(Time.seconds(3))).aggregate(Average())
    assert collect_sorted(ds) == ordered([1.5, 4.0, 5.0, 5.0, 6.0, 8.0])


def test_session_windows_with_dynamic_gap(env):
    class GapByKey(SessionWindowTimeGapExtractor):
        def extract(self, element):
            return 1000 if element[0] == "a" else 5000

    ds = keyed(env).window(EventTimeSessionWindows.with_dynamic_gap(GapByKey())) \
        .process(WindowSum())
    assert collect_sorted(ds) == ordered([("a", 1000, 3000, 3), ("a", 12500, 13500, 6),
                                  ("a", 30000, 31000, 8), ("a", 6000, 7000, 4),
                                  ("b", 11000, 16000, 5), ("b", 3000, 9000, 10)])


def test_window_apply_and_reduce_with_window_function(env):
    class CountPerWindow(WindowFunction):
        def apply(self, key, window, inputs):
            return [(key, window.start, len(list(inputs)))]

    class EndAndSum(ProcessWindowFunction):
        def process(self, key, context, elements):
            for e in elements:
                yield key, context.window().end, e[1]

    windows = keyed(env).window(TumblingEventTimeWindows.of(Time.seconds(5)))
    counts = windows.apply(CountPerWindow())
    sums = keyed(env).window(TumblingEventTimeWindows.of(Time.seconds(5))) \
        .reduce(add, window_function=EndAndSum())
    assert collect_sorted(counts.union(sums)) == ordered([
        ("a", 0, 2), ("a", 10000, 1), ("a", 10000, 4), ("a", 15000, 6), ("a", 30000, 1),
        ("a", 35000, 8), ("a", 5000, 1), ("a", 5000, 3), ("b", 0, 2), ("b", 10000, 1),
        ("b", 15000, 5), ("b", 5000, 10)])


def test_window_all(env):
    class Values(AllWindowFunction):
        def apply(self, window, inputs):
            return [(window.start, sorted(e[1] for e in inputs))]

    ds = timed(env).window_all(TumblingEventTimeWindows.of(Time.seconds(10))).apply(Values())
    assert collect_sorted(ds) == ordered([(0, [1, 2, 3, 4, 7]), (10000, [5, 6]), (30000, [8])])


def test_count_windows_tumbling_and_sliding(env):
    def last(a, b):
        return a[0], a[1] + b[1], b[2]

    tumbling = keyed(env).count_window(2).reduce(last)
    sliding = keyed(env).count_window(3, 2).reduce(last)
    # BATCH mode sorts b's elements by timestamp: 3@3000, 7@4000, 5@11000
    b = [("b", 10, 4000), ("b", 15, 11000)] if is_batch(env) else [("b", 15, 4000),
                                                                   ("b", 8, 11000)]
    assert collect_sorted(tumbling.union(sliding)) == ordered(
        [("a", 3, 2000), ("a", 10, 12500), ("a", 7, 6000), ("a", 18, 30000), *b])


def test_global_window_with_count_trigger(env):
    ds = keyed(env).window(GlobalWindows.create()).trigger(CountTrigger.of(2)) \
        .reduce(lambda a, b: (a[0], a[1] + b[1], b[2]))
    b = ("b", 10, 4000) if is_batch(env) else ("b", 8, 11000)
    assert collect_sorted(ds) == ordered([("a", 3, 2000), ("a", 13, 12500), b])


def test_window_on_a_stream_without_timestamps_fails_clearly(streaming_env):
    ds = streaming_env.from_collection([("a", 1, 1)], T).key_by(lambda e: e[0]) \
        .window(TumblingEventTimeWindows.of(Time.seconds(5))).reduce(add)
    with pytest.raises(JobExecutionError, match="assign_timestamps_and_watermarks") as failure:
        collect_sorted(ds)
    assert "Window(Reduce)" in str(failure.value)


def test_custom_trigger(env):
    class AtLeast4(Trigger):
        def on_element(self, element, timestamp, window, ctx):
            return TriggerResult.FIRE_AND_PURGE if element[1] >= 4 else TriggerResult.CONTINUE

        def on_processing_time(self, time, window, ctx):
            return TriggerResult.CONTINUE

        def on_event_time(self, time, window, ctx):
            return TriggerResult.CONTINUE

        def on_merge(self, window, ctx):
            pass

        def clear(self, window, ctx):
            pass

    ds = keyed(env).window(GlobalWindows.create()).trigger(AtLeast4()) \
        .reduce(lambda a, b: (a[0], a[1] + b[1], b[2]))
    b = [("b", 10, 4000), ("b", 5, 11000)] if is_batch(env) else [("b", 8, 11000),
                                                                  ("b", 7, 4000)]
    assert collect_sorted(ds) == ordered([("a", 7, 6000), ("a", 6, 12500), ("a", 8, 30000), *b])
