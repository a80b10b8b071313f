"""select / where / filter / add_columns / add_or_replace_columns / rename_columns /
drop_columns / alias / distinct, printed in BATCH mode."""
from pyflink.table import EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col, lit

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t = t_env.from_elements([(1, 'Hi', 10), (2, 'Hello', 20), (3, 'Hi', 30)], ['a', 'b', 'c'])
t.select(col('a'), col('b').upper_case, (col('c') + 1).alias('c1')).execute().print()
t.where(col('a') > 1).filter(col('b') == 'Hi').execute().print()
t.add_columns((col('a') * 2).alias('d')).execute().print()
t.add_or_replace_columns((col('c') / 10).alias('c')).execute().print()
t.rename_columns(col('a').alias('x'), col('b').alias('y')).execute().print()
t.drop_columns(col('b')).execute().print()
t.alias('p', 'q', 'r').select(col('p'), col('r')).execute().print()
t.select(col('b')).distinct().order_by(col('b')).execute().print()
t.select(col('a'), lit(5), lit('x'), col('a') + lit(2)).execute().print()
