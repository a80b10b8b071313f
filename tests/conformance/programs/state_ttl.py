"""State TTL configuration: a StateTtlConfig built with the builder options is readable back
(ttl, update type, visibility, enabled) and states with a long TTL behave as ordinary keyed
state (nothing expires during the job); both runtime modes."""
from pyflink.common import Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import (
    KeyedProcessFunction,
    RuntimeExecutionMode,
    StreamExecutionEnvironment,
)
from pyflink.datastream.state import (
    ListStateDescriptor,
    MapStateDescriptor,
    StateTtlConfig,
    ValueStateDescriptor,
)


def ttl_config():
    return StateTtlConfig.new_builder(Time.hours(1)) \
        .set_update_type(StateTtlConfig.UpdateType.OnReadAndWrite) \
        .set_state_visibility(StateTtlConfig.StateVisibility.NeverReturnExpired) \
        .cleanup_full_snapshot() \
        .build()


config = ttl_config()
print('ttl_ms', config.get_ttl().to_milliseconds())
print('update_type', config.get_update_type())
print('visibility', config.get_state_visibility())
print('enabled', config.is_enabled())
print('characteristic', config.get_ttl_time_characteristic())


class LastField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[2]


class WithTtl(KeyedProcessFunction):
    def __init__(self, mode):
        self.mode = mode

    def open(self, runtime_context):
        value = ValueStateDescriptor('last', Types.LONG())
        value.enable_time_to_live(ttl_config())
        values = ListStateDescriptor('all', Types.LONG())
        values.enable_time_to_live(ttl_config())
        counts = MapStateDescriptor('counts', Types.LONG(), Types.INT())
        counts.enable_time_to_live(ttl_config())
        self.last = runtime_context.get_state(value)
        self.all = runtime_context.get_list_state(values)
        self.counts = runtime_context.get_map_state(counts)

    def process_element(self, value, ctx):
        previous = self.last.value()
        self.last.update(value[1])
        self.all.add(value[1])
        self.counts.put(value[1], (self.counts.get(value[1]) or 0) + 1)
        yield '%s key=%s previous=%s all=%s counts=%s' % (
            self.mode, ctx.get_current_key(), previous, list(self.all.get()),
            sorted(self.counts.items()))


DATA = [('a', 1, 1), ('b', 2, 2), ('a', 3, 3), ('a', 1, 4), ('b', 2, 5)]
for mode in (RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(mode)
    env.set_parallelism(1)
    env.from_collection(DATA, Types.TUPLE([Types.STRING(), Types.LONG(), Types.LONG()])) \
        .assign_timestamps_and_watermarks(
            WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(LastField())) \
        .key_by(lambda r: r[0]) \
        .process(WithTtl(mode.name), Types.STRING()) \
        .print()
    env.execute()
