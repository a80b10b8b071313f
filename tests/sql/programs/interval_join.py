"""Interval joins: orders with the shipments made within four hours of the order (inner),
and every order with its shipments or NULLs (left outer); STREAMING and BATCH."""
# oracle: unordered
import os
import tempfile

from pyflink.table import EnvironmentSettings, TableEnvironment

directory = tempfile.mkdtemp()
for name, lines in {
    "orders": ["1,apple,2024-04-15 08:00:00", "2,pear,2024-04-15 09:00:00",
               "3,plum,2024-04-15 10:00:00", "4,fig,2024-04-15 11:00:00"],
    "shipments": ["1,2024-04-15 09:30:00", "2,2024-04-15 15:00:00",
                  "3,2024-04-15 11:00:00", "3,2024-04-15 13:59:00",
                  "1,2024-04-15 16:00:00"],
}.items():
    os.makedirs(os.path.join(directory, name))
    with open(os.path.join(directory, name, "part-0.csv"), "w") as f:
        f.write("\n".join(lines) + "\n")

for settings in (EnvironmentSettings.in_streaming_mode(), EnvironmentSettings.in_batch_mode()):
    t_env = TableEnvironment.create(settings)
    t_env.get_config().set("parallelism.default", "1")
    t_env.execute_sql("""CREATE TABLE orders (id INT, item STRING, ts TIMESTAMP(3),
        WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem',
        'path' = '%s', 'format' = 'csv')""" % os.path.join(directory, "orders"))
    t_env.execute_sql("""CREATE TABLE shipments (order_id INT, ship_ts TIMESTAMP(3),
        WATERMARK FOR ship_ts AS ship_ts - INTERVAL '1' SECOND) WITH (
        'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')"""
                      % os.path.join(directory, "shipments"))
    t_env.execute_sql("""SELECT o.id, o.item, o.ts, s.ship_ts FROM orders o, shipments s
        WHERE o.id = s.order_id
          AND s.ship_ts BETWEEN o.ts AND o.ts + INTERVAL '4' HOUR""").print()
    t_env.execute_sql("""SELECT o.id, o.item, s.ship_ts FROM orders o LEFT JOIN shipments s
        ON o.id = s.order_id AND s.ship_ts >= o.ts
        AND s.ship_ts < o.ts + INTERVAL '4' HOUR""").print()
    t_env.execute_sql("""SELECT s.order_id, o.item, s.ship_ts FROM orders o
        RIGHT JOIN shipments s ON o.id = s.order_id
        AND o.ts BETWEEN s.ship_ts - INTERVAL '2' HOUR AND s.ship_ts""").print()
