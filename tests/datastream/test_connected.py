"""Two-input operators: connect (CoMap, CoFlatMap, CoProcess, KeyedCoProcess) and broadcast
state. Expected outputs were checked on PyFlink 2.3 (BATCH mode, which orders the inputs as
pystream does: broadcast elements first; STREAMING where both modes agree)."""
import pytest

from pystream.common import Configuration, Types, WatermarkStrategy
from pystream.common.watermark_strategy import TimestampAssigner
from pystream.datastream import OutputTag, StreamExecutionEnvironment
from pystream.datastream.functions import (
    BroadcastProcessFunction,
    CoFlatMapFunction,
    CoMapFunction,
    CoProcessFunction,
    KeyedBroadcastProcessFunction,
    KeyedCoProcessFunction,
)
from pystream.datastream.state import MapStateDescriptor, ValueStateDescriptor
from pystream.errors import JobExecutionError
from tests.helpers import collect, collect_sorted

RULES = MapStateDescriptor("rules", Types.STRING(), Types.INT())


class SecondField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


def timed(env, data):
    return env.from_collection(data).assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(SecondField()))


def test_co_map_and_co_flat_map(env):
    class Tag(CoMapFunction):
        def map1(self, value):
            return "a:%s" % value

        def map2(self, value):
            return "b:%s" % (value * 10)

    class Split(CoFlatMapFunction):
        def flat_map1(self, value):
            yield from value.split()

        def flat_map2(self, value):
            return [str(i) for i in range(value)]

    ints = env.from_collection([1, 2, 3], type_info=Types.INT())
    more = env.from_collection([4, 5], type_info=Types.INT())
    words = env.from_collection(["x y", "z"], type_info=Types.STRING())
    mapped = ints.connect(more).map(Tag(), Types.STRING())
    flat = words.connect(more).flat_map(Split(), Types.STRING())
    assert collect_sorted(mapped.union(flat)) == sorted(
        ["a:1", "a:2", "a:3", "b:40", "b:50", "0", "0", "1", "1", "2", "2", "3", "3", "4",
         "x", "y", "z"])


def test_co_process_sees_timestamps_and_emits_side_outputs(env):
    small = OutputTag("small", Types.INT())

    class Describe(CoProcessFunction):
        def process_element1(self, value, ctx):
            yield "1:%s@%s" % (value[0], ctx.timestamp())

        def process_element2(self, value, ctx):
            if value[0] < 3:
                yield small, value[0]
            else:
                yield "2:%s@%s" % (value[0], ctx.timestamp())

    ds = timed(env, [(1, 10), (2, 20)]).connect(timed(env, [(1, 5), (5, 7)])) \
        .process(Describe(), Types.STRING())
    both = ds.union(ds.get_side_output(small).map(lambda v: "side:%d" % v, Types.STRING()))
    assert collect_sorted(both) == ["1:1@10", "1:2@20", "2:5@7", "side:1"]


class Match(KeyedCoProcessFunction):
    """Orders and payments by key: a payment pays the key's order; an order still unpaid
    100 ms after it was placed is reported by its event-time timer."""

    def open(self, runtime_context):
        self.order = runtime_context.get_state(ValueStateDescriptor("order", Types.LONG()))
        self.paid = runtime_context.get_state(ValueStateDescriptor("paid", Types.BOOLEAN()))

    def process_element1(self, value, ctx):
        if self.paid.value():
            yield "paid", value[0], value[1]
        else:
            self.order.update(value[1])
            ctx.timer_service().register_event_time_timer(value[1] + 100)

    def process_element2(self, value, ctx):
        if self.order.value() is not None:
            yield "paid", value[0], self.order.value()
            self.order.clear()
        self.paid.update(True)

    def on_timer(self, timestamp, ctx):
        if self.order.value() is not None:
            yield ("unpaid", ctx.get_current_key(), timestamp, ctx.timestamp(),
                   str(ctx.time_domain()))


