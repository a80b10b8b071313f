"""Flink's BITMAP functions (32-bit RoaringBitmaps; values ordered as unsigned integers) in
SQL and the Table API: building, AND/OR/XOR/ANDNOT, cardinality, arrays, strings, the
RoaringBitmap bytes and back (run, array and bitmap containers), the aggregates as STREAMING
changelogs (PyFlink 2.3's BATCH mode cannot compile BITMAP_BUILD_AGG), a bitmap's text cut
after 524,288 characters; a bitmap column printed as it is."""
import hashlib

from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import array, col, lit

ROWS = [('a', 1, [1, 2, 3]), ('a', 3, [3, 4]), ('a', -1, None), ('b', 7, [7, -2]),
        ('b', None, []), ('c', None, None), ('b', 7, [0, 70000, 7])]
SCHEMA = DataTypes.ROW([DataTypes.FIELD('k', DataTypes.STRING()),
                        DataTypes.FIELD('v', DataTypes.INT()),
                        DataTypes.FIELD('xs', DataTypes.ARRAY(DataTypes.INT()))])
t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t = t_env.from_elements(ROWS, SCHEMA)
t_env.create_temporary_view('t', t)
t_env.execute_sql("""
    SELECT k, v, BITMAP_TO_STRING(BITMAP_BUILD(xs)) AS s,
           BITMAP_CARDINALITY(BITMAP_BUILD(xs)) AS n,
           BITMAP_TO_ARRAY(BITMAP_OR(BITMAP_BUILD(xs), BITMAP_BUILD(ARRAY[v, -5]))) AS o,
           BITMAP_TO_STRING(BITMAP_AND(BITMAP_BUILD(xs), BITMAP_BUILD(ARRAY[3, 7]))) AS a,
           BITMAP_TO_STRING(BITMAP_XOR(BITMAP_BUILD(xs), BITMAP_BUILD(ARRAY[3, 7]))) AS x,
           BITMAP_TO_STRING(BITMAP_ANDNOT(BITMAP_BUILD(xs), BITMAP_BUILD(ARRAY[3, 7]))) AS d,
           BITMAP_TO_BYTES(BITMAP_BUILD(xs)) AS b,
           BITMAP_TO_STRING(BITMAP_FROM_BYTES(BITMAP_TO_BYTES(BITMAP_BUILD(xs)))) AS back
    FROM t""").print()
t_env.execute_sql("""
    SELECT BITMAP_TO_STRING(BITMAP_BUILD(ARRAY[1, 2, 65536, 131072, -1, 100000])) AS spread,
           BITMAP_TO_BYTES(BITMAP_BUILD(ARRAY[1, 2, 65536, 131072, -1, 100000])) AS spread_bytes,
           BITMAP_CARDINALITY(BITMAP_FROM_BYTES(BITMAP_TO_BYTES(BITMAP_BUILD(
               ARRAY[1, 2, 65536, 131072, -1, 100000])))) AS spread_back""").print()
t.select(col('k'), col('xs').bitmap_build().bitmap_to_string().alias('s'),
         col('xs').bitmap_build().bitmap_or(array(lit(5)).bitmap_build()).bitmap_to_array().alias('o'),
         col('xs').bitmap_build().bitmap_and(array(lit(3)).bitmap_build())
         .bitmap_cardinality().alias('n'),
         col('xs').bitmap_build().bitmap_xor(array(lit(3)).bitmap_build()).bitmap_to_string().alias('x'),
         col('xs').bitmap_build().bitmap_andnot(array(lit(3)).bitmap_build())
         .bitmap_to_string().alias('d'),
         col('xs').bitmap_build().bitmap_to_bytes().bitmap_from_bytes()
         .bitmap_to_string().alias('back')).execute().print()
print(t_env.sql_query("SELECT BITMAP_BUILD(xs) AS bm FROM t").get_schema())
t_env.execute_sql("SELECT k, BITMAP_BUILD(xs) AS bm FROM t").print()

s_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
s_env.get_config().set("parallelism.default", "1")
s_env.create_temporary_view('t', s_env.from_elements(ROWS, SCHEMA))
s_env.execute_sql("""
    SELECT k, BITMAP_TO_STRING(BITMAP_BUILD_AGG(v)) AS built,
           BITMAP_BUILD_CARDINALITY_AGG(v) AS built_n,
           BITMAP_TO_STRING(BITMAP_OR_AGG(BITMAP_BUILD(xs))) AS ored,
           BITMAP_OR_CARDINALITY_AGG(BITMAP_BUILD(xs)) AS ored_n,
           BITMAP_TO_STRING(BITMAP_AND_AGG(BITMAP_BUILD(xs))) AS anded,
           BITMAP_AND_CARDINALITY_AGG(BITMAP_BUILD(xs)) AS anded_n,
           BITMAP_TO_STRING(BITMAP_XOR_AGG(BITMAP_BUILD(xs))) AS xored,
           BITMAP_XOR_CARDINALITY_AGG(BITMAP_BUILD(xs)) AS xored_n
    FROM t GROUP BY k""").print()
s_env.from_path("t").group_by(col('k')).select(
    col('k'), col('v').bitmap_build_agg().bitmap_to_string().alias('built'),
    col('v').bitmap_build_cardinality_agg().alias('built_n'),
    col('xs').bitmap_build().bitmap_or_agg().bitmap_to_string().alias('ored'),
    col('xs').bitmap_build().bitmap_or_cardinality_agg().alias('ored_n'),
    col('xs').bitmap_build().bitmap_and_agg().bitmap_to_string().alias('anded'),
    col('xs').bitmap_build().bitmap_and_cardinality_agg().alias('anded_n'),
    col('xs').bitmap_build().bitmap_xor_agg().bitmap_to_string().alias('xored'),
    col('xs').bitmap_build().bitmap_xor_cardinality_agg().alias('xored_n')).execute().print()

# a bitmap of 100,000 values: its text cut after 524,288 characters; the bytes of array,
# bitmap and run containers (printed as their MD5)
s_env.execute_sql("""
    CREATE TABLE seq (n INT, ts AS TO_TIMESTAMP_LTZ(n, 3), WATERMARK FOR ts AS ts) WITH (
        'connector' = 'datagen', 'number-of-rows' = '100000', 'fields.n.kind' = 'sequence',
        'fields.n.start' = '0', 'fields.n.end' = '99999')""")
for row in s_env.execute_sql("""
        SELECT CHAR_LENGTH(BITMAP_TO_STRING(BITMAP_BUILD_AGG(n))) AS len,
               RIGHT(BITMAP_TO_STRING(BITMAP_BUILD_AGG(n)), 12) AS tail,
               BITMAP_TO_BYTES(BITMAP_BUILD_AGG(CASE WHEN n < 5000 THEN n END)) AS runs,
               BITMAP_TO_BYTES(BITMAP_BUILD_AGG(CASE WHEN n % 3 = 0 THEN -n END)) AS sparse,
               BITMAP_CARDINALITY(BITMAP_FROM_BYTES(BITMAP_TO_BYTES(
                   BITMAP_BUILD_AGG(CASE WHEN n % 3 = 0 THEN -n END)))) AS back
        FROM TABLE(TUMBLE(TABLE seq, DESCRIPTOR(ts), INTERVAL '1' DAY))
        GROUP BY window_start, window_end""").collect():
    print(row[0], row[1], [(len(b), hashlib.md5(bytes(b)).hexdigest()) for b in row[2:4]], row[4])
