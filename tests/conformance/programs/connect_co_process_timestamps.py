"""A non-keyed CoProcessFunction over two timestamped inputs: ctx.timestamp() is each
element's own event timestamp; results are tagged with their input; both runtime modes."""
from pyflink.common import Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import CoProcessFunction


class SecondField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class Tag(CoProcessFunction):
    def __init__(self, mode):
        self.mode = mode

    def process_element1(self, value, ctx):
        yield '%s input1 %s ts=%d' % (self.mode, value[0], ctx.timestamp())

    def process_element2(self, value, ctx):
        yield '%s input2 %s ts=%d' % (self.mode, value[0], ctx.timestamp())
        yield '%s input2 %s again' % (self.mode, value[0])


for mode in (RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(mode)
    env.set_parallelism(1)
    row = Types.TUPLE([Types.STRING(), Types.LONG()])
    strategy = WatermarkStrategy.for_monotonous_timestamps() \
        .with_timestamp_assigner(SecondField())
    left = env.from_collection([('l1', 1000), ('l2', 2000), ('l3', 3000)], row) \
        .assign_timestamps_and_watermarks(strategy)
    right = env.from_collection([('r1', 1500), ('r2', 86400000)], row) \
        .assign_timestamps_and_watermarks(strategy)
    left.connect(right).process(Tag(mode.name), Types.STRING()).print()
    env.execute()
