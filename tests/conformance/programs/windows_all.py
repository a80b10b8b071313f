"""Non-keyed windows (window_all, STREAMING): tumbling event-time windows over the whole
stream with reduce, aggregate and a ProcessAllWindowFunction, and count windows via
window_all(CountTumblingWindowAssigner) (an incomplete count window never fires)."""
from pyflink.common import Duration, Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import AggregateFunction, ProcessAllWindowFunction
from pyflink.datastream.window import CountTumblingWindowAssigner, TumblingEventTimeWindows


class LastField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class Keys(AggregateFunction):
    def create_accumulator(self):
        return []

    def add(self, value, accumulator):
        return accumulator + [value[0]]

    def get_result(self, accumulator):
        return 'aggregate keys=%s' % sorted(accumulator)

    def merge(self, a, b):
        return a + b


class Describe(ProcessAllWindowFunction):
    def process(self, context, elements):
        yield 'process_all window=%s elements=%s' % (context.window(),
                                                     sorted(e[0] for e in elements))


env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)
data = [('a', 100), ('b', 400), ('c', 1200), ('a', 1300), ('d', 2500), ('b', 700)]
ds = env.from_collection(data, Types.TUPLE([Types.STRING(), Types.LONG()])) \
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(10))
        .with_timestamp_assigner(LastField()))
ds.window_all(TumblingEventTimeWindows.of(Time.seconds(1))) \
    .reduce(lambda x, y: (x[0] + y[0], max(x[1], y[1]))) \
    .map(lambda r: 'reduce chars=%s max_ts=%d' % (''.join(sorted(r[0])), r[1])).print()
ds.window_all(TumblingEventTimeWindows.of(Time.seconds(1))) \
    .aggregate(Keys(), output_type=Types.STRING()).print()
ds.window_all(TumblingEventTimeWindows.of(Time.seconds(1))) \
    .process(Describe(), Types.STRING()).print()
ds.window_all(CountTumblingWindowAssigner.of(4)).process(Describe(), Types.STRING()).print()
env.execute()
