"""DataStream.broadcast() without a state descriptor as a partitioning: every element goes to
every parallel instance of the next operator (parallelism 2, so each appears twice), while
rebalance() and shuffle() send each element to exactly one instance."""
from pyflink.common import Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(2)
ds = env.from_collection(['a', 'b', 'c'], Types.STRING())
ds.broadcast().map(lambda s: 'broadcast ' + s, Types.STRING()).set_parallelism(2) \
    .print().set_parallelism(1)
ds.rebalance().map(lambda s: 'rebalance ' + s, Types.STRING()).set_parallelism(2) \
    .print().set_parallelism(1)
ds.shuffle().map(lambda s: 'shuffle ' + s, Types.STRING()).set_parallelism(2) \
    .print().set_parallelism(1)
env.execute()
