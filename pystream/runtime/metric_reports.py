"""The metrics of a job's user functions, from Spark's Python workers to the driver.

Each worker process keeps the job's totals (``WorkerReporter``: the ``pystream.metrics``
``Reporter`` the function contexts get) and a thread writes them, when they changed, every
``FLUSH_SECONDS`` to a file of its own in the job's directory; the driver sums the files
(``MetricsTarget.read``). The directory lives under a temporary directory of the driver's
process: workers on this machine reach it (local mode, a standalone cluster or a Spark
Connect server on this machine). Workers on other machines write to a directory of theirs
that the driver does not read: their metrics stay in their tasks (``docs/udf.md``).

A report maps each metric's name to its value: a counter's count (summed over the
workers), a gauge's latest value, a meter's ``{"count", "rate"}``, a distribution's
``{"count", "sum", "min", "max"}``.
"""
from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import socket
import tempfile
import threading
import time
from dataclasses import dataclass
from typing import Callable, Dict, Optional

from pystream.metrics import Counter, Distribution, Meter, Metric, Reporter

FLUSH_SECONDS = 0.1
SETTLE_SECONDS = 3 * FLUSH_SECONDS  # after a job's end, its workers' last writes are in


@dataclass(frozen=True)
class MetricsTarget(Reporter):
    """Where one job's metrics are written (by the workers) and read (by the driver). As the
    ``Reporter`` of a function's metric group it starts this worker's reporter of the job
    with the function's first metric (a function without metrics costs nothing)."""

    directory: str

    def total(self, name: str, kind: type) -> Metric:
        return self.reporter().total(name, kind)

    def gauge(self, name: str, obj: Callable[[], object]) -> None:
        self.reporter().gauge(name, obj)

    def reporter(self) -> "WorkerReporter":
        """In a worker: this process's reporter of the job."""
        with _LOCK:
            reporter = _REPORTERS.get(self.directory)
            if reporter is None:
                reporter = _REPORTERS[self.directory] = WorkerReporter(self.directory)
                _start_writer()
            return reporter

    def final(self, ended_at: float) -> Dict[str, object]:
        """On the driver, for a job that ended at ``ended_at``: its final metrics; its
        directory is removed (its workers stop writing)."""
        try:
            return self.read(ended_at)
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)

    def read(self, ended_at: Optional[float] = None) -> Dict[str, object]:
        """On the driver: the job's metrics, summed over its workers' files; a job that
        ended at ``ended_at`` (``time.time()``) is read once its workers' last writes are
        in."""
        names = os.listdir(self.directory) if os.path.isdir(self.directory) else []
        if not names:
            return {}
        if ended_at is not None:
            time.sleep(max(0.0, ended_at + SETTLE_SECONDS - time.time()))
        reports = []
        for name in sorted(os.listdir(self.directory)):  # again: after the settling
            if name.endswith(".json"):
                try:
                    with open(os.path.join(self.directory, name)) as f:
                        reports.append(json.load(f))
                except (OSError, ValueError):  # being replaced: the next read has it
                    continue
        return combined(reports)


def make_job_target(job_id: str) -> MetricsTarget:
    """Makes the metrics directory of the job ``job_id`` (under this process's directory
    of metrics, made the first time and removed when the process exits)."""
    global _ROOT
    with _LOCK:
        if _ROOT is None:
            remove_orphaned_directories()
            _ROOT = tempfile.mkdtemp(prefix="%s%d-" % (ROOT_PREFIX, os.getpid()))
            atexit.register(shutil.rmtree, _ROOT, True)
    directory = os.path.join(_ROOT, job_id)
    os.makedirs(directory, exist_ok=True)
    return MetricsTarget(directory)


