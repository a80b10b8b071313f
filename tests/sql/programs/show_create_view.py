"""SHOW CREATE VIEW: the view's columns and its query as Flink expands it (names qualified,
`*` spelled out, aliases kept, joins, GROUP BY / HAVING / ORDER BY one per line)."""
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.execute_sql("""CREATE TABLE orders (id INT, item STRING, price DECIMAL(10, 2))
    WITH ('connector' = 'datagen')""")
t_env.execute_sql("CREATE VIEW big_orders AS SELECT id, item FROM orders WHERE price > 10")
t_env.execute_sql("SHOW CREATE VIEW big_orders").print()
for query in ["SELECT * FROM orders",
              "SELECT item, COUNT(*) AS n FROM orders o GROUP BY item HAVING COUNT(*) > 1",
              "SELECT o.id, UPPER(o.item) AS up FROM orders o JOIN big_orders b "
              "ON o.id = b.id ORDER BY o.id"]:
    t_env.execute_sql("CREATE TEMPORARY VIEW v AS " + query)
    t_env.execute_sql("SHOW CREATE VIEW v").print()
    t_env.execute_sql("DROP TEMPORARY VIEW v")
