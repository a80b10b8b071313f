"""SHOW CREATE VIEW: the view's columns and its query as Flink expands it (names qualified)."""
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.execute_sql("""CREATE TABLE orders (id INT, item STRING, price DECIMAL(10, 2))
    WITH ('connector' = 'datagen')""")
t_env.execute_sql("CREATE VIEW big_orders AS SELECT id, item FROM orders WHERE price > 10")
t_env.execute_sql("SHOW CREATE VIEW big_orders").print()
