"""Processing-time session windows at the end of bounded input (STREAMING): with a 1 hour gap
every element of a key merges into one session; the default trigger never fires (pending
processing-time timers are dropped at the end of input, unlike event-time ones), while a
custom merging trigger that fires on every element shows the merged contents growing."""
from pyflink.common import Time, Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import ProcessWindowFunction
from pyflink.datastream.window import ProcessingTimeSessionWindows, Trigger, TriggerResult


class FireEveryElement(Trigger):
    def on_element(self, element, timestamp, window, ctx):
        return TriggerResult.FIRE

    def on_processing_time(self, time, window, ctx):
        return TriggerResult.CONTINUE

    def on_event_time(self, time, window, ctx):
        return TriggerResult.CONTINUE

    def can_merge(self):
        return True

    def on_merge(self, window, ctx):
        pass

    def clear(self, window, ctx):
        pass


class Contents(ProcessWindowFunction):
    def __init__(self, name):
        self.name = name

    def process(self, key, context, elements):
        yield '%s key=%s values=%s' % (self.name, key, sorted(e[1] for e in elements))


env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)
keyed = env.from_collection([('a', 1), ('b', 2), ('a', 3), ('a', 4), ('b', 5)],
                            Types.TUPLE([Types.STRING(), Types.INT()])) \
    .key_by(lambda r: r[0])
keyed.window(ProcessingTimeSessionWindows.with_gap(Time.hours(1))) \
    .process(Contents('default trigger'), Types.STRING()).print()
keyed.window(ProcessingTimeSessionWindows.with_gap(Time.hours(1))) \
    .trigger(FireEveryElement()) \
    .process(Contents('fire every element'), Types.STRING()).print()
env.execute()
