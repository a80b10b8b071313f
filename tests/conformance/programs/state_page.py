"""Flink's "Working with State" page (Python DataStream API): the page's example; every
operation of ValueState, ListState, MapState, ReducingState and AggregatingState over None,
tuples, Rows and a class of the program (pickled); state TTL's builder and getters; state in
keyed FlatMap, Map and KeyedProcess functions with event-time timers, a KeyedCoProcessFunction,
keyed and non-keyed broadcast state; STREAMING, then BATCH. Records carry their position as
their timestamp (BATCH sorts a key's records by it); timers are set past every record."""
# oracle: ordered

from pyflink.common import Row, WatermarkStrategy
from pyflink.common.time import Time
from pyflink.common.typeinfo import Types
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import (
    FlatMapFunction,
    MapFunction,
    RuntimeContext,
    RuntimeExecutionMode,
    StreamExecutionEnvironment,
)
from pyflink.datastream.functions import (
    AggregateFunction,
    BroadcastProcessFunction,
    KeyedBroadcastProcessFunction,
    KeyedCoProcessFunction,
    KeyedProcessFunction,
)
from pyflink.datastream.state import (
    AggregatingStateDescriptor,
    ListStateDescriptor,
    MapStateDescriptor,
    ReducingStateDescriptor,
    StateTtlConfig,
    ValueStateDescriptor,
)


def banner(s):
    print("=== " + s, flush=True)


# ------------------------------------------------------------------------------------------
# 1. The page's example, verbatim (pickled ValueState in a FlatMapFunction)

class CountWindowAverage(FlatMapFunction):

    def __init__(self):
        self.sum = None

    def open(self, runtime_context: RuntimeContext):
        descriptor = ValueStateDescriptor(
            "average",  # the state name
            Types.PICKLED_BYTE_ARRAY()  # type information
        )
        self.sum = runtime_context.get_state(descriptor)

    def flat_map(self, value):
        current_sum = self.sum.value()
        if current_sum is None:
            current_sum = (0, 0)
        current_sum = (current_sum[0] + 1, current_sum[1] + value[1])
        self.sum.update(current_sum)
        if current_sum[0] >= 2:
            self.sum.clear()
            yield value[0], int(current_sum[1] / current_sum[0])


# ------------------------------------------------------------------------------------------
# 2. Keyed state primitives, driven by (tag, key, op, arg) records


class Point:
    """A plain Python class stored in pickled state."""

    def __init__(self, x, y):
        self.x, self.y = x, y

    def __repr__(self):
        return "Point(%r, %r)" % (self.x, self.y)


class AvgAgg(AggregateFunction):
    def create_accumulator(self):
        return (0, 0)

    def add(self, value, accumulator):
        return accumulator[0] + value, accumulator[1] + 1

    def get_result(self, accumulator):
        return None if accumulator[1] == 0 else accumulator[0] / accumulator[1]

    def merge(self, a, b):
        return a[0] + b[0], a[1] + b[1]


def safe(f):
    try:
        return repr(f())
    except Exception as e:  # noqa
        return "ERR " + type(e).__name__


class FlatStage(FlatMapFunction):
    """tag 'fm': a typed tuple ValueState + ListState in a FlatMapFunction; others pass."""

    def open(self, ctx: RuntimeContext):
        self.cnt = ctx.get_state(ValueStateDescriptor(
            "cnt", Types.TUPLE([Types.LONG(), Types.LONG()])))
        self.seen = ctx.get_list_state(ListStateDescriptor("seen", Types.STRING()))

    def flat_map(self, r):
        if r[0] != "fm":
            yield r
            return
        c = self.cnt.value()
        c = (0, 0) if c is None else c
        c = (c[0] + 1, c[1] + r[3])
        self.cnt.update(c)
        self.seen.add(str(r[3]))
        line = "fm %s cnt=%r seen=%r" % (r[1], c, list(self.seen.get()))
        if c[0] >= 3:  # one output per input: BATCH's sort may reorder same-timestamp records
            self.cnt.clear()
            self.seen.clear()
            line += " reset -> %r %r" % (self.cnt.value(), list(self.seen.get()))
        yield line


