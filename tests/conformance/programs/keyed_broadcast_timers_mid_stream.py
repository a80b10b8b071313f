"""A KeyedBroadcastProcessFunction's event-time timers fire as the watermark passes them, in
the middle of the stream (STREAMING, parallelism 2): each element sets a timer 5 s after its
time and adds to a running total in keyed state; on_timer reads the total and the
broadcast thresholds, and timers of one key at one time fire once."""
from pyflink.common import Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import KeyedBroadcastProcessFunction
from pyflink.datastream.state import MapStateDescriptor, ValueStateDescriptor

LIMITS = MapStateDescriptor('limits', Types.STRING(), Types.INT())


class EventTime(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1] * 1000


class Alerts(KeyedBroadcastProcessFunction):
    def open(self, runtime_context):
        self.count = runtime_context.get_state(ValueStateDescriptor('count', Types.INT()))

    def process_element(self, value, ctx):
        self.count.update((self.count.value() or 0) + value[2])
        ctx.timer_service().register_event_time_timer(ctx.timestamp() + 5000)

    def process_broadcast_element(self, value, ctx):
        ctx.get_broadcast_state(LIMITS).put(value[0], value[1])

    def on_timer(self, timestamp, ctx):
        limits = ctx.get_broadcast_state(LIMITS)
        key = ctx.get_current_key()
        limit = limits.get(key) if limits.contains(key) else 10
        total = self.count.value()
        yield 'at %d s key %s total %d %s' % (timestamp // 1000, key, total,
                                              'ALERT' if total > limit else 'ok')


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
events = [('a', 1, 3), ('b', 2, 4), ('a', 3, 9), ('a', 20, 1), ('b', 21, 20), ('c', 22, 2),
          ('a', 40, 30), ('c', 41, 1), ('b', 60, 1)]
data = env.from_collection(events, Types.TUPLE([Types.STRING(), Types.INT(), Types.INT()])) \
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(EventTime()))
limits = env.from_collection([('a', 20), ('b', 15)], Types.TUPLE([Types.STRING(), Types.INT()]))
data.key_by(lambda r: r[0]) \
    .connect(limits.broadcast(LIMITS)) \
    .process(Alerts(), Types.STRING()) \
    .print()
env.execute()
