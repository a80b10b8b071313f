"""A checkpointed streaming SQL job survives kill -9: started again with the same settings it
resumes from its checkpoint, and its filesystem sink holds every window's count once."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from pystream.session import get_session

ROOT = Path(__file__).resolve().parents[2]

JOB = textwrap.dedent("""
    from pystream.table import EnvironmentSettings, TableEnvironment

    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.execute_sql("SET 'execution.checkpointing.interval' = '1 s'")
    t_env.execute_sql("SET 'execution.checkpointing.dir' = '{checkpoints}'")
    t_env.execute_sql('''CREATE TABLE clicks (k STRING, ts TIMESTAMP(3),
        WATERMARK FOR ts AS ts) WITH ('connector' = 'filesystem', 'path' = '{inbox}',
        'format' = 'csv', 'source.monitor-interval' = '1 s')''')
    t_env.execute_sql('''CREATE TABLE counts (k STRING, window_start TIMESTAMP(3), n BIGINT)
        WITH ('connector' = 'filesystem', 'path' = '{outbox}', 'format' = 'csv')''')
    t_env.execute_sql('''INSERT INTO counts SELECT k, window_start, COUNT(*) FROM TABLE(
        TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND))
        GROUP BY k, window_start, window_end''').wait()
""")


def _drop(inbox: Path, name: str, minutes: list) -> None:
    """A file of clicks: keys a and b at second s of 2024-01-01 10:00."""
    lines = ["%s,2024-01-01 10:%02d:%02d" % (k, s // 60, s % 60) for s in minutes
             for k in ("a", "b")]
    (inbox / (name + ".tmp")).write_text("\n".join(lines) + "\n")
    os.replace(inbox / (name + ".tmp"), inbox / (name + ".csv"))  # whole files only


def _start(program: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT),
               PYSTREAM_CONF="spark.ui.enabled=false;spark.sql.shuffle.partitions=2",
               PYSTREAM_MASTER="local[2]")
    return subprocess.Popen([sys.executable, str(program)], env=env, cwd=str(program.parent),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def _committed(outbox: Path) -> list:
    """The rows the sink committed (Spark's file sink log; a killed batch's files are not)."""
    if not (outbox / "_spark_metadata").exists():
        return []
    df = get_session().read.schema("k STRING, window_start STRING, n BIGINT").csv(str(outbox))
    return sorted(tuple(r) for r in df.collect())


def _wait_for(outbox: Path, count: int, timeout: float = 180) -> list:
    deadline, rows = time.monotonic() + timeout, []
    while time.monotonic() < deadline:
        rows = _committed(outbox)
        if len(rows) >= count:
            return rows
        time.sleep(1)
    return rows


def _kill(job: subprocess.Popen) -> None:
    os.killpg(job.pid, signal.SIGKILL)  # the job and its JVM, no goodbye
    job.wait()


def test_a_killed_sql_job_resumes_and_counts_each_window_once(tmp_path):
    inbox, outbox = tmp_path / "in", tmp_path / "out"
    inbox.mkdir()
    program = tmp_path / "job.py"
    program.write_text(JOB.format(checkpoints=tmp_path / "ckpt", inbox=inbox, outbox=outbox))
    _drop(inbox, "1", [1, 2, 3, 11, 12])
    _drop(inbox, "2", [21, 22, 31])  # closes the windows at :00 and :10
    job = _start(program)
    try:
        first = _wait_for(outbox, 4)
        _kill(job)
        _drop(inbox, "3", [32, 33, 41])  # while it is down
        job = _start(program)
        _drop(inbox, "4", [55, 70])  # closes :30, :40 and :50; 10:01:10 stays open
        rows = _wait_for(outbox, 12)
    finally:
        _kill(job)
    windows = {"00": 3, "10": 2, "20": 2, "30": 3, "40": 1, "50": 1}
    assert len(first) >= 4
    assert rows == sorted((k, "2024-01-01 10:00:%s.000" % w, n) for w, n in windows.items()
                          for k in ("a", "b"))