class MapStage(MapFunction):
    """tag 'mp': pickled ValueState holding Python objects (class, Row, tuple, list, None)."""

    def open(self, ctx: RuntimeContext):
        self.obj = ctx.get_state(ValueStateDescriptor("obj", Types.PICKLED_BYTE_ARRAY()))
        self.row = ctx.get_state(ValueStateDescriptor(
            "row", Types.ROW_NAMED(["name", "n"], [Types.STRING(), Types.INT()])))

    def map(self, r):
        if r[0] != "mp":
            return r
        op, arg = r[2], r[3]
        if op == "set":
            before = self.obj.value()
            self.obj.update(arg)
            return "mp %s set %r (before %r) now %r" % (r[1], arg, before, self.obj.value())
        if op == "point":
            p = self.obj.value()
            return "mp %s point x=%r y=%r type=%s" % (r[1], p.x, p.y, type(p).__name__)
        if op == "row":
            self.row.update(Row(name=arg, n=len(arg)))
            v = self.row.value()
            return "mp %s row %r name=%r" % (r[1], v, v.name)
        if op == "rowget":
            v = self.row.value()
            return "mp %s rowget %r" % (r[1], v)
        return "mp ?"


class KeyedStage(KeyedProcessFunction):

    def open(self, ctx: RuntimeContext):
        self.vi = ctx.get_state(ValueStateDescriptor("vi", Types.INT()))
        self.li = ctx.get_list_state(ListStateDescriptor("li", Types.INT()))
        self.lp = ctx.get_list_state(ListStateDescriptor("lp", Types.PICKLED_BYTE_ARRAY()))
        self.mi = ctx.get_map_state(MapStateDescriptor("mi", Types.STRING(), Types.INT()))
        self.mp = ctx.get_map_state(MapStateDescriptor(
            "mp", Types.STRING(), Types.PICKLED_BYTE_ARRAY()))
        self.rs = ctx.get_reducing_state(ReducingStateDescriptor(
            "rs", lambda a, b: a + b, Types.INT()))
        self.ags = ctx.get_aggregating_state(AggregatingStateDescriptor(
            "ags", AvgAgg(), Types.TUPLE([Types.INT(), Types.INT()])))
        self.tm = ctx.get_list_state(ListStateDescriptor("tm", Types.STRING()))
        self.fired = ctx.get_state(ValueStateDescriptor("fired", Types.INT()))
        self.vt = ctx.get_state(
            ValueStateDescriptor("vt", Types.ROW([Types.INT(), Types.STRING()])))

        ttl = StateTtlConfig.new_builder(Time.seconds(600)) \
            .set_update_type(StateTtlConfig.UpdateType.OnCreateAndWrite) \
            .set_state_visibility(StateTtlConfig.StateVisibility.NeverReturnExpired) \
            .build()
        d = ValueStateDescriptor("ttl_v", Types.STRING())
        d.enable_time_to_live(ttl)
        self.ttl_v = ctx.get_state(d)
        ttl2 = StateTtlConfig.new_builder(Time.minutes(10)) \
            .update_ttl_on_read_and_write() \
            .return_expired_if_not_cleaned_up() \
            .cleanup_full_snapshot() \
            .cleanup_incrementally(10, True) \
            .cleanup_in_rocksdb_compact_filter(1000) \
            .disable_cleanup_in_background() \
            .build()
        d2 = MapStateDescriptor("ttl_m", Types.STRING(), Types.INT())
        d2.enable_time_to_live(ttl2)
        self.ttl_m = ctx.get_map_state(d2)
        d3 = ListStateDescriptor("ttl_l", Types.INT())
        d3.enable_time_to_live(ttl2)
        self.ttl_l = ctx.get_list_state(d3)

    def process_element(self, r, ctx: KeyedProcessFunction.Context):
        if not isinstance(r, tuple):
            yield r
            return
        tag, key, op, arg = r
        out = lambda s: "%s %s %s%s -> %s" % (tag, key, op, "" if arg is None else " %r" % (arg,), s)  # noqa
        if tag == "vi":
            if op == "update":
                self.vi.update(arg)
            elif op == "clear":
                self.vi.clear()
            yield out(repr(self.vi.value()))
        elif tag == "li":
            st = self.li
            if op == "add":
                st.add(arg)
            elif op == "add_all":
                st.add_all(arg)
            elif op == "update":
                st.update(arg)
            elif op == "clear":
                st.clear()
            elif op == "iter":
                yield out("iter %r" % [x for x in st])
                return
            yield out(repr(list(st.get())))
        elif tag == "lp":
            st = self.lp
            if op == "add":
                r = safe(lambda: st.add(arg))
                if r != "None":
                    yield out(r)
                    return
            elif op == "add_all":
                st.add_all(arg)
            elif op == "update":
                st.update(arg)
            yield out(repr(list(st.get())))
        elif tag in ("mi", "mq"):
            st = self.mi if tag == "mi" else self.mp
            if op == "put":
                st.put(arg[0], arg[1])
            elif op == "put_all":
                st.put_all(arg)
            elif op == "remove":
                yield out("remove %s empty %r" % (safe(lambda: st.remove(arg)), st.is_empty()))
                return
            elif op == "order":
                yield out("keys %r values %r items %r" % (
                    list(st.keys()), list(st.values()), list(st.items())))
                return
            elif op == "clear":
                st.clear()
            elif op == "setitem":
                st[arg[0]] = arg[1]
            elif op == "delitem":
                del st[arg]
            elif op == "get":
                yield out("get %r getitem %s contains %r in %r" % (
                    st.get(arg), safe(lambda: st[arg]), st.contains(arg), arg in st))
                return
            yield out("items %r keys %r values %r empty %r" % (
                sorted(st.items(), key=repr), sorted(st.keys(), key=repr),
                sorted(st.values(), key=repr), st.is_empty()))
        elif tag == "rs":
            if op == "add":
                self.rs.add(arg)
            elif op == "clear":
                self.rs.clear()
            yield out(repr(self.rs.get()))
        elif tag == "ag":
            if op == "add":
                r = safe(lambda: self.ags.add(arg))
                if r != "None":
                    yield out(r)
            elif op == "clear":
                self.ags.clear()
            yield out(repr(self.ags.get()))
        elif tag == "ttl":
            if op == "v":
                before = self.ttl_v.value()
                self.ttl_v.update(arg)
                yield out("before %r now %r" % (before, self.ttl_v.value()))
            elif op == "m":
                self.ttl_m.put(arg, len(arg))
                yield out("map %r" % sorted(self.ttl_m.items()))
            elif op == "l":
                self.ttl_l.add(arg)
                yield out("list %r" % list(self.ttl_l.get()))
        elif tag == "vt":
            if op == "update":
                self.vt.update(arg)
            v = self.vt.value()
            yield out("%r %s" % (v, type(v).__name__))
        elif tag == "tm":
            # event-time timers past every record timestamp: fired by the final watermark,
            # at distinct timestamps per key
            self.tm.add(str(arg))
            ctx.timer_service().register_event_time_timer(1000 + int(op))
            yield out("registered")
        else:
            yield "pass %r" % (r,)

    def on_timer(self, timestamp, ctx: KeyedProcessFunction.OnTimerContext):
        n = (self.fired.value() or 0) + 1
        self.fired.update(n)
        yield "timer %s at %d fire#%d domain %s items %r" % (
            ctx.get_current_key(), timestamp, n, ctx.time_domain(), list(self.tm.get()))
        self.tm.clear()


