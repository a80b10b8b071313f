"""Event-time session windows with a ProcessWindowFunction: the merged window's start/end
(first timestamp, last timestamp + gap), max_timestamp, the key and the elements (STREAMING)."""
from pyflink.common import Duration, Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import ProcessWindowFunction
from pyflink.datastream.window import EventTimeSessionWindows


class SecondField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class Describe(ProcessWindowFunction):
    def __init__(self, mode):
        self.mode = mode

    def process(self, key, context, elements):
        w = context.window()
        stamps = sorted(e[1] for e in elements)
        yield '%s key=%s start=%d end=%d max_ts=%d count=%d stamps=%s' % (
            self.mode, key, w.start, w.end, w.max_timestamp(), len(stamps), stamps)


# gap 1 s; 'k' 100, 900 (bridged), 1900 (touches 900+1000 exactly: end is exclusive but
# Flink's intersects() uses <=, so it merges), 5000 alone; 'm' 0, 999, 3000.
DATA = [('k', 100), ('m', 0), ('k', 1900), ('k', 5000), ('m', 3000), ('k', 900), ('m', 999),
        ('n', 7000), ('n', 8000), ('n', 9001)]

mode = RuntimeExecutionMode.STREAMING
env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(mode)
env.set_parallelism(1)
ds = env.from_collection(DATA, Types.TUPLE([Types.STRING(), Types.LONG()]))
ds = ds.assign_timestamps_and_watermarks(
    WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(60))
    .with_timestamp_assigner(SecondField()))
ds.key_by(lambda r: r[0]) \
    .window(EventTimeSessionWindows.with_gap(Time.seconds(1))) \
    .process(Describe(mode.name), Types.STRING()) \
    .print()
env.execute()