def test_keyed_co_process_shares_state_per_key_and_fires_timers_at_end_of_input(env):
    orders = timed(env, [("a", 1), ("b", 2), ("c", 3)])
    payments = timed(env, [("b", 4), ("d", 5), ("a", 6)])
    ds = orders.connect(payments).key_by(lambda o: o[0], lambda p: p[0]).process(Match())
    assert collect_sorted(ds) == [("paid", "a", 1), ("paid", "b", 2),
                                  ("unpaid", "c", 103, 103, "TimeDomain.EVENT_TIME")]


def test_co_map_on_keyed_streams_uses_keyed_state(env):
    class Count(CoMapFunction):
        def open(self, runtime_context):
            self.n = runtime_context.get_state(ValueStateDescriptor("n", Types.INT()))

        def map1(self, value):
            self.n.update((self.n.value() or 0) + 1)
            return value, self.n.value()

        def map2(self, value):
            self.n.update((self.n.value() or 0) + 1)
            return value[0], self.n.value()

    words = env.from_collection(["a", "b", "a"]).key_by(lambda v: v)
    pairs = env.from_collection([("a", 1), ("c", 2)]).key_by(lambda v: v[0])
    ds = words.connect(pairs).map(Count())
    assert collect_sorted(ds) == [("a", 1), ("a", 2), ("a", 3), ("b", 1), ("c", 1)]


def test_broadcast_state_reaches_every_parallel_instance(env):
    class Apply(BroadcastProcessFunction):
        def process_element(self, value, ctx):
            yield "elem", value, sorted(ctx.get_broadcast_state(RULES).items())

        def process_broadcast_element(self, value, ctx):
            ctx.get_broadcast_state(RULES).put(value[0], value[1])
            yield "rule", value

    items = env.from_collection(["x", "y", "x", "z"])
    rules = env.from_collection([("x", 1), ("y", 2), ("x", 3)])
    ds = items.connect(rules.broadcast(RULES)).process(Apply()).set_parallelism(2)
    state = [("x", 3), ("y", 2)]
    assert collect_sorted(ds) == sorted(
        [("elem", "x", state), ("elem", "x", state), ("elem", "y", state),
         ("elem", "z", state)] + 2 * [("rule", ("x", 1)), ("rule", ("x", 3)), ("rule", ("y", 2))],
        key=repr)


def test_keyed_broadcast_process_with_keyed_state_and_timers(env):
    class Enrich(KeyedBroadcastProcessFunction):
        def open(self, runtime_context):
            self.count = runtime_context.get_state(ValueStateDescriptor("count", Types.INT()))

        def process_element(self, value, ctx):
            n = (self.count.value() or 0) + 1
            self.count.update(n)
            if n == 1:
                ctx.timer_service().register_event_time_timer(1000)
            yield ("elem", ctx.get_current_key(), value[1], n,
                   ctx.get_broadcast_state(RULES).get(value[0]))

        def process_broadcast_element(self, value, ctx):
            ctx.get_broadcast_state(RULES).put(value[0], value[1])

        def on_timer(self, timestamp, ctx):
            yield ("timer", ctx.get_current_key(), timestamp, self.count.value(),
                   sorted(ctx.get_broadcast_state(RULES).items()))

    keyed = timed(env, [("x", 1), ("y", 2), ("x", 3)]).key_by(lambda v: v[0])
    rules = timed(env, [("x", 10), ("y", 20)])
    ds = keyed.connect(rules.broadcast(RULES)).process(Enrich()).set_parallelism(2)
    state = [("x", 10), ("y", 20)]
    assert collect_sorted(ds) == [
        ("elem", "x", 1, 1, 10), ("elem", "x", 3, 2, 10), ("elem", "y", 2, 1, 20),
        ("timer", "x", 1000, 2, state), ("timer", "y", 1000, 1, state)]


