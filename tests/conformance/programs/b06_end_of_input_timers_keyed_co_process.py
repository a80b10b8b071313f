"""End of bounded input fires pending event-time timers in a KeyedCoProcessFunction
(STREAMING): both inputs buffer into keyed state and register a far timer; on_timer (at the
final watermark) emits the join of everything buffered for the key, whatever the arrival
order of the two inputs."""
from pyflink.common import Duration, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import KeyedCoProcessFunction
from pyflink.datastream.state import ListStateDescriptor


class SecondField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class BufferAndJoinAtEnd(KeyedCoProcessFunction):
    def open(self, runtime_context):
        self.left = runtime_context.get_list_state(ListStateDescriptor('left', Types.STRING()))
        self.right = runtime_context.get_list_state(ListStateDescriptor('right', Types.STRING()))

    def process_element1(self, value, ctx):
        self.left.add(value[2])
        ctx.timer_service().register_event_time_timer(10 ** 12)

    def process_element2(self, value, ctx):
        self.right.add(value[2])
        ctx.timer_service().register_event_time_timer(10 ** 12 + 1)

    def on_timer(self, timestamp, ctx):
        lefts, rights = sorted(self.left.get()), sorted(self.right.get())
        yield 'timer key=%s time=%d ctx.timestamp=%d domain=%s lefts=%s rights=%s' % (
            ctx.get_current_key(), timestamp, ctx.timestamp(), ctx.time_domain(), lefts, rights)
        for left in lefts:
            for r in rights:
                yield 'joined key=%s %s+%s' % (ctx.get_current_key(), left, r)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)
row = Types.TUPLE([Types.STRING(), Types.LONG(), Types.STRING()])
strategy = WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(10)) \
    .with_timestamp_assigner(SecondField())
orders = env.from_collection([('k1', 100, 'o1'), ('k2', 200, 'o2'), ('k1', 300, 'o3'),
                              ('k3', 50, 'o4')], row).assign_timestamps_and_watermarks(strategy)
payments = env.from_collection([('k1', 150, 'p1'), ('k2', 250, 'p2'), ('k2', 260, 'p3'),
                                ('k4', 10, 'p4')], row).assign_timestamps_and_watermarks(strategy)
orders.connect(payments) \
    .key_by(lambda r: r[0], lambda r: r[0]) \
    .process(BufferAndJoinAtEnd(), Types.STRING()) \
    .print()
env.execute()
