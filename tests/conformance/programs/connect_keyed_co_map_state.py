"""A keyed CoMapFunction / CoFlatMapFunction with keyed state from runtime_context: each input
keeps its own per-key counter (so results do not depend on how the inputs interleave) and
a shared per-key set; both runtime modes."""
from pyflink.common import Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import CoFlatMapFunction, CoMapFunction
from pyflink.datastream.state import MapStateDescriptor, ValueStateDescriptor


class Counters(CoMapFunction):
    def open(self, runtime_context):
        self.left = runtime_context.get_state(ValueStateDescriptor('left', Types.INT()))
        self.right = runtime_context.get_state(ValueStateDescriptor('right', Types.INT()))

    def map1(self, value):
        self.left.update((self.left.value() or 0) + 1)
        return 'left key=%s value=%s nth=%d' % (value[0], value[1], self.left.value())

    def map2(self, value):
        self.right.update((self.right.value() or 0) + 1)
        return 'right key=%s value=%s nth=%d' % (value[0], value[1], self.right.value())


class FirstOccurrences(CoFlatMapFunction):
    """Emits a value the first time input 1 sees it for the key; input 2 only counts."""

    def open(self, runtime_context):
        self.seen = runtime_context.get_map_state(
            MapStateDescriptor('seen', Types.STRING(), Types.INT()))

    def flat_map1(self, value):
        if not self.seen.contains(value[1]):
            self.seen.put(value[1], 1)
            yield 'first key=%s value=%s' % value

    def flat_map2(self, value):
        return []


for mode in (RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(mode)
    env.set_parallelism(1)
    row = Types.TUPLE([Types.STRING(), Types.STRING()])
    a = env.from_collection([('k1', 'x'), ('k2', 'y'), ('k1', 'x'), ('k1', 'z')], row)
    b = env.from_collection([('k1', 'p'), ('k2', 'q'), ('k2', 'r')], row)
    connected = a.connect(b).key_by(lambda r: r[0], lambda r: r[0])
    connected.map(Counters(), Types.STRING()).map(lambda s, m=mode.name: m + ' ' + s).print()
    connected.flat_map(FirstOccurrences(), Types.STRING()) \
        .map(lambda s, m=mode.name: m + ' ' + s).print()
    env.execute()