def remove_orphaned_directories() -> None:
    """Removes this user's directories of metrics whose driver process is gone: one that was
    killed never ran its ``atexit`` removal."""
    base = tempfile.gettempdir()
    for name in os.listdir(base):
        found = re.match(re.escape(ROOT_PREFIX) + r"(\d+)-", name)
        path = os.path.join(base, name)
        try:
            if not found or os.stat(path).st_uid != os.getuid() or _alive(int(found.group(1))):
                continue
        except OSError:  # gone already
            continue
        shutil.rmtree(path, True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process of that number
        return True
    return True


def combined(reports) -> Dict[str, object]:
    """One report of the workers' ``{name: [kind, value]}`` reports."""
    out: Dict[str, object] = {}
    for report in reports:
        for name, (kind, value) in sorted(report.items()):
            seen = out.get(name)
            if seen is None or kind == "gauge":
                out[name] = value
            elif kind == "counter":
                out[name] = seen + value
            elif kind == "meter":
                out[name] = {"count": seen["count"] + value["count"],
                             "rate": seen["rate"] + value["rate"]}
            else:  # distribution
                present = [v for v in (seen, value) if v["count"]]
                out[name] = {
                    "count": seen["count"] + value["count"], "sum": seen["sum"] + value["sum"],
                    "min": min((v["min"] for v in present), default=None),
                    "max": max((v["max"] for v in present), default=None)}
    return out


class WorkerReporter(Reporter):
    """A worker process's totals of one job's metrics."""

    def __init__(self, directory: str):
        self.directory = directory
        self.path = os.path.join(directory, "%s-%d.json" % (socket.gethostname(), os.getpid()))
        self._totals: Dict[str, Metric] = {}
        self._gauges: Dict[str, Callable[[], object]] = {}
        self._written: Optional[str] = None

    def total(self, name: str, kind: type) -> Metric:
        with _LOCK:
            metric = self._totals.get(name)
            if not isinstance(metric, kind):
                metric = self._totals[name] = kind()
        self.write()  # the job's directory shows at once that it has metrics
        return metric

    def gauge(self, name: str, obj: Callable[[], object]) -> None:
        self._gauges[name] = obj
        self.write()

    def report(self) -> Dict[str, list]:
        out: Dict[str, list] = {}
        for name, metric in list(self._totals.items()):
            if isinstance(metric, Counter):
                out[name] = ["counter", metric.get_count()]
            elif isinstance(metric, Meter):
                out[name] = ["meter", metric.value()]
            elif isinstance(metric, Distribution):
                out[name] = ["distribution", metric.value()]
        for name, read in list(self._gauges.items()):
            try:
                value = read()
                json.dumps(value)
            except Exception:  # noqa: BLE001 - a gauge that fails or is not JSON: its text
                value = _safe_repr(read)
            out[name] = ["gauge", value]
        return out

    def write(self) -> None:
        """Writes the totals if they changed since the last write (a whole new file). Once
        the driver has removed the job's directory (the job ended), this reporter is
        dropped."""
        with _LOCK:
            text = json.dumps(self.report(), sort_keys=True)
            if text == self._written:
                return
            staging = self.path + ".tmp"
            try:
                with open(staging, "w") as f:
                    f.write(text)
                os.replace(staging, self.path)
            except FileNotFoundError:
                _REPORTERS.pop(self.directory, None)
                return
            self._written = text


def _safe_repr(read) -> str:
    try:
        return repr(read())
    except Exception as e:  # noqa: BLE001
        return "<gauge failed: %s>" % e


_LOCK = threading.RLock()
_REPORTERS: Dict[str, WorkerReporter] = {}  # this worker's, by job directory
_ROOT: Optional[str] = None  # the driver's directory of jobs' metrics
ROOT_PREFIX = "pystream-metrics-"  # then the driver's process id
_WRITER: Optional[threading.Thread] = None


def write_reports() -> None:
    """Writes this worker's reports now: called as a task closes its functions, so a job's
    final counts are on disk before its tasks end (the writer thread only keeps running
    values fresh)."""
    for reporter in list(_REPORTERS.values()):
        try:
            reporter.write()
        except OSError:  # a full disk: the writer thread tries again
            pass


def _start_writer() -> None:
    global _WRITER
    if _WRITER is None:
        _WRITER = threading.Thread(target=_write_forever, daemon=True,
                                   name="pystream-metrics")
        _WRITER.start()


def _write_forever() -> None:
    while True:
        time.sleep(FLUSH_SECONDS)
        write_reports()
