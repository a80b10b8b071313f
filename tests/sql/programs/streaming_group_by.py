"""STREAMING GROUP BY in SQL: the printed changelog."""
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("""CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen',
    'number-of-rows' = '5', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',
    'fields.id.end' = '5')""")
t_env.execute_sql("SELECT id % 2 AS k, COUNT(*) AS n, SUM(id) AS s FROM src "
                  "GROUP BY id % 2").print()
t_env.execute_sql("SELECT COUNT(*) FROM src").print()
