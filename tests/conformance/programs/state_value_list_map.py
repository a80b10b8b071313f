"""Keyed ValueState, ListState and MapState in a KeyedProcessFunction: a running count, the
history of values and per-tag sums, per key; elements of one key arrive in timestamp order
in both runtime modes (BATCH sorts each key's elements by timestamp)."""
from pyflink.common import Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import (
    KeyedProcessFunction,
    RuntimeExecutionMode,
    StreamExecutionEnvironment,
)
from pyflink.datastream.state import ListStateDescriptor, MapStateDescriptor, ValueStateDescriptor


class LastField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[3]


class Track(KeyedProcessFunction):
    def __init__(self, mode):
        self.mode = mode

    def open(self, runtime_context):
        self.count = runtime_context.get_state(ValueStateDescriptor('count', Types.INT()))
        self.history = runtime_context.get_list_state(
            ListStateDescriptor('history', Types.INT()))
        self.per_tag = runtime_context.get_map_state(
            MapStateDescriptor('per_tag', Types.STRING(), Types.LONG()))

    def process_element(self, value, ctx):
        count = (self.count.value() or 0) + 1
        self.count.update(count)
        self.history.add(value[2])
        tag = value[1]
        self.per_tag.put(tag, (self.per_tag.get(tag) if self.per_tag.contains(tag) else 0)
                         + value[2])
        yield '%s key=%s count=%d history=%s per_tag=%s' % (
            self.mode, ctx.get_current_key(), count, list(self.history.get()),
            sorted(self.per_tag.items()))


DATA = [('u1', 'x', 5, 1), ('u2', 'y', 7, 2), ('u1', 'y', 1, 3), ('u1', 'x', 2, 4),
        ('u3', 'z', 9, 5), ('u2', 'y', 3, 6), ('u1', 'z', 4, 7)]

for mode in (RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(mode)
    env.set_parallelism(1)
    env.from_collection(DATA, Types.TUPLE([Types.STRING(), Types.STRING(), Types.INT(),
                                           Types.LONG()])) \
        .assign_timestamps_and_watermarks(
            WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(LastField())) \
        .key_by(lambda r: r[0]) \
        .process(Track(mode.name), Types.STRING()) \
        .print()
    env.execute()
