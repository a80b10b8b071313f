"""Event-time session windows with reduce (STREAMING): elements that extend a session at
either end, out of order, are merged into it; reduce alone and reduce with a
ProcessWindowFunction that sees the window bounds and the single reduced value."""
from pyflink.common import Duration, Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import ProcessWindowFunction
from pyflink.datastream.window import EventTimeSessionWindows


class LastField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[3]


class WithWindow(ProcessWindowFunction):
    def process(self, key, context, elements):
        values = list(elements)
        w = context.window()
        yield 'window key=%s [%d, %d) reduced=%s n=%d' % (key, w.start, w.end, values[0],
                                                          len(values))


# (key, count, sum, timestamp); gap 3 s. 'a': 1000, then 3500 extends the session's end,
# then 200 (out of order) extends its start; 12000 is a new session. 'b': 2000, 9000 and
# 5500 stay apart (5500 - 2000 > 3 s, 9000 - 5500 > 3 s). 'c': 4000 and 7000 touch.
DATA = [('a', 1, 1, 1000), ('b', 1, 10, 2000), ('a', 1, 2, 3500), ('b', 1, 20, 9000),
        ('a', 1, 3, 12000), ('a', 1, 4, 200), ('b', 1, 30, 5500), ('c', 1, 100, 4000),
        ('a', 1, 5, 6000), ('c', 1, 200, 7000)]

env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)
ds = env.from_collection(DATA, Types.TUPLE([Types.STRING(), Types.INT(), Types.INT(),
                                            Types.LONG()]))
ds = ds.assign_timestamps_and_watermarks(
    WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(60))
    .with_timestamp_assigner(LastField()))
keyed = ds.key_by(lambda r: r[0])


def add(x, y):
    return x[0], x[1] + y[1], x[2] + y[2], max(x[3], y[3])


keyed.window(EventTimeSessionWindows.with_gap(Time.seconds(3))) \
    .reduce(add) \
    .map(lambda r: 'reduce key=%s count=%d sum=%d max_ts=%d' % r) \
    .print()
keyed.window(EventTimeSessionWindows.with_gap(Time.seconds(3))) \
    .reduce(add, window_function=WithWindow(), output_type=Types.STRING()) \
    .print()
env.execute()
