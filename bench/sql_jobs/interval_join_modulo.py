"""An interval join on a key of ten values, N rows a side, in STREAMING mode, into a
blackhole sink (bench/streaming_sql.py): a.x % 10 = b.x % 10 and b.ts within two seconds of
a.ts, ten rows a second: each row meets five (about 5N joined rows). A join on the key alone
pairs N^2/10 rows; the time bound is what keeps it small.

    python bench/sql_jobs/interval_join_modulo.py 1000000
"""
import sys
import time

from pystream.table import EnvironmentSettings, TableEnvironment

rows = int(sys.argv[1]) if len(sys.argv) > 1 else 1000000
started = time.perf_counter()
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
for name in ("a", "b"):
    t_env.execute_sql("""CREATE TABLE %s (x BIGINT, ts AS TO_TIMESTAMP_LTZ(x * 100, 3),
        WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
        WITH ('connector' = 'datagen', 'number-of-rows' = '%d', 'fields.x.kind' = 'sequence',
        'fields.x.start' = '1', 'fields.x.end' = '%d', 'rows-per-second' = '100000000')"""
        % (name, rows, rows))
t_env.execute_sql("CREATE TABLE sink (ax BIGINT, bx BIGINT) WITH ('connector' = 'blackhole')")
t_env.execute_sql("""INSERT INTO sink SELECT a.x, b.x FROM a, b
    WHERE a.x % 10 = b.x % 10
      AND b.ts BETWEEN a.ts - INTERVAL '2' SECOND AND a.ts + INTERVAL '2' SECOND""").wait()
print("interval_join_modulo rows=%d seconds=%.1f" % (rows, time.perf_counter() - started))
