"""print() with and without a sink identifier at parallelism 1 and 2 (prefixes '1> ',
'id:2> ', 'id> '), a print sink with its own parallelism, and print of untyped values."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
words = env.from_collection(['a', 'bb', 'ccc', 'dd', 'e'], type_info=Types.STRING())
# partition_custom makes the subtask of each record deterministic: by length parity
spread = words.partition_custom(lambda key, n: key % n, lambda s: len(s)) \
    .map(lambda s: s, output_type=Types.STRING())
spread.print()
spread.print('id')
spread.map(lambda s: s.upper(), output_type=Types.STRING()).print('upper')
spread.map(lambda s: (s, len(s))).print('untyped')
# a print sink of parallelism 1 after a parallelism-2 stream: no subtask number
spread.print('single').set_parallelism(1)
words.print().set_parallelism(1)
env.execute()
