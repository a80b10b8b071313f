"""Checkpoints: a STREAMING job killed with SIGKILL mid-batch and started again resumes its
state and offsets; its file output holds every record exactly once.

The job (``checkpointed_job.py``) runs as a real driver process with its own Spark. The test
kills its whole process group (driver, JVM, Python workers) while a batch is halfway: after
the keyed state of the batch was updated, before the batch was committed.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid

import pytest

JOB = os.path.join(os.path.dirname(__file__), "checkpointed_job.py")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WAIT_SECONDS = 300  # a cold driver on a busy 2-core machine may need minutes


def write(path: str, lines: list) -> None:
    """Write a file atomically, as a producer of a monitored directory should."""
    with open(path + ".tmp", "w") as f:
        f.write("".join(line + "\n" for line in lines))
    os.replace(path + ".tmp", path)


def output_lines(directory: str) -> list:
    """The lines of the visible (committed) part files under ``directory``, sorted."""
    lines = []
    for root, _, names in os.walk(directory):
        for name in names:
            if not name.startswith((".", "_")):
                with open(os.path.join(root, name)) as f:
                    lines += f.read().splitlines()
    return sorted(lines)


class Driver:
    """One run of the job in its own process group; every process it started is tagged
    with an environment marker, so ``kill()`` also finds the ones that left the group."""

    def __init__(self, tmp_path, log_name: str):
        self.marker = "pystream-checkpoint-test-%s" % uuid.uuid4()
        env = dict(os.environ, PYTHONPATH=ROOT, PYSTREAM_MASTER="local[2]",
                   PYSTREAM_CONF="spark.ui.enabled=false;spark.sql.shuffle.partitions=2",
                   PYSTREAM_LOG_DIR=str(tmp_path / "logs"), PYSTREAM_TEST_MARKER=self.marker)
        self.log = str(tmp_path / log_name)
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(
                [sys.executable, JOB, str(tmp_path / "in"), str(tmp_path / "out"),
                 str(tmp_path / "checkpoints"), str(tmp_path / "pause")],
                env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True)

    def wait_for(self, condition, what: str) -> None:
        deadline = time.monotonic() + WAIT_SECONDS
        while not condition():
            if self.process.poll() is not None:
                pytest.fail("the job ended (exit %s) before %s; its output:\n%s"
                            % (self.process.returncode, what, self.tail()))
            if time.monotonic() > deadline:
                pytest.fail("no %s after %d s; the job's output:\n%s"
                            % (what, WAIT_SECONDS, self.tail()))
            time.sleep(0.2)

    def tail(self) -> str:
        with open(self.log) as f:
            return f.read()[-3000:]

    def kill(self) -> None:
        """SIGKILL the process group, then any process still carrying the marker."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=30)
        deadline = time.monotonic() + 30
        while self._tagged():
            for pid in self._tagged():
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            if time.monotonic() > deadline:
                pytest.fail("processes of the job survive SIGKILL: %s" % self._tagged())
            time.sleep(0.2)

    def _tagged(self) -> list:
        tag = ("PYSTREAM_TEST_MARKER=%s" % self.marker).encode()
        pids = []
        for name in os.listdir("/proc"):
            if name.isdigit():
                try:
                    with open("/proc/%s/environ" % name, "rb") as f:
                        if tag in f.read().split(b"\0"):
                            pids.append(int(name))
                except OSError:  # gone, or not ours to read
                    pass
        return pids


@pytest.mark.timeout(900)
def test_killed_job_resumes_from_its_checkpoint_exactly_once(tmp_path):
    os.makedirs(tmp_path / "in")
    pause = str(tmp_path / "pause")
    write(str(tmp_path / "in" / "1.txt"), ["a", "b", "a"])
    first = Driver(tmp_path, "first.log")
    try:
        first.wait_for(lambda: len(output_lines(tmp_path / "out")) == 3, "output of file 1")
        write(pause, [])
        write(str(tmp_path / "in" / "2.txt"), ["a", "b", "pause", "c"])
        first.wait_for(lambda: os.path.exists(pause + ".reached"), "pause in batch 2")
    finally:
        first.kill()
    os.remove(pause)
    write(str(tmp_path / "in" / "3.txt"), ["b", "a"])
    second = Driver(tmp_path, "second.log")
    try:
        second.wait_for(lambda: len(output_lines(tmp_path / "out")) >= 9, "output of files 2, 3")
        time.sleep(1)  # room for (wrong) extra records to show up
    finally:
        second.kill()
    assert output_lines(tmp_path / "out") == [
        "a,1", "a,2", "a,3", "a,4", "b,1", "b,2", "b,3", "c,1", "pause,1"]


def test_checkpoint_interval_settings_are_flink_durations():
    from pystream.common import Configuration
    from pystream.datastream import StreamExecutionEnvironment

    def interval(value: str) -> int:
        config = Configuration().set_string("execution.checkpointing.interval", value)
        return StreamExecutionEnvironment.get_execution_environment(config) \
            .get_checkpoint_interval()

    # checked on PyFlink 2.3
    assert [interval(v) for v in ["5 s", "500", "1 min"]] == [5000, 500, 60000]
