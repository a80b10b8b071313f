"""End of bounded input fires pending event-time timers in a KeyedBroadcastProcessFunction
(STREAMING): keyed elements are buffered and a timer is set; on_timer fires at the final
watermark, when every broadcast rule has arrived, and reads the broadcast state there."""
from pyflink.common import Duration, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import KeyedBroadcastProcessFunction
from pyflink.datastream.state import ListStateDescriptor, MapStateDescriptor

RULES = MapStateDescriptor('rules', Types.STRING(), Types.INT())


class SecondField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class ApplyRulesAtEnd(KeyedBroadcastProcessFunction):
    def open(self, runtime_context):
        self.buffer = runtime_context.get_list_state(ListStateDescriptor('buffer', Types.LONG()))

    def process_element(self, value, ctx):
        self.buffer.add(value[2])
        ctx.timer_service().register_event_time_timer(value[1] + 1000000)

    def process_broadcast_element(self, value, ctx):
        ctx.get_broadcast_state(RULES).put(value[0], value[1])

    def on_timer(self, timestamp, ctx):
        rules = ctx.get_broadcast_state(RULES)
        factor = rules.get(ctx.get_current_key()) if rules.contains(ctx.get_current_key()) \
            else 0
        values = sorted(self.buffer.get())
        yield 'timer key=%s time=%d ctx.timestamp=%d rules=%s values=%s scaled=%s' % (
            ctx.get_current_key(), timestamp, ctx.timestamp(), sorted(rules.items()), values,
            [v * factor for v in values])


env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)
data = env.from_collection(
    [('x', 10, 1), ('y', 20, 2), ('x', 30, 3), ('z', 40, 4), ('y', 50, 5)],
    Types.TUPLE([Types.STRING(), Types.LONG(), Types.LONG()])) \
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(10))
        .with_timestamp_assigner(SecondField()))
rules = env.from_collection([('x', 10), ('y', 100), ('x', 1000)],
                            Types.TUPLE([Types.STRING(), Types.INT()]))
data.key_by(lambda r: r[0]) \
    .connect(rules.broadcast(RULES)) \
    .process(ApplyRulesAtEnd(), Types.STRING()) \
    .print()
env.execute()
