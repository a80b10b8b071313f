"""Windows over window aggregates, as Flink's docs teach them: window Top-N after a window
aggregation (the top 2 suppliers by sum per window), a cascaded window aggregate (GROUP BY
the inner aggregate's window_start and window_end), and a window join of two window
aggregates on window_start and window_end; STREAMING (each window once, when it closes:
no -U/+U) and BATCH."""
# oracle: unordered
import os
import tempfile

from pyflink.table import EnvironmentSettings, TableEnvironment

directory = tempfile.mkdtemp()
with open(os.path.join(directory, "bids.csv"), "w") as f:
    f.write("\n".join([
        "2020-04-15 08:05:00,4.00,C,supplier1", "2020-04-15 08:07:00,2.00,A,supplier1",
        "2020-04-15 08:09:00,5.00,D,supplier2", "2020-04-15 08:11:00,3.00,B,supplier2",
        "2020-04-15 08:13:00,1.00,E,supplier1", "2020-04-15 08:17:00,6.00,F,supplier2",
        "2020-04-15 08:19:00,7.00,G,supplier3", "2020-04-15 08:21:00,2.50,H,supplier3",
        "2020-04-15 08:23:00,1.50,I,supplier1", "2020-04-15 08:25:00,9.00,J,supplier4"]) + "\n")

for settings in (EnvironmentSettings.in_streaming_mode(), EnvironmentSettings.in_batch_mode()):
    t_env = TableEnvironment.create(settings)
    t_env.get_config().set("parallelism.default", "1")
    t_env.execute_sql("""CREATE TABLE Bid (bidtime TIMESTAMP(3), price DECIMAL(10, 2),
        item STRING, supplier_id STRING,
        WATERMARK FOR bidtime AS bidtime - INTERVAL '1' SECOND)
        WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')""" % directory)
    t_env.execute_sql("""SELECT * FROM (
        SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end
                                     ORDER BY price DESC) AS rownum
        FROM (SELECT window_start, window_end, supplier_id, SUM(price) AS price,
                     COUNT(*) AS cnt
              FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
              GROUP BY window_start, window_end, supplier_id))
        WHERE rownum <= 2""").print()
    t_env.execute_sql("""SELECT starttime, endtime, MAX(total) AS best, COUNT(*) AS suppliers
        FROM (SELECT window_start AS starttime, window_end AS endtime, supplier_id,
                     SUM(price) AS total
              FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
              GROUP BY window_start, window_end, supplier_id)
        GROUP BY starttime, endtime""").print()
    t_env.execute_sql("""SELECT L.window_start, L.window_end, L.supplier_id, L.n, R.best
        FROM (SELECT window_start, window_end, supplier_id, COUNT(*) AS n
              FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
              GROUP BY window_start, window_end, supplier_id) L
        JOIN (SELECT window_start, window_end, MAX(price) AS best
              FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
              GROUP BY window_start, window_end) R
        ON L.window_start = R.window_start AND L.window_end = R.window_end""").print()
