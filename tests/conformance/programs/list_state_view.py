"""What ListState.get() returns: an iterable that is true even when the state is empty and
sees the adds made after it was taken; in a keyed process function and a keyed map, after
update and clear too; both modes."""
# oracle: ordered
from pyflink.common.typeinfo import Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import KeyedProcessFunction, MapFunction
from pyflink.datastream.state import ListStateDescriptor


class Views(KeyedProcessFunction):
    def open(self, runtime_context):
        self.items = runtime_context.get_list_state(ListStateDescriptor("items", Types.INT()))

    def process_element(self, value, ctx):
        before = self.items.get()
        empty = "true" if before else "false"
        self.items.add(value[1])
        after_add = list(before)
        if value[1] % 3 == 0:
            self.items.update([value[1] * 10])
        if value[1] % 4 == 0:
            self.items.clear()
        yield "%s %d empty-was-%s seen=%r now=%r" % (
            value[0], value[1], empty, after_add, list(self.items.get()))


class Counts(MapFunction):
    def open(self, runtime_context):
        self.items = runtime_context.get_list_state(ListStateDescriptor("items", Types.STRING()))

    def map(self, value):
        view = self.items.get()
        self.items.add_all([value[0]] * 2)
        return "%s %d %s %d" % (value[0], value[1], bool(view), len(list(view)))


def run(mode, processed):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.set_runtime_mode(mode)
    records = [("a", 1), ("b", 2), ("a", 3), ("a", 4), ("b", 5), ("a", 6), ("b", 8)]
    ds = env.from_collection(records, Types.TUPLE([Types.STRING(), Types.INT()]))
    keyed = ds.key_by(lambda r: r[0])
    (keyed.process(Views(), Types.STRING()) if processed else
     keyed.map(Counts(), Types.STRING())).print()
    env.execute("list state view")


for mode in (RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH):
    run(mode, True)
    run(mode, False)