RECORDS = [
    ("fm", "a", None, 3), ("fm", "a", None, 5), ("fm", "b", None, 1), ("fm", "a", None, 7),
    ("fm", "a", None, 4),
    ("mp", "p", "set", None), ("mp", "p", "set", Point(1, [2, None])), ("mp", "p", "point", None),
    ("mp", "p", "set", ()), ("mp", "p", "set", []), ("mp", "p", "set", (1, None, "x")),
    ("mp", "p", "set", Row(1, "a")), ("mp", "p", "set", Row(k="v")),
    ("mp", "p", "set", {"d": None}),
    ("mp", "q", "row", "hello"), ("mp", "q", "rowget", None), ("mp", "q2", "rowget", None),
    ("vi", "v", "value", None), ("vi", "v", "update", 5), ("vi", "v", "update", None),
    ("vi", "v", "update", 0), ("vi", "v", "clear", None), ("vi", "w", "update", -1),
    ("li", "l", "get", None), ("li", "l", "add", 1), ("li", "l", "add", 2),
    ("li", "l", "add_all", [3, 4]), ("li", "l", "add_all", []), ("li", "l", "iter", None),
    ("li", "l", "update", [7]), ("li", "l", "update", []),
    ("li", "l", "add", 0), ("li", "l", "clear", None),
    ("lp", "l", "add", (1, None)), ("lp", "l", "add", Row(2, "b")), ("lp", "l", "add", []),
    ("lp", "l", "add_all", [Point(0, 0), "s"]), ("lp", "l", "update", [None]),
    ("lp", "l", "add", None),
    ("mi", "m", "items", None), ("mi", "m", "put", ("a", 1)), ("mi", "m", "put", ("b", 2)),
    ("mi", "m", "get", "a"), ("mi", "m", "get", "zz"), ("mi", "m", "setitem", ("c", 3)),
    ("mi", "m", "put_all", [("d", 4), ("e", 5)]), ("mi", "m", "remove", "a"),
    ("mi", "m", "delitem", "b"), ("mi", "m", "remove", "nope"), ("mi", "m", "put", ("a", 0)),
    ("mi", "m", "clear", None), ("mi", "m", "get", "a"),
    ("mq", "m", "put", ("n", None)), ("mq", "m", "get", "n"), ("mq", "m", "put", ("r", Row(1, 2))),
    ("mq", "m", "put", ("t", (1, [2]))), ("mq", "m", "put", ("o", Point(3, 4))),
    ("mq", "m", "order", None), ("mq", "m", "put", ("a", 1)), ("mq", "m", "order", None),
    ("mq", "m", "clear", None), ("mq", "m", "remove", "gone"),
    ("rs", "r", "get", None), ("rs", "r", "add", 1), ("rs", "r", "add", 2), ("rs", "r", "add", 0),
    ("rs", "r", "clear", None), ("rs", "r", "add", 5),
    ("ag", "g", "get", None), ("ag", "g", "add", 2), ("ag", "g", "add", 5),
    ("ag", "g", "clear", None),
    ("ag", "g", "add", 1), ("ag", "g", "add", None),
    ("vt", "u", "update", (1, "a")), ("vt", "u", "value", None), ("vt", "u", "update", Row(2, "b")),
    ("vt", "u", "value", None),
    ("ttl", "t", "v", "one"), ("ttl", "t", "v", "two"), ("ttl", "t", "m", "xy"),
    ("ttl", "t", "m", "z"), ("ttl", "t", "l", 1), ("ttl", "t", "l", 2),
    ("tm", "k2", "200", "x"), ("tm", "k1", "100", "y"), ("tm", "k2", "200", "z"),
    ("tm", "k3", "50", "w"),
    ("zz", "end", None, None),
]


