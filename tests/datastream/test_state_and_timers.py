"""Keyed state of every kind, TTL, timers, side outputs, in both modes.

Expected outputs were checked on PyFlink 2.3 (parallelism 1), with two differences where
PyFlink's answer comes from its Python-side state cache rather than from Flink's documented
semantics: PyFlink returns a value past its TTL (pystream never returns an expired value), and
in BATCH mode it loses list state added before a key's first timer registration was checked
(`clear_and_end` below gives ('b', [5], []) on PyFlink).
"""
import time

import pytest

from pystream.common import Time, Types, WatermarkStrategy
from pystream.common.watermark_strategy import TimestampAssigner
from pystream.datastream import OutputTag
from pystream.datastream.functions import (
    AggregateFunction,
    KeyedProcessFunction,
    MapFunction,
    ProcessFunction,
)
from pystream.datastream.state import (
    AggregatingStateDescriptor,
    ListStateDescriptor,
    MapStateDescriptor,
    ReducingStateDescriptor,
    StateTtlConfig,
    ValueStateDescriptor,
)
from pystream.errors import JobExecutionError
from tests.helpers import collect_sorted

T = Types.TUPLE([Types.STRING(), Types.INT(), Types.LONG()])
DATA = [("a", 1, 1000), ("a", 2, 2000), ("b", 3, 3000), ("a", 4, 6000), ("b", 5, 11000)]


class ByField2(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[2]


def timed(env, data=DATA):
    env.set_parallelism(1)
    return env.from_collection(data, T).assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(ByField2()))


def ordered(records: list) -> list:
    return sorted(records, key=repr)


class Total(AggregateFunction):
    def create_accumulator(self):
        return 0

    def add(self, value, accumulator):
        return accumulator + value

    def get_result(self, accumulator):
        return accumulator

    def merge(self, a, b):
        return a + b


class AllStates(KeyedProcessFunction):
    def open(self, runtime_context):
        self.count = runtime_context.get_state(ValueStateDescriptor("v", Types.INT()))
        self.seen = runtime_context.get_list_state(ListStateDescriptor("l", Types.INT()))
        self.names = runtime_context.get_map_state(
            MapStateDescriptor("m", Types.INT(), Types.STRING()))
        self.product = runtime_context.get_reducing_state(
            ReducingStateDescriptor("r", lambda a, b: a * b, Types.INT()))
        self.total = runtime_context.get_aggregating_state(
            AggregatingStateDescriptor("g", Total(), Types.INT()))

    def process_element(self, value, ctx):
        n = value[1]
        self.count.update((self.count.value() or 0) + 1)
        self.seen.add(n)
        self.names.put(n, str(n) * n)
        self.product.add(n)
        self.total.add(n)
        yield (ctx.get_current_key(), self.count.value(), list(self.seen.get()),
               sorted(self.names.items()), self.product.get(), self.total.get(),
               self.names.contains(1))


def test_every_kind_of_keyed_state(env):
    ds = timed(env).key_by(lambda e: e[0]).process(AllStates())
    assert collect_sorted(ds) == ordered([
        ("a", 1, [1], [(1, "1")], 1, 1, True),
        ("a", 2, [1, 2], [(1, "1"), (2, "22")], 2, 3, True),
        ("a", 3, [1, 2, 4], [(1, "1"), (2, "22"), (4, "4444")], 8, 7, True),
        ("b", 1, [3], [(3, "333")], 3, 3, False),
        ("b", 2, [3, 5], [(3, "333"), (5, "55555")], 15, 8, False)])


def test_state_past_its_ttl_is_not_returned(env):
    class Previous(MapFunction):
        def open(self, runtime_context):
            descriptor = ValueStateDescriptor("previous", Types.INT())
            descriptor.enable_time_to_live(
                StateTtlConfig.new_builder(Time.milliseconds(50)).build())
            self.previous = runtime_context.get_state(descriptor)

        def map(self, value):
            before = self.previous.value()
            self.previous.update(value[1])
            time.sleep(0.1)
            return value[0], value[1], before

    ds = env.from_collection([("a", 1, 0), ("a", 2, 0), ("a", 3, 0)], T) \
        .key_by(lambda e: e[0]).map(Previous())
    assert collect_sorted(ds) == [("a", 1, None), ("a", 2, None), ("a", 3, None)]


