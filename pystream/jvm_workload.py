"""The jobs a fresh driver JVM runs while ``pystream jvm-archive`` records the classes it
loads (``pystream.jvm_archive``): small ones of the kinds users run, each through the code
paths a real job takes (a keyed STREAMING job with state, Python functions, SQL aggregates
and windows, a batch join, files)."""
from __future__ import annotations

import os
import tempfile

from pystream import session
from pystream.common import Types
from pystream.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pystream.table import EnvironmentSettings, StreamTableEnvironment, TableEnvironment

JVM_EXIT_TIMEOUT = 120.0  # the JVM writes the archive as it exits


def run_workload(directory: str) -> None:
    """Run the jobs, writing their files under ``directory``."""
    for mode in (RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH):
        env = StreamExecutionEnvironment.get_execution_environment()
        env.set_runtime_mode(mode)
        words = env.from_collection(["a b", "b c", "c a"], Types.STRING())
        counts = (words.flat_map(lambda line: [(w, 1) for w in line.split()],
                                 Types.TUPLE([Types.STRING(), Types.INT()]))
                  .key_by(lambda pair: pair[0])
                  .reduce(lambda a, b: (a[0], a[1] + b[1])))
        list(counts.execute_and_collect())
    t_env = StreamTableEnvironment.create(StreamExecutionEnvironment.get_execution_environment())
    path = os.path.join(directory, "out")
    t_env.execute_sql("""
        CREATE TABLE events (k INT, v BIGINT, ts AS TO_TIMESTAMP_LTZ(v * 1000, 3),
                             WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
        WITH ('connector' = 'datagen', 'number-of-rows' = '50',
              'fields.k.min' = '0', 'fields.k.max' = '3',
              'fields.v.min' = '0', 'fields.v.max' = '100')""")
    t_env.execute_sql("CREATE TABLE out (k INT, n BIGINT) WITH ('connector' = 'filesystem', "
                      "'path' = '%s', 'format' = 'csv')" % path).wait()
    t_env.execute_sql("""
        INSERT INTO out SELECT k, SUM(v) FROM TABLE(
            TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '10' SECOND))
        GROUP BY k, window_start, window_end""").wait()
    with t_env.execute_sql("SELECT k, COUNT(*) FROM events GROUP BY k").collect() as rows:
        list(rows)
    batch = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    left = batch.from_elements([(1, "a"), (2, "b")], ["id", "name"])
    right = batch.from_elements([(1, 10.5), (2, 20.5)], ["rid", "amount"])
    left.join(right).where(left.id == right.rid).select(left.name, right.amount) \
        .to_pandas()


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="pystream-jvm-workload-") as directory:
        try:
            run_workload(directory)
        finally:
            session.stop_session(jvm_exit_timeout=JVM_EXIT_TIMEOUT)


if __name__ == "__main__":
    main()
