"""Sliding event-time windows (STREAMING): each element lands in size/slide windows, windows
before the epoch have negative starts, an offset shifts them; apply and reduce."""
from pyflink.common import Duration, Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import WindowFunction
from pyflink.datastream.window import SlidingEventTimeWindows


class LastField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[2]


class Describe(WindowFunction):
    def __init__(self, name):
        self.name = name

    def apply(self, key, window, inputs):
        yield '%s key=%s [%d, %d) max_ts=%d values=%s' % (
            self.name, key, window.start, window.end, window.max_timestamp(),
            sorted(v[1] for v in inputs))


env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)
data = [('a', 1, 100), ('a', 2, 1100), ('b', 3, 1500), ('a', 4, 2900)]
keyed = env.from_collection(data, Types.TUPLE([Types.STRING(), Types.INT(), Types.LONG()])) \
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(10))
        .with_timestamp_assigner(LastField())) \
    .key_by(lambda r: r[0])
keyed.window(SlidingEventTimeWindows.of(Time.seconds(2), Time.seconds(1))) \
    .apply(Describe('size2s_slide1s'), Types.STRING()).print()
keyed.window(SlidingEventTimeWindows.of(Time.seconds(3), Time.seconds(2),
                                        Time.milliseconds(500))) \
    .apply(Describe('size3s_slide2s_offset500'), Types.STRING()).print()
keyed.window(SlidingEventTimeWindows.of(Time.seconds(2), Time.seconds(1))) \
    .reduce(lambda x, y: (x[0], x[1] + y[1], max(x[2], y[2]))) \
    .map(lambda r: 'reduce %s sum=%d max_ts=%d' % r).print()
env.execute()
