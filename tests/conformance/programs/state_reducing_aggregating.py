"""Keyed ReducingState (with a ReduceFunction and with a lambda) and AggregatingState (with an
AggregateFunction computing an average) in a KeyedProcessFunction, both runtime modes."""
from pyflink.common import Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import (
    KeyedProcessFunction,
    RuntimeExecutionMode,
    StreamExecutionEnvironment,
)
from pyflink.datastream.functions import AggregateFunction, ReduceFunction
from pyflink.datastream.state import AggregatingStateDescriptor, ReducingStateDescriptor


class LastField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[2]


class Max(ReduceFunction):
    def reduce(self, value1, value2):
        return max(value1, value2)


class Average(AggregateFunction):
    def create_accumulator(self):
        return (0, 0)

    def add(self, value, accumulator):
        return accumulator[0] + value, accumulator[1] + 1

    def get_result(self, accumulator):
        return '%.2f' % (accumulator[0] / accumulator[1])

    def merge(self, acc_a, acc_b):
        return acc_a[0] + acc_b[0], acc_a[1] + acc_b[1]


class Stats(KeyedProcessFunction):
    def __init__(self, mode):
        self.mode = mode

    def open(self, runtime_context):
        self.total = runtime_context.get_reducing_state(
            ReducingStateDescriptor('total', lambda a, b: a + b, Types.LONG()))
        self.maximum = runtime_context.get_reducing_state(
            ReducingStateDescriptor('max', Max(), Types.LONG()))
        self.average = runtime_context.get_aggregating_state(
            AggregatingStateDescriptor('avg', Average(),
                                       Types.TUPLE([Types.LONG(), Types.LONG()])))

    def process_element(self, value, ctx):
        before = self.total.get()
        self.total.add(value[1])
        self.maximum.add(value[1])
        self.average.add(value[1])
        yield '%s key=%s before=%s total=%d max=%d avg=%s' % (
            self.mode, ctx.get_current_key(), before, self.total.get(), self.maximum.get(),
            self.average.get())


DATA = [('a', 4, 1), ('b', 10, 2), ('a', 9, 3), ('a', -3, 4), ('b', 5, 5), ('c', 0, 6)]

for mode in (RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(mode)
    env.set_parallelism(1)
    env.from_collection(DATA, Types.TUPLE([Types.STRING(), Types.LONG(), Types.LONG()])) \
        .assign_timestamps_and_watermarks(
            WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(LastField())) \
        .key_by(lambda r: r[0]) \
        .process(Stats(mode.name), Types.STRING()) \
        .print()
    env.execute()
