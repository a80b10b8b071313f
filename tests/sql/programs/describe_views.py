"""DESCRIBE of a view (created in SQL and from a Table) and of a table with a computed column,
a metadata-less time attribute and a watermark."""
from pyflink.table import EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.execute_sql("""CREATE TABLE orders (id BIGINT, price DOUBLE, ts TIMESTAMP(3),
    total AS price * 2, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND,
    PRIMARY KEY (id) NOT ENFORCED)
    WITH ('connector' = 'datagen', 'number-of-rows' = '1')""")
t_env.execute_sql("CREATE VIEW cheap AS SELECT id, price, ts FROM orders WHERE price < 10")
t_env.execute_sql("DESCRIBE orders").print()
t_env.execute_sql("DESCRIBE cheap").print()
t_env.create_temporary_view("from_table", t_env.from_path("orders").select(col("id"), col("total")))
t_env.execute_sql("DESCRIBE from_table").print()
