"""order_by / offset / fetch / limit and union / union_all / intersect / minus (BATCH)."""
from pyflink.table import EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
a = t_env.from_elements([(1,), (2,), (3,), (3,)], ['x'])
b = t_env.from_elements([(3,), (4,)], ['x'])
a.order_by(col('x').desc).execute().print()
a.order_by(col('x')).offset(1).fetch(2).execute().print()
a.order_by(col('x')).limit(2).execute().print()
a.union(b).order_by(col('x')).execute().print()
a.union_all(b).order_by(col('x')).execute().print()
a.intersect(b).execute().print()
a.minus(b).order_by(col('x')).execute().print()
