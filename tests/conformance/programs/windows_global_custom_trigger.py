"""Global windows with triggers (STREAMING): a custom Trigger keeping a running sum in
partitioned trigger state and returning FIRE_AND_PURGE once it reaches 10; CountTrigger.of(2)
(FIRE keeps the contents, so firings accumulate); PurgingTrigger.of(CountTrigger.of(2)).
Elements left in a global window at the end of input are never emitted."""
from pyflink.common import Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import ProcessWindowFunction
from pyflink.datastream.state import ValueStateDescriptor
from pyflink.datastream.window import (
    CountTrigger,
    GlobalWindows,
    PurgingTrigger,
    Trigger,
    TriggerResult,
)


class SumReaches(Trigger):
    def __init__(self, threshold):
        self.threshold = threshold
        self.descriptor = ValueStateDescriptor('sum', Types.INT())

    def on_element(self, element, timestamp, window, ctx):
        state = ctx.get_partitioned_state(self.descriptor)
        total = (state.value() or 0) + element[1]
        if total >= self.threshold:
            state.clear()
            return TriggerResult.FIRE_AND_PURGE
        state.update(total)
        return TriggerResult.CONTINUE

    def on_processing_time(self, time, window, ctx):
        return TriggerResult.CONTINUE

    def on_event_time(self, time, window, ctx):
        return TriggerResult.CONTINUE

    def on_merge(self, window, ctx):
        pass

    def clear(self, window, ctx):
        ctx.get_partitioned_state(self.descriptor).clear()


class Describe(ProcessWindowFunction):
    def __init__(self, name):
        self.name = name

    def process(self, key, context, elements):
        yield '%s key=%s window=%s values=%s' % (self.name, key, context.window(),
                                                 [e[1] for e in elements])


env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)
data = [('a', 4), ('b', 9), ('a', 5), ('a', 1), ('b', 1), ('a', 7), ('b', 2), ('a', 3),
        ('a', 2)]
keyed = env.from_collection(data, Types.TUPLE([Types.STRING(), Types.INT()])) \
    .key_by(lambda r: r[0])
keyed.window(GlobalWindows.create()).trigger(SumReaches(10)) \
    .process(Describe('sum>=10'), Types.STRING()).print()
keyed.window(GlobalWindows.create()).trigger(CountTrigger.of(2)) \
    .process(Describe('count2'), Types.STRING()).print()
keyed.window(GlobalWindows.create()).trigger(PurgingTrigger.of(CountTrigger.of(2))) \
    .process(Describe('purging_count2'), Types.STRING()).print()
env.execute()
