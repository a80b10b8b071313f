"""ctx.timestamp() in ProcessFunction / KeyedProcessFunction, records with and without
timestamps."""
from pyflink.common import Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import (
    KeyedProcessFunction,
    ProcessFunction,
    RuntimeExecutionMode,
    StreamExecutionEnvironment,
)


class FirstField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class Stamp(ProcessFunction):
    def process_element(self, value, ctx):
        yield 'process %s ts=%r' % (value[0], ctx.timestamp())


class KeyedStamp(KeyedProcessFunction):
    def process_element(self, value, ctx):
        yield 'keyed %s key=%s ts=%r' % (value[0], ctx.get_current_key(), ctx.timestamp())


DATA = [('a', 1000), ('b', 0), ('a', 2500), ('c', 1)]
TYPE = Types.TUPLE([Types.STRING(), Types.LONG()])

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
for mode in [RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH]:
    env.set_runtime_mode(mode)
    name = 'STREAMING' if mode == RuntimeExecutionMode.STREAMING else 'BATCH'
    plain = env.from_collection(DATA, type_info=TYPE)
    stamped = env.from_collection(DATA, type_info=TYPE).assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(FirstField()))
    no_wm = env.from_collection(DATA, type_info=TYPE).assign_timestamps_and_watermarks(
        WatermarkStrategy.no_watermarks().with_timestamp_assigner(FirstField()))
    plain.process(Stamp(), output_type=Types.STRING()).print(name + ' plain')
    plain.key_by(lambda t: t[0]).process(KeyedStamp(), output_type=Types.STRING()) \
        .print(name + ' plain')
    stamped.process(Stamp(), output_type=Types.STRING()).print(name + ' stamped')
    # the timestamp survives a map in between
    stamped.map(lambda t: (t[0].upper(), t[1]), output_type=TYPE) \
        .key_by(lambda t: t[0]).process(KeyedStamp(), output_type=Types.STRING()) \
        .print(name + ' stamped')
    no_wm.process(Stamp(), output_type=Types.STRING()).print(name + ' no_watermarks')
    env.execute()
