"""Side outputs yielded from a ProcessWindowFunction (STREAMING): each fired window sends a
record count to a side output and its elements to the main output; the window's late-data
tag and a user tag on the same window operator."""
from pyflink.common import Duration, Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import OutputTag, RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import ProcessWindowFunction
from pyflink.datastream.window import TumblingEventTimeWindows

COUNTS = OutputTag('counts', Types.STRING())
LATE = OutputTag('late', Types.TUPLE([Types.STRING(), Types.LONG()]))


class SecondField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class Split(ProcessWindowFunction):
    def process(self, key, context, elements):
        elements = sorted(e[1] for e in elements)
        yield COUNTS, 'count key=%s window_end=%d n=%d' % (key, context.window().end,
                                                          len(elements))
        for stamp in elements:
            yield 'element key=%s ts=%d' % (key, stamp)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)
main = env.from_collection([('a', 100), ('b', 300), ('a', 1200), ('a', 1500), ('b', 2600)],
                           Types.TUPLE([Types.STRING(), Types.LONG()])) \
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(10))
        .with_timestamp_assigner(SecondField())) \
    .key_by(lambda r: r[0]) \
    .window(TumblingEventTimeWindows.of(Time.seconds(1))) \
    .side_output_late_data(LATE) \
    .process(Split(), Types.STRING())
main.print()
main.get_side_output(COUNTS).print()
main.get_side_output(LATE).map(lambda r: 'late %s' % (r,)).print()
env.execute()
