"""An interval join of N orders with N shipments in STREAMING mode, into a blackhole sink
(bench/streaming_sql.py): shipment i is (i * 7919 % 7) hours after order i, and the join keeps
those within 4 hours.

    python bench/sql_jobs/interval_join.py 1000000
"""
import sys
import time

from pystream.table import EnvironmentSettings, TableEnvironment

rows = int(sys.argv[1]) if len(sys.argv) > 1 else 1000000
started = time.perf_counter()
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.execute_sql("""CREATE TABLE orders (id BIGINT,
    ts AS TO_TIMESTAMP_LTZ(id * 1000, 3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
    WITH ('connector' = 'datagen', 'number-of-rows' = '%d', 'fields.id.kind' = 'sequence',
    'fields.id.start' = '1', 'fields.id.end' = '%d', 'rows-per-second' = '100000000')"""
    % (rows, rows))
t_env.execute_sql("""CREATE TABLE shipments (order_id BIGINT,
    ship_ts AS TO_TIMESTAMP_LTZ(order_id * 1000 + (order_id * 7919 %% 7) * 3600000, 3),
    WATERMARK FOR ship_ts AS ship_ts - INTERVAL '1' SECOND)
    WITH ('connector' = 'datagen', 'number-of-rows' = '%d', 'fields.order_id.kind' = 'sequence',
    'fields.order_id.start' = '1', 'fields.order_id.end' = '%d',
    'rows-per-second' = '100000000')""" % (rows, rows))
t_env.execute_sql("CREATE TABLE sink (id BIGINT, ts TIMESTAMP_LTZ(3), ship_ts TIMESTAMP_LTZ(3)) "
                  "WITH ('connector' = 'blackhole')")
t_env.execute_sql("""INSERT INTO sink SELECT o.id, CAST(o.ts AS TIMESTAMP_LTZ(3)), s.ship_ts
    FROM orders o, shipments s
    WHERE o.id = s.order_id AND s.ship_ts BETWEEN o.ts AND o.ts + INTERVAL '4' HOUR""").wait()
print("interval_join rows=%d seconds=%.1f" % (rows, time.perf_counter() - started))
