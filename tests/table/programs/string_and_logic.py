"""String functions, conditions, between / in_ / is_null / if_then_else."""
from pyflink.table import EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col, if_then_else

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t = t_env.from_elements([(1, 'Hello World', None), (2, '  pad  ', 'x'), (3, 'abc', 'y')],
                        ['id', 's', 'n'])
t.select(col('s').upper_case, col('s').lower_case, col('s').char_length, col('s').trim(),
         col('s').substring(2, 3), col('s').like('%o%')).execute().print()
t.select(col('id').between(2, 3), col('id').in_(1, 3), col('n').is_null, col('n').is_not_null,
         if_then_else(col('id') > 1, 'big', 'small'), (col('id') > 1) & (col('id') < 3),
         (col('id') == 1) | (col('id') == 3), ~(col('id') == 1)).execute().print()
