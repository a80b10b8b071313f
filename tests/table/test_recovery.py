"""A checkpointed streaming SQL job survives faults: killed with SIGKILL at random moments, or
stopped with SIGTERM or ``cancel()``, and started again with the same settings, it resumes
from its checkpoint, and its filesystem sink holds every window's count once."""
from __future__ import annotations

import csv
import datetime
import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import threading
import time
import urllib.parse
from collections import Counter
from pathlib import Path

from pystream.server import session_members

ROOT = Path(__file__).resolve().parents[2]
START = datetime.datetime(2024, 1, 1, 10, 0, 0)
KEYS = ("a", "b", "c")

SETTINGS = """
    SET 'execution.checkpointing.interval' = '1 s';
    SET 'execution.checkpointing.dir' = '{checkpoints}'
"""
TABLES = """
    CREATE TABLE clicks (k STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH (
        'connector' = 'filesystem', 'path' = '{inbox}', 'format' = 'csv',
        'source.monitor-interval' = '1 s');
    CREATE TABLE counts (k STRING, window_start TIMESTAMP(3), n BIGINT)
        WITH ('connector' = 'filesystem', 'path' = '{outbox}', 'format' = 'csv')
"""
INSERT = """INSERT INTO counts SELECT k, window_start, COUNT(*) FROM TABLE(
    TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND))
    GROUP BY k, window_start, window_end"""

JOB = textwrap.dedent("""
    from pystream.table import EnvironmentSettings, TableEnvironment

    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    for statement in {statements!r}:
        t_env.execute_sql(statement)
    t_env.execute_sql({insert!r}).wait()
""")


def _statements(tmp_path: Path) -> list:
    text = (SETTINGS + ";" + TABLES).format(
        checkpoints=tmp_path / "ckpt", inbox=tmp_path / "in", outbox=tmp_path / "out")
    return [s.strip() for s in text.split(";") if s.strip()]


def _program(tmp_path: Path) -> Path:
    (tmp_path / "in").mkdir()
    program = tmp_path / "job.py"
    program.write_text(JOB.format(statements=_statements(tmp_path), insert=INSERT))
    return program


