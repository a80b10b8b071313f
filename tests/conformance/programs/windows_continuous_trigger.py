"""ContinuousEventTimeTrigger on tumbling event-time windows (STREAMING): the trigger fires
early at each interval and again at the window end; when all of this happens at the final
watermark every pending firing still runs, each seeing the whole window."""
from pyflink.common import Duration, Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import ProcessWindowFunction
from pyflink.datastream.window import ContinuousEventTimeTrigger, TumblingEventTimeWindows


class LastField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class Describe(ProcessWindowFunction):
    def process(self, key, context, elements):
        yield 'key=%s window=%s stamps=%s' % (key, context.window(),
                                              sorted(e[1] for e in elements))


env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)
data = [('a', 100), ('b', 200), ('c', 300), ('a', 400), ('b', 2500)]
env.from_collection(data, Types.TUPLE([Types.STRING(), Types.LONG()])) \
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(100))
        .with_timestamp_assigner(LastField())) \
    .key_by(lambda r: r[0]) \
    .window(TumblingEventTimeWindows.of(Time.seconds(3))) \
    .trigger(ContinuousEventTimeTrigger.of(Time.milliseconds(500))) \
    .process(Describe(), Types.STRING()) \
    .print()
env.execute()
