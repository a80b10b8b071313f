"""What a job costs before its first record: nothing started or imported that it does not use,
and a bounded STREAMING job without time runs as a Spark batch job."""
from __future__ import annotations

import subprocess
import sys

import pytest

from pystream import graph
from pystream.common import Configuration, Types, WatermarkStrategy
from pystream.common.time import Duration, Time
from pystream.common.watermark_strategy import TimestampAssigner
from pystream.datastream import (
    KeyedBroadcastProcessFunction,
    KeyedProcessFunction,
    OutputTag,
    StreamExecutionEnvironment,
)
from pystream.datastream.connectors import NumberSequenceSource
from pystream.datastream.state import MapStateDescriptor, ValueStateDescriptor
from pystream.datastream.stream_execution_environment import BOUNDED_AS_BATCH
from pystream.datastream.window import (
    TumblingEventTimeWindows,
    TumblingProcessingTimeWindows,
)
from pystream.plan import JobSettings
from pystream.plan.batch import as_batch_reason

BUILD_A_JOB = """
import sys
from pystream.common import Types
from pystream.datastream import StreamExecutionEnvironment
import pystream.table, pystream.datastream.connectors, pystream.common

env = StreamExecutionEnvironment.get_execution_environment()
env.from_collection([1, 2, 3], Types.INT()).map(lambda x: x + 1).key_by(lambda x: x % 2) \\
    .reduce(lambda a, b: a + b).print()
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("pyspark", "py4j", "pandas"))
assert not loaded, loaded
"""


def test_importing_pystream_and_building_a_job_imports_no_spark():
    """Spark (and pandas) load when a job runs, not when the API is imported or used."""
    done = subprocess.run([sys.executable, "-c", BUILD_A_JOB], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr


def sinks_of(env: StreamExecutionEnvironment):
    return list(env._sinks)


def stateless_job():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.from_collection([1, 2, 3], Types.INT()).map(lambda x: x * 2, Types.INT()) \
        .filter(lambda x: x > 2).print()
    return env


def test_a_bounded_stateless_streaming_job_may_run_as_batch():
    assert as_batch_reason(sinks_of(stateless_job()), JobSettings(batch=False))


class Timeout(KeyedProcessFunction):
    def process_element(self, value, ctx):
        ctx.timer_service().register_processing_time_timer(10)
        yield value

    def on_timer(self, timestamp, ctx):
        yield -1


@pytest.mark.parametrize("why", ["timers", "broadcast state", "processing time",
                                 "windows after windows", "checkpointing", "unbounded",
                                 "switched off"])
def test_what_keeps_a_streaming_job_streaming(why):
    env = StreamExecutionEnvironment.get_execution_environment()
    settings = JobSettings(batch=False)
    if why == "unbounded":
        env.socket_text_stream("localhost", 9).print()
    else:
        ds = env.from_source(NumberSequenceSource(1, 10), WatermarkStrategy.no_watermarks(), "n")
        if why == "timers":
            ds = ds.key_by(lambda x: x % 2).process(Timeout(), Types.LONG())
        elif why == "broadcast state":
            rules = MapStateDescriptor("rules", Types.LONG(), Types.LONG())
            ds = ds.key_by(lambda x: x % 2).connect(ds.broadcast(rules)).process(Rules())
        elif why == "processing time":
            ds = ds.key_by(lambda x: x % 2).window(
                TumblingProcessingTimeWindows.of(Time.seconds(1))).reduce(lambda a, b: a + b)
        elif why == "windows after windows":
            ds = ds.assign_timestamps_and_watermarks(
                WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Stamp()))
            for _ in range(2):
                ds = ds.key_by(lambda x: x % 2).window(
                    TumblingEventTimeWindows.of(Time.seconds(1))).reduce(lambda a, b: a + b)
        elif why == "checkpointing":
            settings = JobSettings(batch=False, checkpoint_interval_ms=1000)
        elif why == "switched off":
            settings = JobSettings(batch=False, may_run_as_batch=False)
        ds.print()
    assert as_batch_reason(sinks_of(env), settings) is None
    assert all(isinstance(n, graph.Node) for n in graph.walk(sinks_of(env)))


