"""CAST to STRING (and VARCHAR, CHAR) of every type as Flink writes it: a TIMESTAMP or
TIMESTAMP_LTZ with every fraction digit of its precision (TIMESTAMP(3) '... 00:00:00.500',
TIMESTAMP(0) none; an LTZ in ``table.local-time-zone``), ARRAY '[1, NULL]', MAP '{a=1}', ROW
'(1, x)', intervals '+2 00:00:00.000' and '-1-02', numbers, dates, booleans, bytes, nested
values; NULL stays NULL; BATCH, then STREAMING."""
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
    t_env.execute_sql("""
        SELECT CAST(ARRAY[1, 2, CAST(NULL AS INT)] AS STRING) AS arr,
               CAST(ARRAY[TRUE, FALSE] AS STRING) AS bools,
               CAST(ARRAY[CAST('2020-01-01 00:00:00' AS TIMESTAMP(3))] AS STRING) AS stamps,
               CAST(MAP['a', 1, 'b', CAST(NULL AS INT)] AS STRING) AS m,
               CAST(ROW(1, 'x', CAST(NULL AS DOUBLE)) AS STRING) AS r,
               CAST(ROW(TIMESTAMP '2020-01-01 00:00:00', 1.0E0, ARRAY['p']) AS STRING) AS nested,
               CAST(MAP['k', ARRAY[1, 2]] AS STRING) AS map_of_arrays,
               CAST(CAST(NULL AS ARRAY<INT>) AS STRING) AS null_array
        """).print()
    t_env.execute_sql("""
        SELECT CAST(INTERVAL '2' DAY AS STRING) AS days,
               CAST(INTERVAL '10:20' HOUR TO MINUTE AS STRING) AS hm,
               CAST(INTERVAL '-3 04:05:06.789' DAY TO SECOND AS STRING) AS negative_dts,
               CAST(INTERVAL '1-2' YEAR TO MONTH AS STRING) AS ym,
               CAST(INTERVAL '-1-2' YEAR TO MONTH AS STRING) AS negative_ym,
               CAST(INTERVAL '30' MINUTE AS STRING) AS minutes
        """).print()
    t_env.execute_sql("""
        SELECT CAST(1.5E10 AS STRING) AS big_double, CAST(0.1E0 AS STRING) AS tenth,
               CAST(CAST(1.25 AS FLOAT) AS STRING) AS f, CAST(1.50 AS STRING) AS dec_text,
               CAST(CAST(0 AS DECIMAL(5, 3)) AS STRING) AS dec_zero, CAST(TRUE AS STRING) AS b,
               CAST(DATE '2020-01-02' AS STRING) AS d, CAST(X'0AFF' AS STRING) AS bin,
               CAST(CAST(7 AS TINYINT) AS STRING) AS tiny
        """).print()
