"""CAST of a TIMESTAMP, a TIMESTAMP_LTZ and a TIME to STRING (and CHAR) writes every
fraction digit of the type's precision (TIMESTAMP(3) '... 00:00:00.500', TIMESTAMP(0) none),
a TIMESTAMP_LTZ in ``table.local-time-zone``; NULL stays NULL; BATCH, then STREAMING."""
from pyflink.table import EnvironmentSettings, TableEnvironment

for settings in (EnvironmentSettings.in_batch_mode(), EnvironmentSettings.in_streaming_mode()):
    t_env = TableEnvironment.create(settings)
    t_env.get_config().set("parallelism.default", "1")
    t_env.get_config().set("table.local-time-zone", "Asia/Tokyo")
    t_env.execute_sql("""
        SELECT CAST(TO_TIMESTAMP_LTZ(0, 3) AS STRING) AS ltz0,
               CAST(TO_TIMESTAMP_LTZ(1500, 3) AS STRING) AS ltz_half,
               CAST(TIMESTAMP '2020-01-01 00:00:00' AS STRING) AS ts_p0,
               CAST(CAST('2020-01-01 00:00:00.5' AS TIMESTAMP(3)) AS STRING) AS ts_p3,
               CAST(CAST('2020-01-01 00:00:00.123456' AS TIMESTAMP(6)) AS STRING) AS ts_p6,
               CAST(CAST('2020-01-01 23:59:59.9' AS TIMESTAMP(1)) AS STRING) AS ts_p1,
               CAST(CAST(NULL AS TIMESTAMP(3)) AS STRING) AS ts_null,
               CAST(TIME '10:00:00' AS STRING) AS t0,
               CONCAT('at ', CAST(CAST('2020-01-01 00:00:00' AS TIMESTAMP(3)) AS STRING))
                   AS concat_p3
        """).print()
    t_env.execute_sql("""
        SELECT id, CAST(ts AS STRING) AS ts_text, CAST(ts AS VARCHAR(30)) AS ts_varchar
        FROM (VALUES (1, CAST('2024-02-29 12:34:56.789' AS TIMESTAMP(3))),
                     (2, CAST('2024-03-01 00:00:00' AS TIMESTAMP(3)))) AS T(id, ts)
        """).print()
