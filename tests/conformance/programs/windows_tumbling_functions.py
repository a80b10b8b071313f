"""Tumbling event-time windows (STREAMING) with every window function: reduce, aggregate,
apply (WindowFunction), process (ProcessWindowFunction), and reduce/aggregate combined with
a window function; plus a tumbling window with an offset."""
from pyflink.common import Duration, Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import AggregateFunction, ProcessWindowFunction, WindowFunction
from pyflink.datastream.window import TumblingEventTimeWindows


class LastField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[2]


class SumCount(AggregateFunction):
    def create_accumulator(self):
        return 0, 0

    def add(self, value, accumulator):
        return accumulator[0] + value[1], accumulator[1] + 1

    def get_result(self, accumulator):
        return 'sum=%d count=%d' % accumulator

    def merge(self, a, b):
        return a[0] + b[0], a[1] + b[1]


class Apply(WindowFunction):
    def apply(self, key, window, inputs):
        yield 'apply key=%s [%d, %d) values=%s' % (key, window.start, window.end,
                                                   sorted(v[1] for v in inputs))


class Process(ProcessWindowFunction):
    def __init__(self, name):
        self.name = name

    def process(self, key, context, elements):
        w = context.window()
        yield '%s key=%s [%d, %d) got=%s' % (self.name, key, w.start, w.end, list(elements))


env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)
data = [('a', 1, 0), ('b', 2, 999), ('a', 3, 1000), ('a', 4, 1999), ('b', 5, 3500),
        ('a', 6, 500), ('b', 7, 2000)]
keyed = env.from_collection(data, Types.TUPLE([Types.STRING(), Types.INT(), Types.LONG()])) \
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(10))
        .with_timestamp_assigner(LastField())) \
    .key_by(lambda r: r[0])
one_second = TumblingEventTimeWindows.of(Time.seconds(1))
keyed.window(one_second).reduce(lambda x, y: (x[0], x[1] + y[1], max(x[2], y[2]))) \
    .map(lambda r: 'reduce %s %d %d' % r).print()
keyed.window(one_second).aggregate(SumCount(), output_type=Types.STRING()) \
    .map(lambda s: 'aggregate ' + s).print()
keyed.window(one_second).apply(Apply(), Types.STRING()).print()
keyed.window(one_second).process(Process('process'), Types.STRING()).print()
keyed.window(one_second).reduce(lambda x, y: (x[0], x[1] * y[1], 0),
                                window_function=Process('reduce+process'),
                                output_type=Types.STRING()).print()
keyed.window(one_second).aggregate(SumCount(), window_function=Process('aggregate+process'),
                                   output_type=Types.STRING()).print()
keyed.window(TumblingEventTimeWindows.of(Time.seconds(2), Time.milliseconds(500))) \
    .process(Process('offset'), Types.STRING()).print()
env.execute()
