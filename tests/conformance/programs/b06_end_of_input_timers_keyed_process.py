"""End of bounded input fires pending event-time timers (the final watermark is Long.MAX) in a
KeyedProcessFunction: timers far in the future and at Long.MAX itself fire, ctx.timestamp()
is the timer time, the watermark seen in on_timer is Long.MAX, a timer registered twice fires
once and a deleted one never; both runtime modes."""
from pyflink.common import Duration, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import (
    KeyedProcessFunction,
    RuntimeExecutionMode,
    StreamExecutionEnvironment,
)

MAX = 9223372036854775807


class SecondField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class FarTimers(KeyedProcessFunction):
    def __init__(self, mode):
        self.mode = mode

    def process_element(self, value, ctx):
        timers = ctx.timer_service()
        timers.register_event_time_timer(value[1] + 10 ** 9)
        timers.register_event_time_timer(value[1] + 10 ** 9)   # same time again: fires once
        timers.register_event_time_timer(value[1] + 5)
        timers.delete_event_time_timer(value[1] + 5)
        if value[0] == 'b':
            timers.register_event_time_timer(MAX)
        yield '%s element key=%s ts=%d' % (self.mode, value[0], ctx.timestamp())

    def on_timer(self, timestamp, ctx):
        yield '%s timer key=%s time=%d ctx.timestamp=%d watermark=%d domain=%s' % (
            self.mode, ctx.get_current_key(), timestamp, ctx.timestamp(),
            ctx.timer_service().current_watermark(), ctx.time_domain())


for mode in (RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(mode)
    env.set_parallelism(1)
    ds = env.from_collection([('a', 1000), ('b', 2000), ('a', 3000), ('c', 500)],
                             Types.TUPLE([Types.STRING(), Types.LONG()]))
    ds.assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(10))
        .with_timestamp_assigner(SecondField())) \
        .key_by(lambda r: r[0]) \
        .process(FarTimers(mode.name), Types.STRING()) \
        .print()
    env.execute()
