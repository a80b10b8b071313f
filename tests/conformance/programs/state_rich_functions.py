"""Keyed state from rich functions on a KeyedStream: MapFunction, FlatMapFunction and
FilterFunction that open() their state through runtime_context (get_state, get_list_state,
get_map_state); state is per key; both runtime modes."""
from pyflink.common import Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import FilterFunction, FlatMapFunction, MapFunction
from pyflink.datastream.state import ListStateDescriptor, MapStateDescriptor, ValueStateDescriptor


class LastField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[2]


class RunningSum(MapFunction):
    def open(self, runtime_context):
        self.sum = runtime_context.get_state(ValueStateDescriptor('sum', Types.LONG()))

    def map(self, value):
        total = (self.sum.value() or 0) + value[1]
        self.sum.update(total)
        return 'map key=%s running_sum=%d' % (value[0], total)


class EveryThird(FlatMapFunction):
    def open(self, runtime_context):
        self.pending = runtime_context.get_list_state(ListStateDescriptor('pending', Types.LONG()))

    def flat_map(self, value):
        self.pending.add(value[1])
        batch = list(self.pending.get())
        if len(batch) == 3:
            self.pending.clear()
            yield 'flat_map key=%s batch=%s' % (value[0], batch)


class FirstSeen(FilterFunction):
    def open(self, runtime_context):
        self.seen = runtime_context.get_map_state(
            MapStateDescriptor('seen', Types.LONG(), Types.BOOLEAN()))

    def filter(self, value):
        if self.seen.contains(value[1]):
            return False
        self.seen.put(value[1], True)
        return True


DATA = [('p', 1, 1), ('q', 2, 2), ('p', 1, 3), ('p', 3, 4), ('q', 2, 5), ('p', 4, 6),
        ('q', 5, 7), ('q', 6, 8), ('p', 1, 9), ('p', 5, 10)]

for mode in (RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(mode)
    env.set_parallelism(1)
    ds = env.from_collection(DATA, Types.TUPLE([Types.STRING(), Types.LONG(), Types.LONG()])) \
        .assign_timestamps_and_watermarks(
            WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(LastField()))
    keyed = ds.key_by(lambda r: r[0])
    keyed.map(RunningSum(), Types.STRING()).map(lambda s, m=mode.name: '%s %s' % (m, s)) \
        .print()
    keyed.flat_map(EveryThird(), Types.STRING()) \
        .map(lambda s, m=mode.name: '%s %s' % (m, s)).print()
    keyed.filter(FirstSeen()).map(lambda r, m=mode.name: '%s filter kept %s %d' % (m, r[0], r[1])) \
        .print()
    env.execute()
