"""Event-time session windows with a dynamic gap (with_dynamic_gap and a
SessionWindowTimeGapExtractor): each element's own gap decides its window end (STREAMING)."""
from pyflink.common import Duration, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import ProcessWindowFunction
from pyflink.datastream.window import EventTimeSessionWindows, SessionWindowTimeGapExtractor


class SecondField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class GapField(SessionWindowTimeGapExtractor):
    def extract(self, element):
        return element[2]


class Describe(ProcessWindowFunction):
    def __init__(self, mode):
        self.mode = mode

    def process(self, key, context, elements):
        w = context.window()
        yield '%s key=%s window=[%d, %d) elements=%s' % (
            self.mode, key, w.start, w.end, sorted((e[1], e[2]) for e in elements))


# (key, timestamp, gap): a long gap at 1000 swallows 4000; a short one at 10000 does not
# reach 10600; 10500 with gap 200 bridges 10000+600 and 10600.
DATA = [('p', 1000, 5000), ('p', 4000, 100), ('p', 10000, 500), ('p', 10600, 50),
        ('q', 0, 10), ('q', 10, 10), ('q', 25, 10), ('p', 10500, 200), ('q', 21, 4)]

mode = RuntimeExecutionMode.STREAMING
env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(mode)
env.set_parallelism(1)
ds = env.from_collection(DATA, Types.TUPLE([Types.STRING(), Types.LONG(), Types.LONG()]))
ds = ds.assign_timestamps_and_watermarks(
    WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(60))
    .with_timestamp_assigner(SecondField()))
ds.key_by(lambda r: r[0]) \
    .window(EventTimeSessionWindows.with_dynamic_gap(GapField())) \
    .process(Describe(mode.name), Types.STRING()) \
    .print()
env.execute()
