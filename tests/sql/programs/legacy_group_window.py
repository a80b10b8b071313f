"""GROUP BY TUMBLE(ts, INTERVAL ...) with TUMBLE_START / TUMBLE_END over a table with a
watermark (BATCH)."""
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("""CREATE TABLE src (id BIGINT,
    ts AS CAST(TO_TIMESTAMP_LTZ(id * 1000, 3) AS TIMESTAMP(3)),
    WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'datagen',
    'number-of-rows' = '7', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',
    'fields.id.end' = '7')""")
t_env.execute_sql("""SELECT TUMBLE_START(ts, INTERVAL '3' SECOND) AS s,
    TUMBLE_END(ts, INTERVAL '3' SECOND) AS e, COUNT(*) AS n, SUM(id) AS total
    FROM src GROUP BY TUMBLE(ts, INTERVAL '3' SECOND)""").print()
