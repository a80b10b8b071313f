"""Flink's "Timezone" page from Python: TIMESTAMP_LTZ values and functions under
``table.local-time-zone``, a window over a TIMESTAMP_LTZ rowtime (its window_start and
window_end in the local time zone, window_time a TIMESTAMP_LTZ), and daylight saving time."""
import os
import tempfile

from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.get_config().set("table.local-time-zone", "UTC")
t_env.execute_sql("""CREATE VIEW T1 AS SELECT TIMESTAMP '1970-01-01 00:00:01.001' AS ntz,
    TO_TIMESTAMP_LTZ(1704067204001, 3) AS ltz, DATE '1970-01-01' AS d""")
for zone in ("UTC", "Asia/Shanghai", "America/Los_Angeles"):
    t_env.get_config().set("table.local-time-zone", zone)
    print("--", zone)
    t_env.execute_sql("""SELECT ntz, ltz, CAST(ltz AS TIMESTAMP(3)) AS ltz_as_ntz,
        CAST(ntz AS TIMESTAMP_LTZ(3)) AS ntz_as_ltz, TO_TIMESTAMP_LTZ(0, 0) AS epoch,
        FROM_UNIXTIME(0) AS from_unix, UNIX_TIMESTAMP('1970-01-01 08:00:00') AS unix,
        CAST(d AS TIMESTAMP_LTZ(3)) AS d_as_ltz, DATE_FORMAT(ltz, 'yyyy-MM-dd HH:mm:ss') AS fmt,
        EXTRACT(HOUR FROM ltz) AS h
        FROM T1""").print()

directory = tempfile.mkdtemp()
with open(os.path.join(directory, "bids.csv"), "w") as f:
    f.write("1,4,1704067260000\n"    # 2024-01-01 00:01:00 UTC
            "2,5,1704067500000\n"    # 00:05:00
            "3,3,1704070800000\n"    # 01:00:00
            "4,2,1704074460000\n")   # 02:01:00
t_env.execute_sql("""
    CREATE TABLE bids (id INT, price INT, ts BIGINT,
        rowtime AS TO_TIMESTAMP_LTZ(ts, 3),
        WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND)
    WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')""" % directory)
for zone in ("UTC", "Asia/Shanghai"):
    t_env.get_config().set("table.local-time-zone", zone)
    print("--", zone)
    t_env.execute_sql("""SELECT window_start, window_end, window_time, SUM(price) AS total
        FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(rowtime), INTERVAL '1' HOUR))
        GROUP BY window_start, window_end, window_time""").print()
    t_env.execute_sql("""SELECT TUMBLE_START(rowtime, INTERVAL '1' DAY) AS s,
        TUMBLE_END(rowtime, INTERVAL '1' DAY) AS e, COUNT(*) AS n
        FROM bids GROUP BY TUMBLE(rowtime, INTERVAL '1' DAY)""").print()
    t_env.execute_sql("""SELECT window_start, window_end, COUNT(*) AS n
        FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(rowtime), INTERVAL '1' DAY))
        GROUP BY window_start, window_end""").print()
    t_env.execute_sql("""SELECT window_start, window_end, COUNT(*) AS n
        FROM TABLE(CUMULATE(TABLE bids, DESCRIPTOR(rowtime), INTERVAL '12' HOUR,
                            INTERVAL '1' DAY))
        GROUP BY window_start, window_end""").print()

t_env.get_config().set("table.local-time-zone", "America/Los_Angeles")
print("-- daylight saving")
t_env.execute_sql("""SELECT ts, CAST(TO_TIMESTAMP_LTZ(ts, 3) AS TIMESTAMP(3)) AS local_time
    FROM (VALUES (1710064800000), (1710068400000), (1710072000000)) AS t(ts)""").print()
