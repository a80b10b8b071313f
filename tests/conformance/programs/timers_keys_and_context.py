"""Context in a KeyedProcessFunction with a composite key (key_by returning a tuple, with
key_type): get_current_key() in process_element and on_timer, ctx.timestamp() of elements
and of timers, time_domain(); both runtime modes."""
from pyflink.common import Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import (
    KeyedProcessFunction,
    RuntimeExecutionMode,
    StreamExecutionEnvironment,
)


class LastField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[3]


class Show(KeyedProcessFunction):
    def __init__(self, mode):
        self.mode = mode

    def process_element(self, value, ctx):
        ctx.timer_service().register_event_time_timer(ctx.timestamp() + value[2])
        yield '%s element key=%r ts=%d value=%d' % (self.mode, ctx.get_current_key(),
                                                    ctx.timestamp(), value[2])

    def on_timer(self, timestamp, ctx):
        yield '%s timer key=%r time=%d ctx.timestamp=%d domain=%s' % (
            self.mode, ctx.get_current_key(), timestamp, ctx.timestamp(), ctx.time_domain())


DATA = [('x', 1, 10, 1000), ('x', 2, 20, 2000), ('y', 1, 30, 3000), ('x', 1, 40, 4000)]

for mode in (RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(mode)
    env.set_parallelism(1)
    env.from_collection(DATA, Types.TUPLE([Types.STRING(), Types.INT(), Types.INT(),
                                           Types.LONG()])) \
        .assign_timestamps_and_watermarks(
            WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(LastField())) \
        .key_by(lambda r: (r[0], r[1]), key_type=Types.TUPLE([Types.STRING(), Types.INT()])) \
        .process(Show(mode.name), Types.STRING()) \
        .print()
    env.execute()
