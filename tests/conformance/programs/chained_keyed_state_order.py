"""Stateful keyed operators chained without event time (a keyed flat_map and map with state,
then a keyed process with an event-time timer): at parallelism 1 each operator takes its
records in the order they came, not grouped by key; STREAMING."""
# oracle: ordered
from pyflink.common.typeinfo import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import FlatMapFunction, KeyedProcessFunction, MapFunction
from pyflink.datastream.state import ValueStateDescriptor


class Last(KeyedProcessFunction):
    def __init__(self, timers: bool):
        self.timers = timers

    def process_element(self, value, ctx):
        if self.timers and value[0] == "c":
            ctx.timer_service().register_event_time_timer(100 + value[1])
        yield "%s %d" % (value[0], value[1])

    def on_timer(self, timestamp, ctx):
        yield "timer %s %d" % (ctx.get_current_key(), timestamp)


class Seen(FlatMapFunction):
    def open(self, runtime_context):
        self.seen = runtime_context.get_state(ValueStateDescriptor("seen", Types.INT()))

    def flat_map(self, value):
        self.seen.update((self.seen.value() or 0) + 1)
        yield value


class Counted(MapFunction):
    def open(self, runtime_context):
        self.count = runtime_context.get_state(ValueStateDescriptor("count", Types.INT()))

    def map(self, value):
        self.count.update((self.count.value() or 0) + 1)
        return value


for chain in ("map", "flat_map", "flat_map map", "map timers"):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    ds = env.from_collection([("b", 1), ("a", 2), ("c", 3), ("a", 4), ("b", 5)])
    if "flat_map" in chain:
        ds = ds.key_by(lambda r: r[0]).flat_map(Seen())
    if chain.startswith("map") or " map" in chain:
        ds = ds.key_by(lambda r: r[0]).map(Counted())
    ds.key_by(lambda r: r[0]).process(Last("timers" in chain), Types.STRING()).print(chain)
    env.execute()
