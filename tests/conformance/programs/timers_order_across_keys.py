"""Pending event-time timers of all keys fire in timestamp order when the final watermark
arrives (STREAMING), interleaving keys; output order is checked."""
# oracle: ordered
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


class Later(KeyedProcessFunction):
    def process_element(self, value, ctx):
        ctx.timer_service().register_event_time_timer(value[2])

    def on_timer(self, timestamp, ctx):
        yield 'timer %d key=%s' % (timestamp, ctx.get_current_key())


env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)
# (key, element time, timer time)
data = [('a', 1, 900), ('b', 2, 100), ('c', 3, 500), ('a', 4, 300), ('b', 5, 700),
        ('c', 6, 200), ('d', 7, 1000), ('a', 8, 50)]
ds = env.from_collection(data, Types.TUPLE([Types.STRING(), Types.LONG(), Types.LONG()])) \
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(100))
        .with_timestamp_assigner(SecondField())) \
    .key_by(lambda r: r[0]) \
    .process(Later(), Types.STRING())
for line in ds.execute_and_collect():
    print(line)
