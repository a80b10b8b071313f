"""CUMULATE window TVFs: windows of one max size growing by a step, aggregated per key (BATCH)
and over all rows (BATCH and STREAMING over a bounded table)."""
from pyflink.table import EnvironmentSettings, TableEnvironment

DDL = """CREATE TABLE clicks (user_name STRING, amount INT, ts TIMESTAMP(3),
    WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem',
    'path' = '{path}', 'format' = 'csv')"""
ROWS = ["alice,1,2024-01-01 10:00:01", "bob,2,2024-01-01 10:00:03", "alice,3,2024-01-01 10:00:04",
        "alice,4,2024-01-01 10:00:07", "bob,5,2024-01-01 10:00:11"]

QUERY = """SELECT user_name, window_start, window_end, SUM(amount) AS total, COUNT(*) AS n
    FROM TABLE(CUMULATE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND))
    GROUP BY user_name, window_start, window_end"""

if __name__ == "__main__":
    import os
    import tempfile

    directory = tempfile.mkdtemp()
    with open(os.path.join(directory, "clicks.csv"), "w") as f:
        f.write("\n".join(ROWS) + "\n")
    for settings in (EnvironmentSettings.in_batch_mode(), EnvironmentSettings.in_streaming_mode()):
        t_env = TableEnvironment.create(settings)
        t_env.get_config().set("parallelism.default", "1")
        t_env.execute_sql(DDL.format(path=directory))
        # per key in BATCH only: in STREAMING, keys firing together come in Flink's heap order
        if not settings.is_streaming_mode():
            t_env.execute_sql(QUERY).print()
        t_env.execute_sql("SELECT window_start, window_end, SUM(amount) AS total FROM TABLE("
                          "CUMULATE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '3' SECOND, "
                          "INTERVAL '9' SECOND)) GROUP BY window_start, window_end").print()
