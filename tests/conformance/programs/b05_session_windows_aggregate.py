"""Event-time session windows with an AggregateFunction (STREAMING): a session grows as
out-of-order elements extend it; get_result runs once per fired session; aggregate with a
ProcessWindowFunction receives the single aggregated result and the window."""
from pyflink.common import Duration, Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import AggregateFunction, ProcessWindowFunction
from pyflink.datastream.window import EventTimeSessionWindows


class LastField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[2]


class CountSumValues(AggregateFunction):
    def create_accumulator(self):
        return [0, 0, []]

    def add(self, value, accumulator):
        return [accumulator[0] + 1, accumulator[1] + value[1], accumulator[2] + [value[1]]]

    def get_result(self, accumulator):
        return 'count=%d sum=%d values=%s' % (accumulator[0], accumulator[1],
                                              sorted(accumulator[2]))

    def merge(self, acc_a, acc_b):
        return [acc_a[0] + acc_b[0], acc_a[1] + acc_b[1], acc_a[2] + acc_b[2]]


class WithWindow(ProcessWindowFunction):
    def process(self, key, context, elements):
        w = context.window()
        for result in elements:
            yield 'window key=%s [%d, %d) %s' % (key, w.start, w.end, result)


# gap 2 s: 'x' 1500, then 0 extends the session's start, 3000 and 4999 its end, 2000 falls
# inside it, 30000 is alone; 'y' 1000 / 1500 / 20000 / 21999 -> two sessions.
DATA = [('x', 2, 1500), ('x', 1, 0), ('y', 10, 1000), ('x', 4, 3000), ('y', 20, 20000),
        ('x', 3, 4999), ('y', 30, 1500), ('x', 5, 2000), ('y', 40, 21999), ('x', 6, 30000)]

env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)
ds = env.from_collection(DATA, Types.TUPLE([Types.STRING(), Types.INT(), Types.LONG()]))
ds = ds.assign_timestamps_and_watermarks(
    WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(60))
    .with_timestamp_assigner(LastField()))
keyed = ds.key_by(lambda r: r[0])
keyed.window(EventTimeSessionWindows.with_gap(Time.seconds(2))) \
    .aggregate(CountSumValues(), output_type=Types.STRING()) \
    .map(lambda s: 'aggregate %s' % s) \
    .print()
keyed.window(EventTimeSessionWindows.with_gap(Time.seconds(2))) \
    .aggregate(CountSumValues(), window_function=WithWindow(), output_type=Types.STRING()) \
    .print()
env.execute()
