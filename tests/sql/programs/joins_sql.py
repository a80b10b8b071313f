"""Joins in SQL (BATCH): inner with a clashing column name, left join."""
# oracle: unordered
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("CREATE TEMPORARY VIEW l AS "
                  "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS T(id, v)")
t_env.execute_sql("CREATE TEMPORARY VIEW r AS "
                  "SELECT * FROM (VALUES (1, 'x'), (3, 'y')) AS T(id, w)")
t_env.execute_sql("SELECT * FROM l JOIN r ON l.id = r.id").print()
t_env.execute_sql("SELECT l.id, v, w FROM l LEFT JOIN r ON l.id = r.id").print()
