"""Event-time timers fire as soon as the watermark passes them, before elements that arrive
later (STREAMING): timers set by the first elements fire during a 2 s pause in the input
(one element per Python bundle; periodic watermarks every 200 ms) and see none of the
elements after the pause; timers set after the pause fire at the end of input."""
import time

from pyflink.common import Configuration, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import (
    KeyedProcessFunction,
    RuntimeExecutionMode,
    StreamExecutionEnvironment,
)
from pyflink.datastream.functions import MapFunction
from pyflink.datastream.state import ValueStateDescriptor


class SecondField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class PauseBefore(MapFunction):
    def map(self, value):
        if value[2] == 'after pause':
            time.sleep(2)
        return value


class CountAfterPause(KeyedProcessFunction):
    def open(self, runtime_context):
        self.after = runtime_context.get_state(ValueStateDescriptor('after', Types.INT()))

    def process_element(self, value, ctx):
        if value[2]:
            self.after.update((self.after.value() or 0) + 1)
        ctx.timer_service().register_event_time_timer(value[1] + 100)

    def on_timer(self, timestamp, ctx):
        yield 'timer key=%s time=%d elements_after_pause=%d' % (
            ctx.get_current_key(), timestamp, self.after.value() or 0)


config = Configuration()
config.set_integer('python.fn-execution.bundle.size', 1)
env = StreamExecutionEnvironment.get_execution_environment(config)
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)
row = Types.TUPLE([Types.STRING(), Types.LONG(), Types.STRING()])
data = [('a', 1000, ''), ('b', 1100, ''), ('a', 1200, ''), ('z', 9000, ''),
        ('a', 9500, 'after pause'), ('b', 9600, 'after pause'), ('a', 9700, 'after pause')]
env.from_collection(data, row) \
    .map(PauseBefore(), row).rebalance() \
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(SecondField())) \
    .key_by(lambda r: r[0]) \
    .process(CountAfterPause(), Types.STRING()) \
    .print()
env.execute()
