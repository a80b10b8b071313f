"""Top-N over N generated rows in STREAMING mode, into a blackhole sink (bench/streaming_sql.py).

    python bench/sql_jobs/top_n.py 1000000
"""
import sys
import time

from pystream.table import EnvironmentSettings, TableEnvironment

rows = int(sys.argv[1]) if len(sys.argv) > 1 else 1000000
started = time.perf_counter()
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.execute_sql("""CREATE TABLE sales (id BIGINT, shop AS id %% 100,
    amount AS (id * 7919) %% 100003) WITH ('connector' = 'datagen',
    'number-of-rows' = '%d', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',
    'fields.id.end' = '%d', 'rows-per-second' = '100000000')""" % (rows, rows))
t_env.execute_sql("CREATE TABLE sink (shop BIGINT, id BIGINT, amount BIGINT) "
                  "WITH ('connector' = 'blackhole')")
t_env.execute_sql("""INSERT INTO sink SELECT shop, id, amount FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY shop ORDER BY amount DESC) AS rn FROM sales)
    WHERE rn <= 3""").wait()
print("top_n rows=%d seconds=%.1f" % (rows, time.perf_counter() - started))
