"""from_data_stream with field expressions: by name they pick and reorder the stream's fields
(b, a), renamed with alias; by position (f0, f1 of a tuple) they rename."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment
from pyflink.table.expressions import col

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
rows = env.from_collection([(1, 'x'), (2, 'y')], type_info=Types.ROW_NAMED(
    ['a', 'b'], [Types.INT(), Types.STRING()]))
t = t_env.from_data_stream(rows, col('b'), col('a'))
t.print_schema()
t.execute().print()
t = t_env.from_data_stream(rows, col('b').alias('name'), col('a').alias('id'))
t.print_schema()
t.execute().print()
tuples = env.from_collection([(1, 'x')], type_info=Types.TUPLE([Types.INT(), Types.STRING()]))
t = t_env.from_data_stream(tuples, col('id'), col('name'))
t.print_schema()
t.execute().print()
