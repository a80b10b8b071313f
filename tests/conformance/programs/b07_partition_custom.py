"""partition_custom(partitioner, key_selector) at parallelism 2: each record lands on the subtask
the partitioner names (index from get_runtime_context() downstream); Partitioner class and
lambda."""
from pyflink.common import Types
from pyflink.datastream import (
    KeySelector,
    MapFunction,
    ProcessFunction,
    RuntimeContext,
    StreamExecutionEnvironment,
)
from pyflink.datastream.functions import Partitioner


class ModPartitioner(Partitioner):
    def partition(self, key, num_partitions):
        return key % num_partitions


class SecondField(KeySelector):
    def get_key(self, value):
        return value[1]


class WithSubtask(MapFunction):
    def open(self, runtime_context: RuntimeContext):
        self.index = runtime_context.get_index_of_this_subtask()
        self.count = runtime_context.get_number_of_parallel_subtasks()

    def map(self, value):
        return '%s on subtask %d of %d' % (value, self.index, self.count)


class ProcessSubtask(ProcessFunction):
    def open(self, runtime_context: RuntimeContext):
        self.index = runtime_context.get_index_of_this_subtask()

    def process_element(self, value, ctx):
        yield 'process %s -> %d' % (value, self.index)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
data = env.from_collection([('a', 1), ('b', 2), ('c', 3), ('d', 4), ('e', 5), ('f', 6)],
                           type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
data.partition_custom(ModPartitioner(), SecondField()) \
    .map(WithSubtask(), output_type=Types.STRING()).print('mod')
# a lambda partitioner sending everything to partition 1, key from a lambda
data.partition_custom(lambda key, n: n - 1, lambda t: t[0]) \
    .process(ProcessSubtask(), output_type=Types.STRING()).print('last')
# partitioning by a string key
data.partition_custom(lambda key, n: 0 if key < 'c' else 1, lambda t: t[0]) \
    .map(WithSubtask(), output_type=Types.STRING()).print('str')
env.execute()
