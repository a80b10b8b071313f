"""Interval joins in the Table API: ``join(...).where(...)`` and ``left_outer_join`` with a
condition that bounds one side's rowtime by the other's; STREAMING and BATCH."""
# oracle: unordered
import os
import tempfile

from pyflink.table import EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col, lit

directory = tempfile.mkdtemp()
for name, lines in {
    "orders": ["1,apple,2024-04-15 08:00:00", "2,pear,2024-04-15 09:00:00",
               "3,plum,2024-04-15 10:00:00"],
    "shipments": ["1,2024-04-15 09:30:00", "2,2024-04-15 15:00:00",
                  "3,2024-04-15 11:00:00", "1,2024-04-15 08:00:00"],
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
    orders = t_env.from_path("orders")
    shipments = t_env.from_path("shipments")
    orders.join(shipments).where(
        (col("id") == col("order_id")) & (col("ship_ts") >= col("ts"))
        & (col("ship_ts") < col("ts") + lit(4).hours)
    ).select(col("id"), col("item"), col("ship_ts")).execute().print()
    orders.left_outer_join(
        shipments, (col("id") == col("order_id"))
        & col("ship_ts").between(col("ts") - lit(1).hours, col("ts") + lit(2).hours)
    ).select(col("id"), col("item"), col("ship_ts")).execute().print()
