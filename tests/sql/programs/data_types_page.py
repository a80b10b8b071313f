"""Flink's "Data Types" page: a CAST cuts a value to its target's length or precision
(VARCHAR(n) and VARBINARY(n) to n, CHAR(n) padded with spaces and BINARY(n) with zero bytes,
a TIMESTAMP(p) or TIME(p) truncated to p digits of a second, inside arrays, maps and rows
too); a TIME or TIMESTAMP literal has as many digits as it writes; a text with a fraction
cast to an integer; ROW(...) and (a, b) fields named EXPR$0, EXPR$1 in SQL, f0, f1 in the
Table API; TYPEOF(x, TRUE) in full; a FLOAT collected as its shortest decimal; BATCH, then
STREAMING."""
from pyflink.table import EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col, lit, row

QUERIES = {
    "strings": """
        SELECT CAST('abcdef' AS VARCHAR(3)) AS v3, CAST('ab' AS VARCHAR(3)) AS v3_short,
               CAST('abcdef' AS CHAR(3)) AS c3, CAST('ab' AS CHAR(4)) AS c4,
               CAST(12345 AS VARCHAR(3)) AS int_v3, CAST(TRUE AS VARCHAR(2)) AS bool_v2,
               CAST(CAST('abcdef' AS VARCHAR(10)) AS VARCHAR(2)) AS v10_v2,
               CAST(CAST(NULL AS STRING) AS VARCHAR(1)) AS null_v1""",
    "binaries": """
        SELECT CAST(X'010203' AS VARBINARY(2)) AS vb2, CAST(X'0102' AS BINARY(4)) AS b4,
               CAST(X'01020304' AS BINARY(2)) AS b2, CAST('ab' AS BINARY(3)) AS text_b3,
               CAST('abcd' AS VARBINARY(2)) AS text_vb2""",
    "timestamps": """
        SELECT CAST('2020-01-01 00:00:05.123456' AS TIMESTAMP(3)) AS p3,
               CAST('2020-01-01 00:00:05.9' AS TIMESTAMP(0)) AS p0,
               CAST('2020-01-01 00:00:05.987654' AS TIMESTAMP(1)) AS p1,
               CAST(TIMESTAMP '2020-01-01 00:00:05.123456' AS TIMESTAMP(3)) AS literal_p3,
               CAST(CAST('2020-01-01 23:59:59.999999' AS TIMESTAMP(6)) AS TIMESTAMP(0))
                   AS p6_p0,
               CAST(CAST('2020-01-01 00:00:05.5' AS TIMESTAMP(3)) AS TIMESTAMP(6)) AS p3_p6,
               TIMESTAMP '2020-01-01 00:00:05.12' AS literal_p2,
               TO_TIMESTAMP('2020-01-01 00:00:05.123456') AS to_ts""",
    "times": """
        SELECT TIME '12:34:56.789' AS t3, TIME '12:34:56' AS t0, TIME '10:00:00.12' AS t2,
               CAST('12:34:56.789' AS TIME(3)) AS cast_t3,
               CAST('12:34:56.789' AS TIME) AS cast_t0,
               CAST(TIME '12:34:56.789' AS TIME(1)) AS t3_t1""",
    "nested": """
        SELECT CAST(ARRAY['abcdef', 'x'] AS ARRAY<VARCHAR(2)>) AS arr,
               CAST(ROW('abcdef', 1) AS ROW<a VARCHAR(2), b INT>) AS r,
               CAST(MAP['abc', 'defg'] AS MAP<VARCHAR(1), VARCHAR(2)>) AS m,
               CAST(ARRAY[CAST('2020-01-01 00:00:05.987' AS TIMESTAMP(3))]
                    AS ARRAY<TIMESTAMP(0)>) AS stamps""",
    "numbers": """
        SELECT CAST('1.5' AS INT) AS text_int, CAST(' -2.9 ' AS BIGINT) AS text_bigint,
               CAST('7' AS TINYINT) AS text_tiny, TRY_CAST('x1.5' AS INT) AS bad_text,
               CAST(3.7 AS INT) AS dec_int, CAST(-3.7 AS INT) AS neg_dec_int,
               CAST(3.75 AS DECIMAL(3, 1)) AS rounded, CAST(1.5E0 AS DECIMAL(5, 2)) AS dbl_dec,
               CAST(0.1 AS FLOAT) AS f, CAST(86.4 AS FLOAT) AS f2""",
    "rows": """
        SELECT ROW(1, 'x') AS r, (2, 'y') AS t, ROW(a, b) AS named, ROW(a + 1, b) AS computed
        FROM (VALUES (1, 'x')) AS T(a, b)""",
    "typeof": """
        SELECT TYPEOF(CAST('a' AS STRING), TRUE) AS s, TYPEOF(CAST('a' AS BYTES), TRUE) AS b,
               TYPEOF(CAST(NULL AS TIMESTAMP_LTZ(6)), TRUE) AS ltz,
               TYPEOF(CAST(NULL AS ARRAY<STRING>), TRUE) AS arr,
               TYPEOF(ROW(1, 'x'), TRUE) AS r, TYPEOF(CAST('a' AS STRING)) AS short,
               TYPEOF(TO_TIMESTAMP_LTZ(0, 3)) AS to_ltz,
               TYPEOF(TO_TIMESTAMP('2020-01-01 00:00:05')) AS to_ts,
               TYPEOF(CURRENT_TIME) AS cur_time, TYPEOF(LOCALTIME) AS local_time,
               TYPEOF(NOW(), TRUE) AS now_full""",
}

for settings in (EnvironmentSettings.in_batch_mode(), EnvironmentSettings.in_streaming_mode()):
    t_env = TableEnvironment.create(settings)
    t_env.get_config().set("parallelism.default", "1")
    t_env.get_config().set("table.local-time-zone", "UTC")
    for name, query in QUERIES.items():
        print("--", name)
        table = t_env.sql_query(query)
        table.print_schema()
        table.execute().print()
    print("-- collected")
    for result in t_env.sql_query(QUERIES["numbers"]).execute().collect():
        print(result)
    for result in t_env.sql_query(QUERIES["binaries"]).execute().collect():
        print(result)
    print("-- Table API rows")
    t_env.from_elements([(1, "x")], ["a", "b"]).select(
        row(col("a"), lit(1)).alias("r"), row(col("a"), col("b")).alias("q")).print_schema()
