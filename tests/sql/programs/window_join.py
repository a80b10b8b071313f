"""Window joins: two TUMBLE window TVFs joined on window_start, window_end and a key (inner
and full outer); STREAMING (emitted as each window closes) and BATCH."""
# oracle: unordered
import os
import tempfile

from pyflink.table import EnvironmentSettings, TableEnvironment

directory = tempfile.mkdtemp()
for name, lines in {
    "lefts": ["2020-04-15 12:02:00,1,L1", "2020-04-15 12:06:00,2,L2",
              "2020-04-15 12:03:00,3,L3"],
    "rights": ["2020-04-15 12:01:00,2,R2", "2020-04-15 12:04:00,3,R3",
               "2020-04-15 12:05:00,4,R4"],
}.items():
    os.makedirs(os.path.join(directory, name))
    with open(os.path.join(directory, name, "part-0.csv"), "w") as f:
        f.write("\n".join(lines) + "\n")

for settings in (EnvironmentSettings.in_streaming_mode(), EnvironmentSettings.in_batch_mode()):
    t_env = TableEnvironment.create(settings)
    t_env.get_config().set("parallelism.default", "1")
    for name in ("lefts", "rights"):
        t_env.execute_sql("""CREATE TABLE %s (row_time TIMESTAMP(3), num INT, id STRING,
            WATERMARK FOR row_time AS row_time - INTERVAL '1' SECOND) WITH (
            'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')"""
                          % (name, os.path.join(directory, name)))
    t_env.execute_sql("""SELECT L.num AS L_num, L.id AS L_id, R.num AS R_num, R.id AS R_id,
        L.window_start, L.window_end
        FROM (SELECT * FROM TABLE(TUMBLE(TABLE lefts, DESCRIPTOR(row_time),
                                         INTERVAL '5' MINUTES))) L
        JOIN (SELECT * FROM TABLE(TUMBLE(TABLE rights, DESCRIPTOR(row_time),
                                         INTERVAL '5' MINUTES))) R
        ON L.num = R.num AND L.window_start = R.window_start
        AND L.window_end = R.window_end""").print()
    t_env.execute_sql("""SELECT L.num AS L_num, L.id AS L_id, R.num AS R_num, R.id AS R_id,
        COALESCE(L.window_start, R.window_start) AS window_start,
        COALESCE(L.window_end, R.window_end) AS window_end
        FROM (SELECT * FROM TABLE(TUMBLE(TABLE lefts, DESCRIPTOR(row_time),
                                         INTERVAL '5' MINUTES))) L
        FULL JOIN (SELECT * FROM TABLE(TUMBLE(TABLE rights, DESCRIPTOR(row_time),
                                              INTERVAL '5' MINUTES))) R
        ON L.num = R.num AND L.window_start = R.window_start
        AND L.window_end = R.window_end""").print()