def test_broadcast_state_is_read_only_in_process_element(batch_env):
    class Writes(BroadcastProcessFunction):
        def process_element(self, value, ctx):
            ctx.get_broadcast_state(RULES).put(value, 0)
            yield value

        def process_broadcast_element(self, value, ctx):
            pass

    items = batch_env.from_collection(["x"])
    ds = items.connect(batch_env.from_collection([("x", 1)]).broadcast(RULES)).process(Writes())
    with pytest.raises(JobExecutionError, match="broadcast state 'rules' is read-only"):
        collect(ds)


def test_keyed_state_in_a_non_keyed_co_process_function_names_the_operator(batch_env):
    class Stateful(CoProcessFunction):
        def open(self, runtime_context):
            runtime_context.get_state(ValueStateDescriptor("n", Types.INT()))

        def process_element1(self, value, ctx):
            yield value

        def process_element2(self, value, ctx):
            yield value

    one = batch_env.from_collection([1])
    with pytest.raises(JobExecutionError, match=r"only available on a KeyedStream.*'Co-Process'"):
        collect(one.connect(one).process(Stateful()))


def test_keyed_functions_on_non_keyed_inputs_are_rejected(batch_env):
    one, keyed = batch_env.from_collection([1]), batch_env.from_collection([2]).key_by(abs)
    errors = []
    for build in (lambda: one.connect(keyed).process(Match()),
                  lambda: keyed.connect(one.broadcast(RULES)).process(Forward()),
                  lambda: one.connect(one.broadcast(RULES)).process(KeyedForward())):
        with pytest.raises(TypeError) as error:
            build()
        errors.append(str(error.value).split(":")[0].split(" (")[0])
    assert errors == ["KeyedCoProcessFunction needs keyed ConnectedStreams",
                      "BroadcastProcessFunction should be applied to non-keyed DataStream",
                      "KeyedBroadcastProcessFunction should be applied to keyed DataStream"]


class Forward(BroadcastProcessFunction):
    def process_element(self, value, ctx):
        yield value

    def process_broadcast_element(self, value, ctx):
        pass


class KeyedForward(KeyedBroadcastProcessFunction):
    def process_element(self, value, ctx):
        yield value

    def process_broadcast_element(self, value, ctx):
        pass


def test_apply_to_keyed_state_reaches_every_key_of_the_instance():
    """A pystream extension (Flink Java has it, PyFlink not); run on the host directly."""
    from pystream.runtime.context import TaskInfo
    from pystream.runtime.keyed import KeyedHost
    from pystream.runtime.keyed_broadcast import BroadcastOperator
    from pystream.runtime.state import DictBackend

    count = ValueStateDescriptor("count", Types.INT())

    class Scale(KeyedBroadcastProcessFunction):
        def open(self, runtime_context):
            self.count = runtime_context.get_state(count)

        def process_element(self, value, ctx):
            self.count.update((self.count.value() or 0) + 1)
            yield ctx.get_current_key(), self.count.value()

        def process_broadcast_element(self, value, ctx):
            ctx.apply_to_keyed_state(count, lambda key, state: state.update(state.value() * value))

    host = KeyedHost(BroadcastOperator(Scale(), [RULES], lambda v: v), TaskInfo("t", 1, 128), "t")
    host.open()
    host.set_key(0, DictBackend())
    host.process_run(["x", "y", "x"], [None] * 3, 0)
    host.process_run([10], [None], 1)
    host.process_run(["y"], [None], 0)
    assert [value for _, value, _ in host.drain()] == [("x", 1), ("y", 1), ("x", 2), ("y", 11)]