def _drop(inbox: Path, name: str, seconds: list) -> None:
    """A file of clicks: keys a and b at second s of 2024-01-01 10:00."""
    _write(inbox, name, ["%s,2024-01-01 10:%02d:%02d" % (k, s // 60, s % 60) for s in seconds
                         for k in ("a", "b")])


def _write(inbox: Path, name: str, lines: list) -> None:
    """A whole file appears in the monitored directory at once (written beside it first)."""
    staging = inbox.parent / "staging"
    staging.mkdir(exist_ok=True)
    (staging / (name + ".csv")).write_text("".join(line + "\n" for line in lines))
    os.replace(staging / (name + ".csv"), inbox / (name + ".csv"))


def _start(program: Path, cli: bool = False) -> subprocess.Popen:
    """The job in a process session of its own: ``python job.py``, or with ``cli``,
    ``python -m pystream run -py job.py``; its output in ``<name>.log`` beside it."""
    env = dict(os.environ, PYTHONPATH=str(ROOT),
               PYSTREAM_CONF="spark.ui.enabled=false;spark.sql.shuffle.partitions=2",
               PYSTREAM_MASTER="local[2]")
    command = [sys.executable, "-m", "pystream", "run", "-py", str(program)] if cli \
        else [sys.executable, str(program)]
    with open(program.with_suffix(".log"), "ab") as log:
        return subprocess.Popen(command, env=env, cwd=str(program.parent),
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def _committed(outbox: Path) -> list:
    """The rows the sink committed: the files its log (``_spark_metadata``, Spark's file sink
    log: one file per batch, each a version line and a JSON line per file added) lists; a
    killed batch's files are not there. Read here, without a Spark job."""
    log = outbox / "_spark_metadata"
    if not log.exists():
        return []
    files = set()
    for entry in log.iterdir():
        if entry.name.split(".")[0].isdigit():
            for line in entry.read_text().splitlines()[1:]:
                record = json.loads(line)
                if record["action"] == "add":
                    files.add(urllib.parse.urlparse(record["path"]).path)
    rows = []
    for path in files:
        with open(path, newline="") as f:
            rows += [(k, window_start, int(n)) for k, window_start, n in csv.reader(f)]
    return sorted(rows)


def _wait_for(outbox: Path, count: int, timeout: float = 180) -> list:
    deadline, rows = time.monotonic() + timeout, []
    while time.monotonic() < deadline:
        rows = _committed(outbox)
        if len(rows) >= count:
            return rows
        time.sleep(0.2)
    return rows


def _kill(job: subprocess.Popen) -> None:
    """SIGKILL to the job's whole session (it and its JVM), no goodbye."""
    try:
        os.killpg(job.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    job.wait()


def _batches(checkpoints: Path, log: str) -> int:
    """The micro-batches a query's checkpoint has started (``offsets``) or committed."""
    found = [int(p.name) for p in checkpoints.glob("*/*/%s/*" % log) if p.name.isdigit()]
    return max(found, default=-1) + 1


def _in_a_batch(checkpoints: Path, timeout: float = 30) -> None:
    """Returns once the query runs a micro-batch (started, not committed), or after timeout."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and \
            _batches(checkpoints, "offsets") <= _batches(checkpoints, "commits"):
        time.sleep(0.02)


def _windows(counts: dict) -> list:
    """The sink rows of {(second of the window start, key): count}."""
    return sorted((k, (START + datetime.timedelta(seconds=w)).strftime("%Y-%m-%d %H:%M:%S"),
                   n) for (w, k), n in counts.items())


def _stop_in_a_batch(job: subprocess.Popen, checkpoints: Path, how: str) -> dict:
    """SIGTERM to ``pystream run`` (the command only, as a service manager sends it) or
    Ctrl-C (SIGINT to its process group, as a terminal sends it: the JVM gets it too) while
    the job runs a micro-batch: its exit status, how long it took, the processes of its
    session left, the batches its checkpoint has started and committed."""
    _in_a_batch(checkpoints)
    if how == "SIGTERM":
        os.kill(job.pid, signal.SIGTERM)
    else:
        os.killpg(job.pid, signal.SIGINT)
    sent = time.monotonic()
    status = job.wait(timeout=60)
    took = time.monotonic() - sent
    deadline = time.monotonic() + 10
    while session_members(job.pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    return {"status": status, "fast": took < 30, "left": session_members(job.pid),
            "started": _batches(checkpoints, "offsets"),
            "committed": _batches(checkpoints, "commits")}


def test_sigterm_and_ctrl_c_of_pystream_run_stop_after_the_batch_and_the_job_resumes(tmp_path):
    """SIGTERM, then Ctrl-C, of ``pystream run`` stops the INSERT: the micro-batch it is
    running commits first, the command exits 143 (130) and leaves no process behind, and the
    same command started again resumes from the checkpoint; each window counted once."""
    program, inbox, outbox = _program(tmp_path), tmp_path / "in", tmp_path / "out"
    checkpoints = tmp_path / "ckpt"
    _drop(inbox, "1", [1, 2, 3, 11, 12])
    _drop(inbox, "2", [21, 22, 31])  # closes the windows at :00, :10 and :20
    job = _start(program, cli=True)
    try:
        first = _wait_for(outbox, 6)
        _drop(inbox, "3", [32, 33, 41])  # closes :30; its batch runs when the signal comes
        terminated = _stop_in_a_batch(job, checkpoints, "SIGTERM")
        _drop(inbox, "4", [42, 51])  # while it is down; closes :40
        job = _start(program, cli=True)
        second = _wait_for(outbox, 10)
        _drop(inbox, "5", [52, 61])  # closes :50
        interrupted = _stop_in_a_batch(job, checkpoints, "Ctrl-C")
        _drop(inbox, "6", [62, 80])  # closes :60; 10:01:20 stays open
        job = _start(program, cli=True)
        rows = _wait_for(outbox, 14)
    finally:
        _kill(job)
    log = program.with_suffix(".log").read_text()
    assert (terminated, interrupted) == (
        {"status": 143, "fast": True, "left": [], "started": terminated["committed"],
         "committed": terminated["committed"]},
        {"status": 130, "fast": True, "left": [], "started": interrupted["committed"],
         "committed": interrupted["committed"]}), log[-3000:]
    assert "pystream: terminated (SIGTERM)" in log and "pystream: interrupted" in log
    assert (len(first), len(second)) == (6, 10)
    windows = {0: 3, 10: 2, 20: 2, 30: 3, 40: 2, 50: 2, 60: 2}
    assert rows == _windows({(w, k): n for w, n in windows.items() for k in ("a", "b")})


def test_cancel_of_a_running_insert_stops_it_and_the_statement_resumes(tmp_path):
    """``TableResult.get_job_client().cancel()`` stops a checkpointed INSERT (its future is
    done: the query is stopped); the same statement executed again resumes."""
    from pystream.common.job import JobStatus
    from pystream.table import EnvironmentSettings, TableEnvironment

    (tmp_path / "in").mkdir()
    inbox, outbox = tmp_path / "in", tmp_path / "out"

    def insert():
        t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
        for statement in _statements(tmp_path):
            t_env.execute_sql(statement)
        return t_env.execute_sql(INSERT)

    _drop(inbox, "1", [1, 2, 3, 11, 12])
    _drop(inbox, "2", [21, 22, 31])
    result = insert()
    try:
        first = _wait_for(outbox, 4)
        _drop(inbox, "3", [32, 33, 41])
        _in_a_batch(tmp_path / "ckpt")
    finally:
        cancelled = result.get_job_client().cancel()
    assert cancelled.result(timeout=1) is None
    assert _batches(tmp_path / "ckpt", "offsets") == _batches(tmp_path / "ckpt", "commits")
    assert not any(q.isActive for q in result.get_job_client().job.queries)
    deadline = time.monotonic() + 30
    while result.get_job_client().get_job_status().result() is JobStatus.RUNNING and \
            time.monotonic() < deadline:
        time.sleep(0.1)
    assert result.get_job_client().get_job_status().result() is JobStatus.CANCELED
    _drop(inbox, "4", [55, 70])
    result = insert()
    try:
        rows = _wait_for(outbox, 12)
    finally:
        result.get_job_client().cancel()
    assert len(first) >= 4
    windows = {0: 3, 10: 2, 20: 2, 30: 3, 40: 1, 50: 1}
    assert rows == _windows({(w, k): n for w, n in windows.items() for k in ("a", "b")})


class _Feeder(threading.Thread):
    """Drops a file of clicks about every second: two seconds of event time per file,
    always later than the files before (each key 0-2 clicks a second), and counts them."""

    def __init__(self, inbox: Path, rng: random.Random):
        super().__init__(daemon=True, name="clicks-feeder")
        self.inbox, self.rng = inbox, rng
        self.counts: Counter = Counter()  # (window start second, key) -> clicks
        self.second = 0
        self.files = 0
        self.halt = threading.Event()

    def drop(self) -> None:
        lines = []
        for s in (self.second, self.second + 1):
            for k in KEYS:
                for _ in range(self.rng.randint(0, 2)):
                    lines.append("%s,%s" % (k, START + datetime.timedelta(seconds=s)))
                    self.counts[(s // 10 * 10, k)] += 1
        _write(self.inbox, "%05d" % self.files, lines)
        self.second += 2
        self.files += 1

    def run(self) -> None:
        while not self.halt.wait(self.rng.uniform(0.6, 1.4)):
            self.drop()

    def close_windows(self) -> None:
        """Stops feeding; the last file is one click an hour later: every window fed so far
        closes (the click's own window stays open)."""
        self.halt.set()
        self.join()
        _write(self.inbox, "99999", ["a,%s" % (START + datetime.timedelta(
            seconds=self.second + 3600))])


def test_a_sql_job_killed_at_random_moments_counts_each_window_once(tmp_path):
    """Files arrive all the time; the job is killed with SIGKILL three times at random
    moments, and started again each time: once it has committed windows, once wherever the
    moment falls after a restart (often while its JVM starts or reads the files that came
    while it was down), once after the restarted job has committed a micro-batch (often in the
    next one). Every (window, key) count is then there once and right. The assertion names
    the seed; PYSTREAM_RECOVERY_SEED=n replays its kill schedule and files."""
    seed = int(os.environ.get("PYSTREAM_RECOVERY_SEED") or random.SystemRandom().randrange(
        1 << 30))
    rng = random.Random(seed)
    program, outbox, checkpoints = _program(tmp_path), tmp_path / "out", tmp_path / "ckpt"
    feeder = _Feeder(tmp_path / "in", random.Random(seed + 1))
    feeder.drop()
    feeder.start()
    kills = []  # (seconds after the job started, micro-batches committed, rows committed)

    def kill_and_restart(job, started):
        _kill(job)
        kills.append((round(time.monotonic() - started, 1), _batches(checkpoints, "commits"),
                      len(_committed(outbox))))
        return _start(program), time.monotonic()

    job, started = _start(program), time.monotonic()
    try:
        _wait_for(outbox, 1, timeout=120)  # windows committed: the kill loses some work
        time.sleep(rng.uniform(0, 3))
        job, started = kill_and_restart(job, started)
        time.sleep(rng.uniform(1, 6))
        job, started = kill_and_restart(job, started)
        committed = _batches(checkpoints, "commits")
        deadline = time.monotonic() + 120
        while _batches(checkpoints, "commits") <= committed and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(rng.uniform(0, 2))
        job, started = kill_and_restart(job, started)
        feeder.close_windows()
        expected = _windows(feeder.counts)
        _wait_for(outbox, len(expected), timeout=120)
        time.sleep(2)  # a duplicate committed late would show too
        rows = _committed(outbox)
    finally:
        feeder.halt.set()
        _kill(job)
    duplicates = [r for r, n in Counter((k, w) for k, w, _ in rows).items() if n > 1]
    assert rows == expected, (
        "seed %d; kills (s after start, batches and rows committed then): %s; %d files; "
        "duplicates %s, missing %s, wrong %s\n%s" % (
            seed, kills, feeder.files, duplicates, sorted(set(expected) - set(rows)),
            sorted(set(rows) - set(expected)),
            program.with_suffix(".log").read_text()[-3000:]))
    print("seed %d; kills %s; %d files; %d rows" % (seed, kills, feeder.files, len(rows)))
