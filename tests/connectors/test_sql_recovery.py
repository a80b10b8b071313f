"""Checkpointed streaming SQL jobs killed with SIGKILL and started again, writing to the real
servers the suite starts: an updating aggregate into a PostgreSQL table (upserts by primary
key: a replayed micro-batch writes the same values again) and window counts into a Kafka
topic with 'sink.delivery-guarantee' = 'exactly-once' (a read_committed consumer sees each
window once). The filesystem sink's version is tests/table/test_recovery.py."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

from tests.connectors.conftest import consume, create_topic
from tests.connectors.test_jdbc import sql

ROOT = Path(__file__).resolve().parents[2]

SETTINGS = """
from pystream.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.execute_sql("SET 'execution.checkpointing.interval' = '1 s'")
t_env.execute_sql("SET 'execution.checkpointing.dir' = '{checkpoints}'")
t_env.execute_sql('''CREATE TABLE clicks (k STRING, n INT, ts TIMESTAMP(3),
    WATERMARK FOR ts AS ts) WITH ('connector' = 'filesystem', 'path' = '{inbox}',
    'format' = 'csv', 'source.monitor-interval' = '1 s')''')
"""

TO_POSTGRES = SETTINGS + """
t_env.execute_sql('''CREATE TABLE totals (k STRING, clicks BIGINT, total INT,
    PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'jdbc', 'url' = '{url}',
    'table-name' = '{table}', 'username' = '{user}')''')
t_env.execute_sql("INSERT INTO totals SELECT k, COUNT(*), SUM(n) FROM clicks GROUP BY k").wait()
"""

TO_KAFKA = SETTINGS + """
t_env.execute_sql('''CREATE TABLE counts (k STRING, window_start TIMESTAMP(3), n BIGINT)
    WITH ('connector' = 'kafka', 'topic' = '{topic}', 'properties.bootstrap.servers' =
    '{servers}', 'format' = 'csv', 'sink.delivery-guarantee' = 'exactly-once',
    'sink.transactional-id-prefix' = 'counts')''')
t_env.execute_sql('''INSERT INTO counts SELECT k, window_start, COUNT(*) FROM TABLE(
    TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND))
    GROUP BY k, window_start, window_end''').wait()
"""


def _drop(inbox: Path, name: str, clicks: list) -> None:
    """A file of (key, n, second of 2024-01-01 10:00) clicks, whole or not at all."""
    lines = ["%s,%d,2024-01-01 10:%02d:%02d" % (k, n, s // 60, s % 60) for k, n, s in clicks]
    (inbox / (name + ".tmp")).write_text("\n".join(lines) + "\n")
    os.replace(inbox / (name + ".tmp"), inbox / (name + ".csv"))


def _start(program: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYSTREAM_MASTER="local[2]",
               PYSTREAM_CONF="spark.ui.enabled=false;spark.sql.shuffle.partitions=2")
    return subprocess.Popen([sys.executable, str(program)], env=env, cwd=str(program.parent),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def _kill(job: subprocess.Popen) -> None:
    os.killpg(job.pid, signal.SIGKILL)  # the job and its JVM, no goodbye
    job.wait()


def _wait_until(found, expected, timeout: float = 180):
    deadline, seen = time.monotonic() + timeout, None
    while time.monotonic() < deadline:
        seen = found()
        if seen == expected:
            return seen
        time.sleep(1)
    return seen


def _program(tmp_path: Path, text: str, **values) -> Path:
    inbox = tmp_path / "in"
    inbox.mkdir()
    program = tmp_path / "job.py"
    program.write_text(textwrap.dedent(text).format(checkpoints=tmp_path / "ckpt", inbox=inbox,
                                                    **values))
    return program


def test_a_killed_aggregate_into_postgres_resumes_and_upserts_the_right_totals(
        tmp_path, postgres):
    table = "totals_" + uuid.uuid4().hex[:8]
    sql(postgres, "CREATE TABLE %s (k TEXT PRIMARY KEY, clicks BIGINT, total INT)" % table)
    program = _program(tmp_path, TO_POSTGRES, url=postgres["url"], table=table,
                       user=postgres["user"])
    inbox = tmp_path / "in"

    def totals():
        return sql(postgres, "SELECT k, clicks, total FROM %s ORDER BY k" % table)

    _drop(inbox, "1", [("a", 1, 1), ("b", 2, 2)])
    _drop(inbox, "2", [("a", 3, 3)])
    job = _start(program)
    try:
        first = _wait_until(totals, [["a", 2, 4], ["b", 1, 2]])
        _kill(job)
        _drop(inbox, "3", [("b", 5, 4), ("c", 1, 5)])  # while it is down
        job = _start(program)
        _drop(inbox, "4", [("a", 10, 6)])
        last = _wait_until(totals, [["a", 3, 14], ["b", 2, 7], ["c", 1, 1]])
    finally:
        _kill(job)
    assert first == [["a", 2, 4], ["b", 1, 2]]
    assert last == [["a", 3, 14], ["b", 2, 7], ["c", 1, 1]]


def _committed(servers: str, topic: str) -> list:
    """Every record of ``topic`` a read_committed consumer sees, sorted."""
    return sorted(consume(servers, topic, committed=True))


def test_killed_window_counts_into_kafka_exactly_once_are_each_read_once(tmp_path,
                                                                          kafka_servers):
    topic = create_topic(kafka_servers, "counts-%d" % time.time_ns(), partitions=1)
    program = _program(tmp_path, TO_KAFKA, topic=topic, servers=kafka_servers)
    inbox = tmp_path / "in"

    def window(second: int, k: str, n: int) -> str:
        return "%s,2024-01-01 10:00:%02d.000,%d" % (k, second, n)

    _drop(inbox, "1", [("a", 1, 1), ("b", 1, 2), ("a", 1, 3), ("a", 1, 11)])
    _drop(inbox, "2", [("b", 1, 21)])  # closes the windows at :00 and :10
    job = _start(program)
    try:
        first = _wait_until(lambda: _committed(kafka_servers, topic),
                            sorted([window(0, "a", 2), window(0, "b", 1), window(10, "a", 1)]))
        _kill(job)
        _drop(inbox, "3", [("b", 1, 22), ("a", 1, 31)])  # while it is down
        job = _start(program)
        _drop(inbox, "4", [("c", 1, 45)])  # closes :20 and :30
        expected = sorted([window(0, "a", 2), window(0, "b", 1), window(10, "a", 1),
                           window(20, "b", 2), window(30, "a", 1)])
        last = _wait_until(lambda: _committed(kafka_servers, topic), expected)
        time.sleep(3)  # nothing more comes
        last = _committed(kafka_servers, topic)
    finally:
        _kill(job)
    assert len(first) == 3
    assert last == expected
