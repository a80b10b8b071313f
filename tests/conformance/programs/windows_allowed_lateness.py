"""Tumbling windows with allowed lateness (STREAMING): after the watermark fires a window, a
late element within the allowed lateness fires it again with all its elements (the
per-window state counts the firings, the per-key global state all firings of the key); an
element later than that goes to side_output_late_data; without a late tag it would be dropped.
The watermark passes during a 2 s pause in the input (one element per Python bundle)."""
import time

from pyflink.common import Configuration, Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import OutputTag, RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import MapFunction, ProcessWindowFunction
from pyflink.datastream.state import ValueStateDescriptor
from pyflink.datastream.window import TumblingEventTimeWindows


class SecondField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class PauseBefore(MapFunction):
    def map(self, value):
        if value[2] == 'pause':
            time.sleep(2)
        return value


class CountFirings(ProcessWindowFunction):
    def process(self, key, context, elements):
        window_firings = context.window_state().get_state(
            ValueStateDescriptor('firings', Types.INT()))
        key_firings = context.global_state().get_state(
            ValueStateDescriptor('all_firings', Types.INT()))
        window_firings.update((window_firings.value() or 0) + 1)
        key_firings.update((key_firings.value() or 0) + 1)
        w = context.window()
        yield 'key=%s [%d, %d) firing=%d key_firings=%d stamps=%s' % (
            key, w.start, w.end, window_firings.value(), key_firings.value(),
            sorted(e[1] for e in elements))


config = Configuration()
config.set_integer('python.fn-execution.bundle.size', 1)
env = StreamExecutionEnvironment.get_execution_environment(config)
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)
row = Types.TUPLE([Types.STRING(), Types.LONG(), Types.STRING()])
# windows of 1 s, allowed lateness 2 s; 'z' at 3500 moves the watermark to 3499 in the pause:
# [0, 1000) of 'a' is past its lateness (999 + 2000 <= 3499), [2000, 3000) is not.
data = [('a', 500, ''), ('a', 2100, ''), ('b', 2500, ''), ('z', 3500, ''),
        ('a', 2200, 'pause'),  # late but allowed: [2000, 3000) fires again with both
        ('a', 900, ''),        # too late for [0, 1000): side output
        ('b', 2999, ''),       # late but allowed
        ('a', 2300, '')]       # late but allowed: third firing
late = OutputTag('late', Types.TUPLE([Types.STRING(), Types.LONG(), Types.STRING()]))
windows = env.from_collection(data, row) \
    .map(PauseBefore(), row).rebalance() \
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(SecondField())) \
    .key_by(lambda r: r[0]) \
    .window(TumblingEventTimeWindows.of(Time.seconds(1))) \
    .allowed_lateness(2000) \
    .side_output_late_data(late) \
    .process(CountFirings(), Types.STRING())
windows.print()
windows.get_side_output(late).map(lambda r: 'late %s %d' % (r[0], r[1])).print()
env.execute()
