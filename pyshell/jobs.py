"""``%jobs`` and ``%stop``: the pystream jobs and Spark streaming queries running in the shell.

A pystream job (``env.execute_async()``, or ``execute()`` in a thread) is one entry with its
queries' counts; a streaming query started straight on ``spark`` is an entry of its own.
Entries get small numbers, stable for the life of the shell, so ``%stop 2`` is easy to type.
"""
from __future__ import annotations

import itertools
import sys
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple

from pystream.session import active_session


@dataclass
class Entry:
    """One running job or query, as ``%jobs`` shows it."""

    id: int
    key: str
    name: str
    age: Optional[float]
    rows: Optional[int]
    rate: Optional[float]
    status: str
    stop: Callable[[], None]
    metrics: Dict[str, object] = field(default_factory=dict)  # of its functions, by name

    def as_row(self) -> dict:
        return {"id": self.id, "name": self.name, "age": self.age, "rows": self.rows,
                "rate": self.rate, "status": self.status, "metrics": self.metrics}


class RowCounter:
    """Rows read by each query, summed over its progress reports (each batch counted once)."""

    def __init__(self):
        self._seen: Dict[str, Tuple[int, int]] = {}  # query id -> (last batch id, rows)

    def update(self, query_id: str, progress: List[dict]) -> int:
        last, total = self._seen.get(query_id, (-1, 0))
        for report in progress:
            if report.get("batchId", -1) > last:
                last, total = report["batchId"], total + int(report.get("numInputRows") or 0)
        self._seen[query_id] = (last, total)
        return total


def rate_of(progress: List[dict]) -> Optional[float]:
    """Rows per second of the latest batch (None before the first)."""
    if not progress:
        return None
    value = progress[-1].get("processedRowsPerSecond")
    return float(value) if value is not None else None


class JobRegistry:
    """Numbers the running jobs and queries and counts their rows."""

    def __init__(self):
        self._numbers: Dict[str, int] = {}
        self._next = itertools.count(1)
        self._first_seen: Dict[str, float] = {}
        self.counter = RowCounter()

    def number(self, key: str) -> int:
        if key not in self._numbers:
            self._numbers[key] = next(self._next)
            self._first_seen[key] = time.time()
        return self._numbers[key]

    def entries(self, ended: bool = False) -> List[Entry]:
        """The running jobs and queries (never starts Spark); with ``ended``, also the
        latest jobs that ended and had metrics."""
        spark = active_session()
        if spark is None:
            return []
        entries, job_queries = [], set()
        for job in _active_jobs():
            queries = _safe(lambda j=job: list(j.queries), [])
            job_queries.update(_safe(lambda q=q: str(q.id), None) for q in queries)
            entries.append(self._job_entry(job, queries))
        for query in _safe(lambda: list(spark.streams.active), []):
            if str(query.id) not in job_queries:
                entries.append(self._query_entry(query))
        if ended:
            entries.extend(self._finished_entry(j) for j in _finished_jobs())
        return sorted(entries, key=lambda e: e.id)

    def _finished_entry(self, job) -> Entry:
        """A job that ended, shown with its functions' final metrics."""
        mode = "batch" if job.batch else "streaming"
        return Entry(self.number("job:%s" % job.job_id), "job:%s" % job.job_id, job.name,
                     job.runtime_s, None, None, "%s (%s)" % (job.status.name, mode),
                     lambda: None, job.metrics)

    def _job_entry(self, job, queries) -> Entry:
        key = "job:%s" % job.job_id
        progress = {str(q.id): _safe(lambda q=q: list(q.recentProgress), []) for q in queries}
        rows = sum(self.counter.update(qid, p) for qid, p in progress.items()) if queries \
            else None
        rates = [r for r in (rate_of(p) for p in progress.values()) if r is not None]
        started = job.started_at or self._first_seen.get(key) or time.time()
        mode = "batch" if job.settings.batch else "streaming"
        return Entry(self.number(key), key, job.name, time.time() - started, rows,
                     sum(rates) if rates else None, "%s (%s)" % (job.status().name, mode),
                     job.cancel, _safe(job.metrics, {}))

    def _query_entry(self, query) -> Entry:
        key = "query:%s" % query.id
        number = self.number(key)
        progress = _safe(lambda: list(query.recentProgress), [])
        status = _safe(lambda: query.status.get("message"), None) or "RUNNING"
        return Entry(number, key, query.name or "query %s" % str(query.id)[:8],
                     time.time() - self._first_seen[key],
                     self.counter.update(str(query.id), progress), rate_of(progress),
                     "RUNNING (%s)" % status.lower(), query.stop)

    def find(self, which: str) -> List[Entry]:
        """The entries ``which`` names: ``all``, a number, a name, or a job id prefix."""
        entries = self.entries()
        if which == "all":
            return entries
        return [e for e in entries if which in (str(e.id), e.name)
                or (len(which) >= 4 and e.key.split(":", 1)[1].startswith(which))]


def _active_jobs() -> list:
    module = _jobs_module()
    return module.active_jobs() if module is not None else []


def _finished_jobs() -> list:
    module = _jobs_module()
    return module.finished_jobs() if module is not None else []


def _jobs_module():
    """pystream's jobs, once a job ran in this process (None before: nothing to import)."""
    return sys.modules.get("pystream.compiler.job")


def _safe(fn, default):
    try:
        return fn()
    except Exception:  # noqa: BLE001 - a query that just ended
        return default


def stop_everything() -> None:
    """Cancel every running pystream job and stop every streaming query of the session."""
    for job in _active_jobs():
        _safe(job.cancel, None)
    spark = active_session()
    if spark is not None:
        for query in _safe(lambda: list(spark.streams.active), []):
            _safe(query.stop, None)
