"""Processing-time timers far in the future at the end of bounded input: in STREAMING they
never fire (only event-time timers fire on the final watermark); in BATCH they fire at the end
of each key. The event-time timer fires in both modes."""
from pyflink.common import Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import (
    KeyedProcessFunction,
    RuntimeExecutionMode,
    StreamExecutionEnvironment,
)


class SecondField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class BothDomains(KeyedProcessFunction):
    def __init__(self, mode):
        self.mode = mode

    def process_element(self, value, ctx):
        timers = ctx.timer_service()
        timers.register_processing_time_timer(10 ** 13)   # far future; per key it fires once
        timers.register_event_time_timer(value[1] + 1)
        yield '%s element key=%s' % (self.mode, value[0])

    def on_timer(self, timestamp, ctx):
        yield '%s timer key=%s domain=%s time=%d' % (self.mode, ctx.get_current_key(),
                                                     ctx.time_domain(), timestamp)


for mode in (RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(mode)
    env.set_parallelism(1)
    env.from_collection([('a', 10), ('b', 20), ('a', 30)],
                        Types.TUPLE([Types.STRING(), Types.LONG()])) \
        .assign_timestamps_and_watermarks(
            WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(SecondField())) \
        .key_by(lambda r: r[0]) \
        .process(BothDomains(mode.name), Types.STRING()) \
        .print()
    env.execute()
