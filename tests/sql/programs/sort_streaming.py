"""ORDER BY in STREAMING mode: by the rowtime (Flink's temporal sort: rows come out in time
order as the watermark passes them, a row behind the watermark is dropped), by the rowtime
then other keys, and ORDER BY ... LIMIT n [OFFSET m] of any keys (a Top-N over all rows,
updating; with an offset, the changes of ranks m + 1 to m + n, by rank)."""
import os
import tempfile

from pyflink.table import EnvironmentSettings, TableEnvironment

directory = tempfile.mkdtemp()
with open(os.path.join(directory, 'part-0.csv'), 'w') as f:
    f.write('a,1,2024-01-01 00:00:03\n'
            'b,5,2024-01-01 00:00:01\n'
            'a,8,2024-01-01 00:00:04\n'
            'c,3,2024-01-01 00:00:04\n'
            'b,7,2024-01-01 00:00:10\n'
            'a,9,2024-01-01 00:00:07\n'  # behind the watermark (00:00:09): late
            'c,2,2024-01-01 00:00:12\n'
            'a,6,2024-01-01 00:00:11\n')

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set('parallelism.default', '1')
t_env.execute_sql("""CREATE TABLE clicks (k STRING, v BIGINT, ts TIMESTAMP(3),
    WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem',
    'path' = '%s', 'format' = 'csv')""" % directory)
for query in ("SELECT k, v, ts FROM clicks ORDER BY ts",
              "SELECT k, v, ts FROM clicks ORDER BY ts, v DESC",
              "SELECT k, v FROM clicks ORDER BY v DESC LIMIT 3",
              "SELECT k, v, ts FROM clicks ORDER BY ts LIMIT 2",
              "SELECT k, v FROM clicks ORDER BY v DESC LIMIT 2 OFFSET 1",
              "SELECT k, v FROM clicks ORDER BY v DESC OFFSET 1 ROWS FETCH NEXT 3 ROWS ONLY"):
    print(query)
    t_env.execute_sql(query).print()
