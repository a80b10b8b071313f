"""What running a job gives back: JobID, JobStatus, JobExecutionResult, JobClient."""
from __future__ import annotations

import concurrent.futures
import uuid
from enum import Enum
from typing import Any, Dict, Optional

from pystream.errors import UnsupportedFeatureError

__all__ = ["JobID", "JobStatus", "JobExecutionResult", "JobClient", "CompletableFuture"]


class JobID:
    """A job's unique id (32 hex digits, like Flink's)."""

    def __init__(self, hex_id: Optional[str] = None):
        self._hex = hex_id or uuid.uuid4().hex

    def to_hex_string(self) -> str:
        return self._hex

    def __eq__(self, other):
        return isinstance(other, JobID) and self._hex == other._hex

    def __hash__(self):
        return hash(self._hex)

    def __str__(self):
        return self._hex

    __repr__ = __str__


class JobStatus(Enum):
    """The state of a job."""

    INITIALIZING = 0
    CREATED = 1
    RUNNING = 2
    FAILING = 3
    FAILED = 4
    CANCELLING = 5
    CANCELED = 6
    FINISHED = 7
    RESTARTING = 8
    SUSPENDED = 9
    RECONCILING = 10

    def is_globally_terminal_state(self) -> bool:
        return self in (JobStatus.FAILED, JobStatus.CANCELED, JobStatus.FINISHED)

    def is_terminal_state(self) -> bool:
        return self.is_globally_terminal_state() or self is JobStatus.SUSPENDED


class JobExecutionResult:
    """The result of a finished job: its id, its run time and its accumulators."""

    def __init__(self, job_id: JobID, net_runtime_ms: int,
                 accumulators: Optional[Dict[str, Any]] = None, job_name: str = "",
                 metrics: Optional[Dict[str, Any]] = None):
        self._job_id = job_id
        self._net_runtime = net_runtime_ms
        self._accumulators = dict(accumulators or {})
        self._metrics = dict(metrics or {})
        self.job_name = job_name

    def get_job_id(self) -> JobID:
        return self._job_id

    def get_net_runtime(self) -> int:
        """The run time in milliseconds."""
        return self._net_runtime

    def get_accumulator_result(self, accumulator_name: str):
        return self._accumulators.get(accumulator_name)

    def get_all_accumulator_results(self) -> Dict[str, Any]:
        return dict(self._accumulators)

    def get_metrics(self) -> Dict[str, Any]:
        """The final values of the metrics of the job's functions, by name (pystream's:
        PyFlink shows them in Flink's web UI; see ``pystream.metrics``)."""
        return dict(self._metrics)

    def is_job_execution_result(self) -> bool:
        return True

    def get_job_execution_result(self) -> "JobExecutionResult":
        return self

    def __str__(self):
        return "JobExecutionResult(job_id=%s, net_runtime=%d ms)" % (self._job_id,
                                                                   self._net_runtime)


class CompletableFuture:
    """A value that arrives later, as PyFlink's (``result()`` waits for it)."""

    def __init__(self, future: concurrent.futures.Future):
        self._future = future

    @staticmethod
    def completed(value) -> "CompletableFuture":
        future: concurrent.futures.Future = concurrent.futures.Future()
        future.set_result(value)
        return CompletableFuture(future)

    def cancel(self) -> bool:
        return self._future.cancel()

    def cancelled(self) -> bool:
        return self._future.cancelled()

    def done(self) -> bool:
        return self._future.done()

    def result(self, timeout: Optional[float] = None):
        return self._future.result(timeout)

    def exception(self, timeout: Optional[float] = None):
        return self._future.exception(timeout)

    def __str__(self):
        return "<CompletableFuture done=%s>" % self.done()


class JobClient:
    """A handle on a job started with ``execute_async``: status, cancel and result."""

    def __init__(self, job):
        self._job = job

    def get_job_id(self) -> JobID:
        return self._job.job_id

    def get_job_status(self) -> CompletableFuture:
        return CompletableFuture.completed(self._job.status())

    def cancel(self) -> CompletableFuture:
        self._job.cancel()
        return CompletableFuture.completed(None)

    def get_job_execution_result(self) -> CompletableFuture:
        return CompletableFuture(self._job.future)

    def get_accumulators(self) -> CompletableFuture:
        return CompletableFuture.completed({})

    def get_metrics(self) -> Dict[str, Any]:
        """The metrics of the job's functions by name: their values now while it runs, their
        final values once it has ended (pystream's: see ``pystream.metrics``)."""
        return self._job.metrics()

    def stop_with_savepoint(self, *args, **kwargs):
        raise UnsupportedFeatureError("JobClient.stop_with_savepoint: Spark has no savepoints; "
                                      "use checkpoints (env.enable_checkpointing)")

    trigger_savepoint = stop_with_savepoint
