"""A retract stream printed as it is: Java's Tuple2 text, the row with its kind."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment
from pyflink.table.expressions import col

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
t = t_env.from_elements([(1, 'a'), (2, 'b'), (3, 'a')], ['id', 'k'])
counts = t.group_by(col('k')).select(col('k'), col('id').count.alias('n'))
t_env.to_retract_stream(counts, Types.ROW([Types.STRING(), Types.LONG()])).print()
env.execute()
