"""STREAMING group-by: the changelog printed and collected record by record (+I, -U, +U)."""
from pyflink.table import EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t = t_env.from_elements([(1, 'a', 3), (2, 'b', 4), (3, 'a', 4), (4, 'a', 0), (5, 'b', 1)],
                        ['id', 'k', 'v'])
totals = t.group_by(col('k')).select(col('k'), col('v').sum.alias('total'),
                                     col('id').count.alias('n'))
totals.execute().print()
with totals.execute().collect() as rows:
    for row in rows:
        print(row.get_row_kind(), row)
t.where(col('v') > 2).execute().print()
t.where(col('v') > 100).execute().print()