class IndexAssigner(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[4]


def keyed_pipeline(env, batch=False):
    # record timestamps = position (BATCH sorts each key's records by timestamp); timers are
    # set past every record timestamp. BATCH: no timers (PyFlink 2.3's on_timer reads empty
    # state there)
    records = [r for r in RECORDS if not (batch and r[0] == "tm")]
    ds = env.from_collection([r + (i,) for i, r in enumerate(records)]) \
        .assign_timestamps_and_watermarks(
            WatermarkStrategy.for_monotonous_timestamps()
            .with_timestamp_assigner(IndexAssigner())) \
        .map(lambda r: r[:4])
    ds = ds.key_by(lambda r: r[1]).flat_map(FlatStage())
    ds = ds.key_by(lambda r: r[1] if isinstance(r, tuple) else "s").map(MapStage())
    ds = ds.key_by(lambda r: r[1] if isinstance(r, tuple) else "s") \
        .process(KeyedStage(), Types.STRING())
    return ds


# ------------------------------------------------------------------------------------------
# 3. Connected keyed streams and keyed broadcast state: output only from timers at the end


class CoStage(KeyedCoProcessFunction):
    def open(self, ctx: RuntimeContext):
        self.left = ctx.get_list_state(ListStateDescriptor("left", Types.STRING()))
        self.right = ctx.get_map_state(MapStateDescriptor("right", Types.STRING(), Types.INT()))
        self.total = ctx.get_reducing_state(ReducingStateDescriptor(
            "total", lambda a, b: a + b, Types.INT()))

    def process_element1(self, v, ctx):
        self.left.add(v[1])
        self.total.add(1)
        ctx.timer_service().register_event_time_timer(v[2])

    def process_element2(self, v, ctx):
        self.right.put(v[1], (self.right.get(v[1]) or 0) + 1)
        self.total.add(10)
        ctx.timer_service().register_event_time_timer(v[2])

    def on_timer(self, ts, ctx):
        yield "co %s at %d left=%r right=%r total=%r" % (
            ctx.get_current_key(), ts, sorted(self.left.get()), sorted(self.right.items()),
            self.total.get())


class ThirdField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[3]


RULES = MapStateDescriptor("rules", Types.STRING(), Types.PICKLED_BYTE_ARRAY())


class KBStage(KeyedBroadcastProcessFunction):
    def open(self, ctx: RuntimeContext):
        self.seen = ctx.get_list_state(ListStateDescriptor("seen", Types.STRING()))

    def process_element(self, v, ctx):
        self.seen.add(v)
        ctx.timer_service().register_event_time_timer(5000 + int(ctx.get_current_key()[1:]))
        yield "kb-pass " + v

    def process_broadcast_element(self, v, ctx):
        st = ctx.get_broadcast_state(RULES)
        if v[1] is None:
            st.remove(v[0])
        else:
            st.put(v[0], v[1])

    def on_timer(self, ts, ctx):
        rules = ctx.get_broadcast_state(RULES)
        yield "kb-timer %s rules=%r empty=%r get(a)=%r contains(z)=%r n=%d" % (
            ctx.get_current_key(), sorted(rules.items(), key=repr), rules.is_empty(),
            rules.get("a"), rules.contains("z"), len(list(self.seen.get())))


def connected_pipeline(env):
    ws = WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(ThirdField())
    s1 = env.from_collection([("k1", "a", 3000, 1), ("k2", "b", 3001, 2), ("k1", "c", 3000, 3)]) \
        .assign_timestamps_and_watermarks(ws)
    s2 = env.from_collection([("k2", "x", 3001, 1), ("k1", "y", 3000, 2), ("k2", "x", 3001, 3)]) \
        .assign_timestamps_and_watermarks(ws)
    return s1.key_by(lambda v: v[0]).connect(s2.key_by(lambda v: v[0])).process(
        CoStage(), Types.STRING())


def keyed_broadcast_pipeline(env):
    # (fed by a source: behind another event-time timer operator pystream fails, see report)
    ws = WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(ThirdField())
    s1 = env.from_collection([("k2", "p", 0, 1), ("k1", "q", 0, 2), ("k2", "r", 0, 3)]) \
        .assign_timestamps_and_watermarks(ws).map(lambda v: "%s %s" % (v[0], v[1]))
    rules = env.from_collection([("a", Row(1, "r")), ("b", [1, None]), ("c", None), ("a", 7),
                                 ("b", None)]).broadcast(RULES)
    return s1.key_by(lambda s: s.split()[0]).connect(rules).process(KBStage(), Types.STRING())


# ------------------------------------------------------------------------------------------
# 4. Broadcast state with a non-keyed BroadcastProcessFunction (BATCH: broadcast side first)


class BStage(BroadcastProcessFunction):
    def process_element(self, v, ctx):
        st = ctx.get_broadcast_state(RULES)
        yield "b %s -> %r (contains %r) all=%r" % (v, st.get(v), st.contains(v),
                                                   sorted(st.keys()))

    def process_broadcast_element(self, v, ctx):
        st = ctx.get_broadcast_state(RULES)
        st.put(v[0], v[1])


def broadcast_pipeline(env):
    rules = env.from_collection([("a", 1), ("b", None), ("c", (2, 3))]).broadcast(RULES)
    return env.from_collection(["a", "b", "c", "d"]).connect(rules).process(
        BStage(), Types.STRING())


def ttl_api():
    banner("ttl config API")
    c = StateTtlConfig.new_builder(Time.seconds(1)) \
        .set_update_type(StateTtlConfig.UpdateType.OnCreateAndWrite) \
        .set_state_visibility(StateTtlConfig.StateVisibility.NeverReturnExpired) \
        .build()
    print(c.get_update_type(), c.get_state_visibility(), c.get_ttl_time_characteristic())
    print(c.get_ttl().to_milliseconds(), c.is_enabled())
    cs = c.get_cleanup_strategies()
    print(cs.is_cleanup_in_background(), cs.in_full_snapshot(),
          cs.get_incremental_cleanup_strategy().get_cleanup_size(),
          cs.get_incremental_cleanup_strategy().run_cleanup_for_every_record(),
          cs.get_rocksdb_compact_filter_cleanup_strategy().get_query_time_after_num_entries())
    c2 = StateTtlConfig.new_builder(Time.seconds(1)).disable_cleanup_in_background() \
        .cleanup_incrementally(10, True).build()
    cs2 = c2.get_cleanup_strategies()
    print(cs2.is_cleanup_in_background(), cs2.get_incremental_cleanup_strategy().get_cleanup_size(),
          cs2.get_rocksdb_compact_filter_cleanup_strategy())
    c3 = StateTtlConfig.new_builder(Time.seconds(1)) \
        .set_update_type(StateTtlConfig.UpdateType.Disabled).build()
    print(c3.is_enabled(), str(c.get_ttl()))
    print(repr(c))
    d = ValueStateDescriptor("text state", Types.STRING())
    d.enable_time_to_live(c)
    print(d.get_name(), d.type_info, ListStateDescriptor("l", Types.INT()).type_info,
          MapStateDescriptor("m", Types.STRING(), Types.INT()).type_info)


def main():
    ttl_api()

    banner("page example, STREAMING")
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.from_collection([(1, 3), (1, 5), (1, 7), (1, 4), (1, 2)]) \
        .key_by(lambda row: row[0]) \
        .flat_map(CountWindowAverage()) \
        .print()
    env.execute()

    banner("keyed state, STREAMING")
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    keyed_pipeline(env).print()
    env.execute()

    banner("connected keyed streams, STREAMING")
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    connected_pipeline(env).print()
    env.execute()

    banner("keyed broadcast, STREAMING")
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    keyed_broadcast_pipeline(env).print()
    env.execute()

    banner("keyed state, BATCH")
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.set_runtime_mode(RuntimeExecutionMode.BATCH)
    keyed_pipeline(env, batch=True).print()
    env.execute()
    banner("broadcast, BATCH")
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.set_runtime_mode(RuntimeExecutionMode.BATCH)
    broadcast_pipeline(env).print()
    env.execute()


if __name__ == "__main__":
    main()
