"""Walks Flink 2.3's DataStream "Process Function" page (dev/datastream/operators/
process_function): the page's CountWithTimestamp example (a KeyedProcessFunction keeping
key, count and last-modification time in a ValueState, registering an event-time timer
60 s after each update and emitting (key, count) from on_timer only when no later update
came); a plain ProcessFunction on a non-keyed stream (ctx.timestamp(), the timer service's
current watermark / processing time, timers refused off a keyed stream); and the timer
service of a KeyedProcessFunction: ctx.get_current_key() in process_element and on_timer,
ctx.timestamp() and ctx.time_domain() in on_timer, timer coalescing by rounding the
timestamp to full seconds and by current_watermark() + 1, and delete_event_time_timer.
Event time with monotonous timestamps; STREAMING and BATCH mode (the timer-service tour in
STREAMING only)."""
from pyflink.common import Row, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import (
    KeyedProcessFunction,
    ProcessFunction,
    RuntimeContext,
    RuntimeExecutionMode,
    StreamExecutionEnvironment,
)
from pyflink.datastream.state import ValueStateDescriptor


class TsField(TimestampAssigner):
    def __init__(self, index):
        self.index = index

    def extract_timestamp(self, value, record_timestamp):
        return value[self.index]


class CountWithTimeoutFunction(KeyedProcessFunction):
    """The page's example: count per key, emitted 60 s (event time) after the last update."""

    def __init__(self):
        self.state = None

    def open(self, runtime_context: RuntimeContext):
        self.state = runtime_context.get_state(ValueStateDescriptor(
            'my_state', Types.ROW([Types.STRING(), Types.LONG(), Types.LONG()])))

    def process_element(self, value, ctx: 'KeyedProcessFunction.Context'):
        # retrieve the current count
        current = self.state.value()
        if current is None:
            current = Row(value[0], 0, 0)
        # update the state's count
        current[1] += 1
        # set the state's timestamp to the record's assigned event time timestamp
        current[2] = ctx.timestamp()
        # write the state back
        self.state.update(current)
        # schedule the next timer 60 seconds from the current event time
        ctx.timer_service().register_event_time_timer(current[2] + 60000)

    def on_timer(self, timestamp: int, ctx: 'KeyedProcessFunction.OnTimerContext'):
        # get the state for the key that scheduled the timer
        result = self.state.value()
        # check if this is an outdated timer or the latest timer
        if timestamp == result[2] + 60000:
            # emit the state on timeout
            yield result[0], result[1]


class Plain(ProcessFunction):
    """A ProcessFunction on a non-keyed stream: element timestamp and the timer service's
    clocks are readable, but timers are only for keyed streams."""

    def __init__(self, mode):
        self.mode = mode

    def process_element(self, value, ctx: 'ProcessFunction.Context'):
        service = ctx.timer_service()
        yield '%s plain %s ts=%d watermark<ts=%s processing_time>0=%s' % (
            self.mode, value[0], ctx.timestamp(), service.current_watermark() < ctx.timestamp(),
            service.current_processing_time() > 0)
        try:
            service.register_event_time_timer(ctx.timestamp() + 1000)
            yield '%s plain %s timer registered' % (self.mode, value[0])
        except Exception as e:  # noqa: BLE001 - the page: timers only on keyed streams
            yield '%s plain %s timer refused: %s' % (self.mode, value[0], e)


class TimerTour(KeyedProcessFunction):
    """Timer service of a KeyedProcessFunction. Timer kinds, told apart by their time:
    multiples of 1000 are coalesced timers, above 10000 the per-key timeout (re-armed by
    deleting the previous one), anything else a current_watermark() + 1 timer."""

    def __init__(self, mode):
        self.mode = mode

    def open(self, runtime_context: RuntimeContext):
        self.last = runtime_context.get_state(ValueStateDescriptor('last', Types.LONG()))
        self.count = runtime_context.get_state(ValueStateDescriptor('count', Types.INT()))

    def process_element(self, value, ctx: 'KeyedProcessFunction.Context'):
        service = ctx.timer_service()
        ts = ctx.timestamp()
        # coalescing: one timer per full second, however many elements fall into it
        coalesced = ((ts + 1500) // 1000) * 1000
        service.register_event_time_timer(coalesced)
        # coalescing with the watermark: fires with the next watermark (registered for the
        # first element of a key only, as how many such timers fire depends on when
        # periodic watermarks come)
        if self.count.value() is None:
            service.register_event_time_timer(service.current_watermark() + 1)
        # a timeout 10 s after the last element of the key: stop the previous timer
        previous = self.last.value()
        if previous is not None:
            service.delete_event_time_timer(previous + 10000)
        service.register_event_time_timer(ts + 10000)
        self.last.update(ts)
        self.count.update((self.count.value() or 0) + 1)
        yield '%s element key=%r value=%s ts=%d coalesced=%d deleted=%s watermark<ts=%s' % (
            self.mode, ctx.get_current_key(), value[1], ts, coalesced,
            None if previous is None else previous + 10000,
            service.current_watermark() < ts)

    def on_timer(self, timestamp: int, ctx: 'KeyedProcessFunction.OnTimerContext'):
        service = ctx.timer_service()
        if timestamp % 1000 == 0:
            kind = 'coalesced'
        elif timestamp > 10000:
            kind = 'timeout'
        else:
            yield '%s timer key=%r next-watermark fired domain=%s watermark>=time=%s' % (
                self.mode, ctx.get_current_key(), ctx.time_domain(),
                service.current_watermark() >= timestamp)
            return
        yield '%s timer key=%r %s time=%d ctx.timestamp=%d domain=%s watermark>=time=%s%s' % (
            self.mode, ctx.get_current_key(), kind, timestamp, ctx.timestamp(),
            ctx.time_domain(), service.current_watermark() >= timestamp,
            ' last=%d count=%d' % (self.last.value(), self.count.value())
            if kind == 'timeout' else '')


# (key, event time): the page's example counts per key; a and c get two updates within
# 60 s, b's second update comes 65 s after its first (its first timer is then outdated),
# d gets one
COUNTS = [('a', 1000), ('b', 5000), ('a', 30000), ('c', 61000), ('b', 70000),
          ('c', 100000), ('d', 150000)]
# (key, value, event time) within 10 s: x2300 and x2600 share the coalesced timer 3000
TOUR = [('x', 1, 1100), ('y', 2, 1700), ('x', 3, 2300), ('x', 4, 2600), ('y', 5, 4400)]

for mode in (RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(mode)
    env.set_parallelism(1)
    name = mode.name

    counts = env.from_collection(COUNTS, Types.TUPLE([Types.STRING(), Types.LONG()])) \
        .assign_timestamps_and_watermarks(
            WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(TsField(1)))
    counts.key_by(lambda value: value[0], key_type=Types.STRING()) \
        .process(CountWithTimeoutFunction(), Types.TUPLE([Types.STRING(), Types.LONG()])) \
        .print(name + ' count')

    tour = env.from_collection(TOUR, Types.TUPLE([Types.STRING(), Types.INT(), Types.LONG()])) \
        .assign_timestamps_and_watermarks(
            WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(TsField(2)))
    tour.process(Plain(name), Types.STRING()).print()
    if mode == RuntimeExecutionMode.STREAMING:
        # STREAMING only: in BATCH mode PyFlink 2.3 sometimes fires a deleted timer (the
        # key's timers fire at the key switch, racing the deletion), and a state update in
        # on_timer leaks into the next key
        tour.key_by(lambda value: value[0], key_type=Types.STRING()) \
            .process(TimerTour(name), Types.STRING()) \
            .print()
    env.execute('process function page ' + name)
