"""IN / NOT IN / scalar sub-queries and UNION / INTERSECT / EXCEPT in SQL (BATCH)."""
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("CREATE TEMPORARY VIEW a AS SELECT * FROM (VALUES (1), (2), (3)) AS T(x)")
t_env.execute_sql("CREATE TEMPORARY VIEW b AS SELECT * FROM (VALUES (2), (3), (4)) AS T(y)")
t_env.execute_sql("SELECT x FROM a WHERE x IN (SELECT y FROM b) ORDER BY x").print()
t_env.execute_sql("SELECT x FROM a WHERE x NOT IN (SELECT y FROM b)").print()
t_env.execute_sql("SELECT x, (SELECT MAX(y) FROM b) AS m FROM a ORDER BY x").print()
t_env.execute_sql("SELECT x FROM a UNION SELECT y FROM b ORDER BY x").print()
t_env.execute_sql("SELECT x FROM a UNION ALL SELECT y FROM b ORDER BY x").print()
t_env.execute_sql("SELECT x FROM a INTERSECT SELECT y FROM b ORDER BY x").print()
t_env.execute_sql("SELECT x FROM a EXCEPT SELECT y FROM b").print()
