"""SELECT with WHERE, GROUP BY / HAVING, ORDER BY / LIMIT, CASE, CAST, VALUES (BATCH)."""
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("""CREATE TEMPORARY VIEW orders AS SELECT * FROM (VALUES
    (1, 'apple', 3), (2, 'pear', 5), (3, 'apple', 4), (4, 'fig', 1)) AS T(id, fruit, qty)""")
t_env.execute_sql("SELECT * FROM orders WHERE qty > 2 ORDER BY id").print()
t_env.execute_sql("SELECT fruit, SUM(qty) AS total, COUNT(*) AS n FROM orders GROUP BY fruit "
                  "HAVING SUM(qty) > 1 ORDER BY fruit").print()
t_env.execute_sql("SELECT id, CASE WHEN qty > 3 THEN 'many' ELSE 'few' END AS amount, "
                  "CAST(qty AS STRING) AS s, qty / 2 AS half, qty * 1.5 AS more "
                  "FROM orders ORDER BY id LIMIT 3").print()
t_env.execute_sql("SELECT 1 + 1, 'it''s', 7 / 2, 1.5, CAST(TRUE AS STRING)").print()
print(t_env.sql_query("SELECT fruit, qty FROM orders").get_schema())