def test_broadcast_state_outlives_micro_batches_and_goes_first_within_one():
    """STREAMING mode's processor on Spark's TwsTester: one key group, three micro-batches."""
    import pickle

    from pyspark.sql import Row as SparkRow
    from pyspark.sql.streaming.tws_tester import TwsTester

    from pystream.runtime.context import TaskInfo
    from pystream.runtime.keyed_broadcast import BroadcastOperator, group_keys
    from pystream.runtime.keyed_stream import KeyedProcessor

    class Lookup(BroadcastProcessFunction):
        def process_element(self, value, ctx):
            yield value, ctx.get_broadcast_state(RULES).get(value)

        def process_broadcast_element(self, value, ctx):
            ctx.get_broadcast_state(RULES).put(*value)

    columns = ("__key", "value", "__input")
    processor = KeyedProcessor(BroadcastOperator(Lookup(), [RULES]), TaskInfo("t", 1, 128),
                               "t", columns, False, "None", broadcast_first=True)
    tester, group = TwsTester(processor), group_keys(1)[0]

    def batch(*rows):
        rows = [SparkRow(__key=group, value=pickle.dumps(v), __input=i) for v, i in rows]
        return [pickle.loads(r.value) for r in tester.test(group, rows)]

    assert batch((("x", 10), 1)) + batch(("x", 0), ("y", 0), (("y", 20), 1)) + \
        batch(("y", 0)) == [("x", 10), ("y", 20), ("y", 20)]


LATE = OutputTag("late", Types.STRING())


class Report(Match):
    """Match, with the unpaid orders on the side output LATE."""

    def on_timer(self, timestamp, ctx):
        for value in super().on_timer(timestamp, ctx):
            yield LATE, "%s unpaid" % value[1]


def order_a_and_c_pay_a(env, function):
    orders = timed(env, [("a", 1), ("c", 3)])
    payments = timed(env, [("a", 6)])
    return orders.connect(payments).key_by(lambda o: o[0], lambda p: p[0]).process(function)


def test_union_of_main_and_side_output_with_timers(streaming_env):
    """The union reads both outputs in one pass: the keyed operator runs once (Spark would
    plan it once per branch, and the second copy's timers never fired)."""
    ds = order_a_and_c_pay_a(streaming_env, Report())
    paid = ds.map(lambda v: "%s %s" % v[:2], Types.STRING())
    assert collect_sorted(paid.union(ds.get_side_output(LATE))) == ["c unpaid", "paid a"]


def test_union_of_two_maps_of_the_main_output_and_a_side_output(streaming_env):
    ds = order_a_and_c_pay_a(streaming_env, Report())
    first = ds.map(lambda v: "1 %s %s" % v[:2], Types.STRING())
    second = ds.map(lambda v: "2 %s %s" % v[:2], Types.STRING())
    assert collect_sorted(first.union(ds.get_side_output(LATE), second)) == [
        "1 paid a", "2 paid a", "c unpaid"]


def test_union_of_two_maps_of_a_keyed_operator_with_timers(streaming_env):
    ds = order_a_and_c_pay_a(streaming_env, Match())
    first = ds.map(lambda v: "1 %s %s" % v[:2], Types.STRING())
    second = ds.map(lambda v: "2 %s %s" % v[:2], Types.STRING())
    assert collect_sorted(first.union(second)) == ["1 paid a", "1 unpaid c", "2 paid a",
                                                   "2 unpaid c"]


def test_union_of_a_keyed_operator_and_its_rebalanced_output(streaming_env):
    """As a batch job (a bounded input with event time, ``plan.batch``)."""
    _union_of_a_keyed_operator_and_its_rebalanced_output(streaming_env)


@pytest.mark.xfail(strict=True, reason="STREAMING queries: a union branch that reads a keyed "
                   "operator through a repartition gets its own copy of the operator (Spark "
                   "plans it once per branch), whose timer outputs are lost")
def test_union_of_a_keyed_operator_and_its_rebalanced_output_in_streaming_queries():
    config = Configuration()
    config.set_string("pystream.execution.bounded-as-batch", "false")
    _union_of_a_keyed_operator_and_its_rebalanced_output(
        StreamExecutionEnvironment.get_execution_environment(config))


def _union_of_a_keyed_operator_and_its_rebalanced_output(env):
    ds = order_a_and_c_pay_a(env, Match())
    first = ds.map(lambda v: "1 %s %s" % v[:2], Types.STRING())
    second = ds.rebalance().map(lambda v: "2 %s %s" % v[:2], Types.STRING())
    assert collect_sorted(first.union(second)) == ["1 paid a", "1 unpaid c", "2 paid a",
                                                   "2 unpaid c"]
