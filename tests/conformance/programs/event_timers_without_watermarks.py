"""Event-time timers in a job without a watermark strategy (a ``from_collection`` source,
no ``assign_timestamps_and_watermarks``), as Flink's State page writes its examples: records
have no timestamp and the watermark stays at its least until the end of the input, whose final
watermark fires every timer. STREAMING only: PyFlink 2.3's BATCH mode reads a key's state
empty in ``on_timer`` (docs/state-and-time.md)."""
# oracle: ordered
from pyflink.common.typeinfo import Types
from pyflink.datastream import RuntimeContext, StreamExecutionEnvironment
from pyflink.datastream.functions import KeyedProcessFunction
from pyflink.datastream.state import ListStateDescriptor


class NoWmTimers(KeyedProcessFunction):
    def open(self, ctx: RuntimeContext):
        self.items = ctx.get_list_state(ListStateDescriptor("items", Types.STRING()))

    def process_element(self, v, ctx):
        self.items.add(v[1])
        ctx.timer_service().register_event_time_timer(v[2])
        yield "elem %s %s ts=%r wm=%r" % (v[0], v[1], ctx.timestamp(),
                                          ctx.timer_service().current_watermark())

    def on_timer(self, ts, ctx):
        yield "timer %s %d items %r" % (ctx.get_current_key(), ts, list(self.items.get()))


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.from_collection([("a", "x", 20), ("b", "y", 10), ("a", "z", 30), ("b", "w", 5)]) \
    .key_by(lambda r: r[0]).process(NoWmTimers(), Types.STRING()).print()
env.execute()