class Stamp(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value * 100


class Rules(KeyedBroadcastProcessFunction):
    def process_element(self, value, ctx):
        yield value

    def process_broadcast_element(self, value, ctx):
        pass


class RunningCount(KeyedProcessFunction):
    def open(self, runtime_context):
        self.count = runtime_context.get_state(ValueStateDescriptor("count", Types.INT()))

    def process_element(self, value, ctx):
        self.count.update((self.count.value() or 0) + 1)
        yield ctx.get_current_key(), self.count.value()


def test_a_bounded_job_with_keyed_state_but_no_time_may_run_as_batch():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.from_collection([1, 2, 3], Types.INT()).key_by(lambda x: x % 2) \
        .reduce(lambda a, b: a + b).print()
    assert as_batch_reason(sinks_of(env), JobSettings(batch=False))


def _environment(as_batch: bool, parallelism: int) -> StreamExecutionEnvironment:
    """An environment whose bounded jobs may run as batch jobs, or keep streaming queries."""
    config = Configuration()
    config.set_string(BOUNDED_AS_BATCH, str(as_batch).lower())
    env = StreamExecutionEnvironment.get_execution_environment(config)
    env.set_parallelism(parallelism)
    return env


@pytest.mark.parametrize("parallelism", [1, 2])
def test_run_as_batch_or_as_streaming_queries_the_job_prints_the_same(capfd, parallelism):
    """Stateless operators, a rolling reduce and a keyed function with state: the same
    lines, and at parallelism 1 the same order (each record's outputs where it came)."""
    outputs = []
    for as_batch in (True, False):
        env = _environment(as_batch, parallelism)
        numbers = env.from_collection(list(range(10)), Types.INT()) \
            .map(lambda x: x * 3, Types.INT()).filter(lambda x: x % 2 == 0)
        numbers.print()
        sums = numbers.key_by(lambda x: x % 4).reduce(lambda a, b: a + b)
        counts = sums.key_by(lambda x: x % 3).process(
            RunningCount(), Types.TUPLE([Types.INT(), Types.INT()]))
        with counts.execute_and_collect() as values:
            collected = list(values)
        printed = capfd.readouterr().out
        outputs.append((sorted(printed.splitlines()), collected))
    if parallelism > 1:
        outputs = [(printed, sorted(collected)) for printed, collected in outputs]
    assert outputs[0] == outputs[1]
    assert sorted(outputs[0][1]) == [(0, 1), (0, 2), (0, 3), (0, 4), (0, 5)]


class Seen(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class Alarm(KeyedProcessFunction):
    """An event-time timer a second after each record; records behind the watermark go to
    a side output."""

    def process_element(self, value, ctx):
        if ctx.timestamp() <= ctx.timer_service().current_watermark():
            yield LATE, value
        ctx.timer_service().register_event_time_timer(ctx.timestamp() + 1000)
        yield "seen", value[0], value[1]

    def on_timer(self, timestamp, ctx):
        yield "alarm", ctx.get_current_key(), timestamp


LATE = OutputTag("late", Types.TUPLE([Types.STRING(), Types.INT()]))


@pytest.mark.parametrize("parallelism", [1, 2])
def test_event_time_as_batch_or_as_streaming_queries_gives_the_same(parallelism):
    """A window and a function's event-time timers over out-of-order records: the same
    records (at parallelism 1 in the same order), late ones included."""
    outputs = []
    for as_batch in (True, False):
        env = _environment(as_batch, parallelism)
        pairs = env.from_collection(
            [("a", 1000), ("b", 1500), ("a", 3000), ("a", 500), ("b", 7000), ("a", 12000),
             ("b", 2000), ("a", 4000)], Types.TUPLE([Types.STRING(), Types.INT()])) \
            .assign_timestamps_and_watermarks(
                WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_millis(1000))
                .with_timestamp_assigner(Seen()))
        windows = pairs.key_by(lambda p: p[0]).window(
            TumblingEventTimeWindows.of(Time.seconds(5))).reduce(lambda x, y: (x[0], x[1] + y[1]))
        alarms = pairs.key_by(lambda p: p[0]).process(Alarm())
        collected = [list(windows.execute_and_collect()), list(alarms.execute_and_collect()),
                     list(alarms.get_side_output(LATE).execute_and_collect())]
        outputs.append(collected if parallelism == 1 else [sorted(c) for c in collected])
    assert outputs[0] == outputs[1]
    assert sorted(outputs[0][0]) == [("a", 8500), ("a", 12000), ("b", 3500), ("b", 7000)]
