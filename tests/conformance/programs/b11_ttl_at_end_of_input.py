"""State with a 1 s time-to-live read by event-time timers that fire at the end of input
(Flink's final watermark): the timers fire right after the last record, so the state they
read is still alive (Flink's example event_time_timer.py at parallelism 1)."""
from pyflink.common import Duration, Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import KeyedProcessFunction, StreamExecutionEnvironment
from pyflink.datastream.state import StateTtlConfig, ValueStateDescriptor


class Sum(KeyedProcessFunction):
    def open(self, runtime_context):
        descriptor = ValueStateDescriptor('sum', Types.LONG())
        descriptor.enable_time_to_live(StateTtlConfig.new_builder(Time.seconds(1))
                                       .set_update_type(StateTtlConfig.UpdateType.OnReadAndWrite)
                                       .disable_cleanup_in_background().build())
        self.sum = runtime_context.get_state(descriptor)

    def process_element(self, value, ctx):
        self.sum.update((self.sum.value() or 0) + value[2])
        ctx.timer_service().register_event_time_timer(ctx.timestamp() + 2000)

    def on_timer(self, timestamp, ctx):
        yield 'timer %d key=%s sum=%s' % (timestamp, ctx.get_current_key(), self.sum.value())


class FirstField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[0]


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
ds = env.from_collection([(1000, 'a', 1), (4000, 'b', 10), (3000, 'a', 2), (7000, 'b', 20)],
                         Types.TUPLE([Types.LONG(), Types.STRING(), Types.LONG()])) \
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(10))
        .with_timestamp_assigner(FirstField()))
ds.key_by(lambda v: v[1]).process(Sum(), Types.STRING()).print()
env.execute()
