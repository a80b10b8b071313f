"""Window Top-N and window deduplication over a TUMBLE window TVF (no GROUP BY): per
window, the two highest bids, and each supplier's first bid; STREAMING (emitted as each
window closes) and BATCH."""
# oracle: unordered
import os
import tempfile

from pyflink.table import EnvironmentSettings, TableEnvironment

directory = tempfile.mkdtemp()
with open(os.path.join(directory, "bids.csv"), "w") as f:
    f.write("\n".join([
        "2024-04-15 08:05:00,A,4.0,s1", "2024-04-15 08:07:00,B,2.0,s2",
        "2024-04-15 08:09:00,C,5.0,s1", "2024-04-15 08:11:00,D,3.0,s3",
        "2024-04-15 08:13:00,E,1.0,s2", "2024-04-15 08:17:00,F,6.0,s3",
        "2024-04-15 08:19:00,G,7.0,s3", "2024-04-15 08:21:00,H,2.5,s1"]) + "\n")

for settings in (EnvironmentSettings.in_streaming_mode(), EnvironmentSettings.in_batch_mode()):
    t_env = TableEnvironment.create(settings)
    t_env.get_config().set("parallelism.default", "1")
    t_env.execute_sql("""CREATE TABLE bids (bidtime TIMESTAMP(3), item STRING, price DOUBLE,
        supplier STRING, WATERMARK FOR bidtime AS bidtime - INTERVAL '1' SECOND)
        WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')""" % directory)
    t_env.execute_sql("""SELECT * FROM (
        SELECT window_start, window_end, item, price, ROW_NUMBER() OVER (
            PARTITION BY window_start, window_end ORDER BY price DESC) AS rownum
        FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES)))
        WHERE rownum <= 2""").print()
    t_env.execute_sql("""SELECT window_start, window_end, supplier, item FROM (
        SELECT *, ROW_NUMBER() OVER (
            PARTITION BY window_start, window_end, supplier ORDER BY bidtime) AS rownum
        FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES)))
        WHERE rownum = 1""").print()
