"""Side outputs from a KeyedProcessFunction, both from process_element and from on_timer
(event-time timers fired at the end of input), next to the main output; both runtime
modes."""
from pyflink.common import Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import (
    KeyedProcessFunction,
    OutputTag,
    RuntimeExecutionMode,
    StreamExecutionEnvironment,
)
from pyflink.datastream.state import ValueStateDescriptor

ALERTS = OutputTag('alerts', Types.STRING())
SUMMARY = OutputTag('summary', Types.STRING())


class SecondField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class Monitor(KeyedProcessFunction):
    def open(self, runtime_context):
        self.total = runtime_context.get_state(ValueStateDescriptor('total', Types.LONG()))

    def process_element(self, value, ctx):
        self.total.update((self.total.value() or 0) + value[2])
        if value[2] > 50:
            yield ALERTS, 'alert key=%s value=%d at %d' % (value[0], value[2], value[1])
        ctx.timer_service().register_event_time_timer(10000)
        yield 'seen key=%s value=%d' % (value[0], value[2])

    def on_timer(self, timestamp, ctx):
        yield SUMMARY, 'summary key=%s total=%d at %d' % (ctx.get_current_key(),
                                                          self.total.value(), timestamp)
        yield 'main from timer key=%s' % ctx.get_current_key()


for mode in (RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(mode)
    env.set_parallelism(1)
    main = env.from_collection([('s1', 1, 10), ('s2', 2, 70), ('s1', 3, 60), ('s3', 4, 5)],
                               Types.TUPLE([Types.STRING(), Types.LONG(), Types.INT()])) \
        .assign_timestamps_and_watermarks(
            WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(SecondField())) \
        .key_by(lambda r: r[0]) \
        .process(Monitor(), Types.STRING())
    m = mode.name
    main.map(lambda s, m=m: m + ' ' + s).print()
    main.get_side_output(ALERTS).map(lambda s, m=m: m + ' ' + s).print()
    main.get_side_output(SUMMARY).map(lambda s, m=m: m + ' ' + s).print()
    env.execute()
