"""Window table functions: TUMBLE and HOP aggregated by window_start, window_end (BATCH and
STREAMING)."""
# oracle: unordered
from pyflink.table import EnvironmentSettings, TableEnvironment

for settings in (EnvironmentSettings.in_batch_mode(), EnvironmentSettings.in_streaming_mode()):
    t_env = TableEnvironment.create(settings)
    t_env.get_config().set("parallelism.default", "1")
    t_env.execute_sql("""CREATE TABLE bids (id BIGINT,
        ts AS CAST(TO_TIMESTAMP_LTZ(id * 1000, 3) AS TIMESTAMP(3)),
        WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'datagen',
        'number-of-rows' = '7', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',
        'fields.id.end' = '7')""")
    t_env.execute_sql("""SELECT window_start, window_end, COUNT(*) AS n, SUM(id) AS total
        FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '3' SECONDS))
        GROUP BY window_start, window_end""").print()
    t_env.execute_sql("""SELECT window_start, window_end, MAX(id) AS top
        FROM TABLE(HOP(TABLE bids, DESCRIPTOR(ts), INTERVAL '2' SECONDS, INTERVAL '4' SECONDS))
        GROUP BY window_start, window_end""").print()
