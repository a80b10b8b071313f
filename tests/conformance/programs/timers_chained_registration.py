"""Timers registered inside on_timer (STREAMING): each firing registers the next one until a
limit, and at the end of input (final watermark Long.MAX) the whole chain fires; a timer
registered for a time already passed fires too."""
from pyflink.common import Duration, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import (
    KeyedProcessFunction,
    RuntimeExecutionMode,
    StreamExecutionEnvironment,
)


class SecondField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class Chain(KeyedProcessFunction):
    def process_element(self, value, ctx):
        ctx.timer_service().register_event_time_timer(value[1] + 1000)
        if value[0] == 'c':
            ctx.timer_service().register_event_time_timer(value[1] - 100000)

    def on_timer(self, timestamp, ctx):
        if 0 < timestamp < 4000:
            ctx.timer_service().register_event_time_timer(timestamp + 1000)
        yield 'key=%s fired=%d ctx.timestamp=%d' % (ctx.get_current_key(), timestamp,
                                                    ctx.timestamp())


env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)
env.from_collection([('a', 100), ('b', 200), ('c', 300), ('a', 2500)],
                    Types.TUPLE([Types.STRING(), Types.LONG()])) \
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(100))
        .with_timestamp_assigner(SecondField())) \
    .key_by(lambda r: r[0]) \
    .process(Chain(), Types.STRING()) \
    .print()
env.execute()
