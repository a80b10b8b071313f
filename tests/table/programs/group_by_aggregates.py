"""group_by with count/sum/avg/min/max (AVG of INT is INT), names of unaliased aggregates."""
# oracle: unordered
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t = t_env.from_elements([(1, 'a', 3), (2, 'b', 4), (3, 'a', 4), (4, 'b', 5), (5, 'a', 6)],
                        DataTypes.ROW([DataTypes.FIELD('id', DataTypes.INT()),
                                       DataTypes.FIELD('k', DataTypes.STRING()),
                                       DataTypes.FIELD('v', DataTypes.INT())]))
result = t.group_by(col('k')).select(col('k'), col('v').count, col('v').sum, col('v').avg,
                                     col('v').min, col('v').max)
result.print_schema()
result.execute().print()
t.select(col('v').sum.alias('total'), col('id').count.alias('n')).execute().print()
