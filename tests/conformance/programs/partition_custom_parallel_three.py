"""partition_custom at parallelism 3 after a chained map, in both modes: a lambda partitioner
over a string key's length and one over an int key, read downstream with the subtask index
(a flat_map after the custom partitioning)."""
from pyflink.common import Types
from pyflink.datastream import (
    FlatMapFunction,
    RuntimeExecutionMode,
    StreamExecutionEnvironment,
)


class WhereAmI(FlatMapFunction):
    def open(self, runtime_context):
        self.index = runtime_context.get_index_of_this_subtask()

    def flat_map(self, value):
        yield '%s subtask %d' % (value, self.index)


for mode in (RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(mode)
    env.set_parallelism(3)
    words = env.from_collection(['a', 'bb', 'ccc', 'dddd', 'ee', 'f', 'gggggg'],
                                type_info=Types.STRING())
    pairs = words.map(lambda w: (w, len(w)), output_type=Types.TUPLE([Types.STRING(),
                                                                      Types.INT()]))
    pairs.partition_custom(lambda key, n: key % n, lambda p: p[1]) \
        .flat_map(WhereAmI(), output_type=Types.STRING()).print('len')
    pairs.partition_custom(lambda key, n: (n - 1) if key.startswith('d') else 0,
                           lambda p: p[0]) \
        .flat_map(WhereAmI(), output_type=Types.STRING()).print('word')
    env.execute(mode.name)