def test_event_time_timers_fire_as_the_watermark_passes_and_at_the_end(env):
    class Remind(KeyedProcessFunction):
        def process_element(self, value, ctx):
            ctx.timer_service().register_event_time_timer(ctx.timestamp() + 5000)
            yield "element", value[1], ctx.get_current_key(), ctx.timestamp()

        def on_timer(self, timestamp, ctx):
            yield "timer", timestamp, ctx.get_current_key(), ctx.timestamp()

    ds = timed(env).key_by(lambda e: e[0]).process(Remind())
    assert collect_sorted(ds) == ordered([
        ("element", 1, "a", 1000), ("element", 2, "a", 2000), ("element", 3, "b", 3000),
        ("element", 4, "a", 6000), ("element", 5, "b", 11000), ("timer", 6000, "a", 6000),
        ("timer", 7000, "a", 7000), ("timer", 8000, "b", 8000), ("timer", 11000, "a", 11000),
        ("timer", 16000, "b", 16000)])


def test_cleared_state_and_a_timer_at_the_end_of_input(env):
    class Batches(KeyedProcessFunction):
        def open(self, runtime_context):
            self.pending = runtime_context.get_list_state(ListStateDescriptor("l", Types.INT()))

        def process_element(self, value, ctx):
            self.pending.add(value[1])
            if value[1] >= 4:
                batch = list(self.pending.get())
                self.pending.clear()
                yield ctx.get_current_key(), batch, list(self.pending.get())
            ctx.timer_service().register_event_time_timer(100000)

        def on_timer(self, timestamp, ctx):
            yield (ctx.get_current_key(), "end", list(self.pending.get()),
                   ctx.timer_service().current_watermark() >= timestamp)

    ds = timed(env).key_by(lambda e: e[0]).process(Batches())
    assert collect_sorted(ds) == ordered([
        ("a", [1, 2, 4], []), ("a", "end", [], True), ("b", [3, 5], []),
        ("b", "end", [], True)])


def test_side_outputs(env):
    low = OutputTag("low", Types.INT())

    class Split(ProcessFunction):
        def process_element(self, value, ctx):
            if value[1] < 3:
                yield low, value[1]
            else:
                yield value[0]

    main = timed(env).process(Split(), Types.STRING())
    ds = main.union(main.get_side_output(low).map(lambda i: "low %d" % i, Types.STRING()))
    assert collect_sorted(ds) == ["a", "b", "b", "low 1", "low 2"]


def test_a_timer_on_a_non_keyed_stream_names_the_operator(env):
    class Timer(ProcessFunction):
        def process_element(self, value, ctx):
            ctx.timer_service().register_event_time_timer(1)
            yield value

    ds = timed(env).process(Timer()).name("timing")
    with pytest.raises(JobExecutionError,
                       match=r"Register timers is only supported on a keyed stream.*'timing'"):
        collect_sorted(ds)


def test_an_exception_in_on_timer_names_the_operator_and_the_timer(env):
    class Failing(KeyedProcessFunction):
        def process_element(self, value, ctx):
            ctx.timer_service().register_event_time_timer(ctx.timestamp() + 1)
            return []

        def on_timer(self, timestamp, ctx):
            raise ValueError("timer went off")

    ds = timed(env).key_by(lambda e: e[0]).process(Failing()).name("alarm")
    with pytest.raises(JobExecutionError) as failure:
        collect_sorted(ds)
    message = str(failure.value)
    assert ("timer went off" in message, "'alarm'" in message, "timer@" in message) == \
        (True, True, True)


def test_a_bounded_job_ends_with_processing_time_timers_pending(streaming_env):
    class Later(KeyedProcessFunction):
        def process_element(self, value, ctx):
            service = ctx.timer_service()
            service.register_processing_time_timer(service.current_processing_time() + 60000)
            yield value

        def on_timer(self, timestamp, ctx):
            yield "timer"

    ds = streaming_env.from_collection([1, 2, 3]).key_by(lambda x: x % 2).process(Later())
    assert collect_sorted(ds) == [1, 2, 3]
