"""Keyed state before first write and after clear(): ValueState.value() is None, an empty
ListState gives no elements, MapState is_empty/contains/get/remove/keys/values/items; ListState
update() and add_all(); clear() resets only the current key; both runtime modes."""
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
        return value[2]


class Commands(KeyedProcessFunction):
    def __init__(self, mode):
        self.mode = mode

    def open(self, runtime_context):
        self.value = runtime_context.get_state(ValueStateDescriptor('v', Types.STRING()))
        self.list = runtime_context.get_list_state(ListStateDescriptor('l', Types.INT()))
        self.map = runtime_context.get_map_state(
            MapStateDescriptor('m', Types.STRING(), Types.INT()))

    def describe(self):
        return 'value=%r list=%s map_empty=%s keys=%s values=%s' % (
            self.value.value(), list(self.list.get()), self.map.is_empty(),
            sorted(self.map.keys()), sorted(self.map.values()))

    def process_element(self, value, ctx):
        command = value[1]
        if command == 'fill':
            self.value.update('filled')
            self.list.add_all([3, 1, 2])
            for k, v in (('x', 1), ('y', 2), ('z', 3)):
                self.map.put(k, v)
        elif command == 'update':
            self.list.update([9])
            self.map.remove('y')
            self.map.remove('missing')
            self.value.update(None)
        elif command == 'clear':
            self.value.clear()
            self.list.clear()
            self.map.clear()
        yield '%s key=%s after %s: %s contains_x=%s get_x=%s' % (
            self.mode, ctx.get_current_key(), command, self.describe(), self.map.contains('x'),
            self.map.get('x'))


DATA = [('k1', 'look', 1), ('k1', 'fill', 2), ('k2', 'fill', 3), ('k1', 'update', 4),
        ('k1', 'clear', 5), ('k2', 'look', 6), ('k1', 'look', 7)]

for mode in (RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(mode)
    env.set_parallelism(1)
    env.from_collection(DATA, Types.TUPLE([Types.STRING(), Types.STRING(), Types.LONG()])) \
        .assign_timestamps_and_watermarks(
            WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(LastField())) \
        .key_by(lambda r: r[0]) \
        .process(Commands(mode.name), Types.STRING()) \
        .print()
    env.execute()
