"""End of bounded input fires pending event-time window timers (STREAMING): with a watermark
that never passes the data, every tumbling, sliding and global-with-event-time-trigger window
fires at the final watermark; the window function sees watermark Long.MAX."""
from pyflink.common import Duration, Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import ProcessWindowFunction
from pyflink.datastream.window import (
    GlobalWindows,
    SlidingEventTimeWindows,
    Trigger,
    TriggerResult,
    TumblingEventTimeWindows,
)


class SecondField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class Describe(ProcessWindowFunction):
    def __init__(self, name):
        self.name = name

    def process(self, key, context, elements):
        yield '%s key=%s window=%s stamps=%s watermark=%d' % (
            self.name, key, context.window(), sorted(e[1] for e in elements),
            context.current_watermark())


class FireAtEventTime(Trigger):
    """Fires the global window when the watermark reaches 1 000 000 (only at end of input)."""

    def on_element(self, element, timestamp, window, ctx):
        ctx.register_event_time_timer(1000000)
        return TriggerResult.CONTINUE

    def on_processing_time(self, time, window, ctx):
        return TriggerResult.CONTINUE

    def on_event_time(self, time, window, ctx):
        return TriggerResult.FIRE_AND_PURGE

    def on_merge(self, window, ctx):
        pass

    def clear(self, window, ctx):
        ctx.delete_event_time_timer(1000000)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)
ds = env.from_collection([('a', 100), ('b', 1500), ('a', 2500), ('a', 900), ('b', 4100)],
                         Types.TUPLE([Types.STRING(), Types.LONG()])) \
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(100))
        .with_timestamp_assigner(SecondField()))
keyed = ds.key_by(lambda r: r[0])
keyed.window(TumblingEventTimeWindows.of(Time.seconds(2))) \
    .process(Describe('tumbling'), Types.STRING()).print()
keyed.window(SlidingEventTimeWindows.of(Time.seconds(4), Time.seconds(2))) \
    .process(Describe('sliding'), Types.STRING()).print()
keyed.window(GlobalWindows.create()).trigger(FireAtEventTime()) \
    .process(Describe('global'), Types.STRING()).print()
env.execute()
