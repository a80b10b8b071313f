"""Top-N ordered by an event-time attribute (ROW_NUMBER() ... ORDER BY ts, rn <= 2): a
regular Top-N in STREAMING mode (the rowtime ranks as any timestamp, rows arriving out of
time order), and in BATCH mode."""
import os
import tempfile

from pyflink.table import EnvironmentSettings, TableEnvironment

directory = tempfile.mkdtemp()
with open(os.path.join(directory, "orders.csv"), "w") as f:
    f.write("\n".join(["1,alice,10,2024-04-15 10:00:05", "2,bob,5,2024-04-15 10:00:01",
                       "3,alice,30,2024-04-15 10:00:02", "4,carol,7,2024-04-15 10:00:09",
                       "5,bob,8,2024-04-15 10:00:07", "6,alice,20,2024-04-15 10:00:08"])
            + "\n")

for settings in (EnvironmentSettings.in_streaming_mode(), EnvironmentSettings.in_batch_mode()):
    t_env = TableEnvironment.create(settings)
    t_env.get_config().set("parallelism.default", "1")
    t_env.execute_sql("""CREATE TABLE orders (id INT, customer STRING, amount INT,
        ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH (
        'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')""" % directory)
    for order in ("ts", "ts DESC", "ts DESC, amount"):
        t_env.execute_sql("""SELECT id, customer, amount, ts, rn FROM (
            SELECT *, ROW_NUMBER() OVER (PARTITION BY customer ORDER BY %s) AS rn
            FROM orders) WHERE rn <= 2""" % order).print()
