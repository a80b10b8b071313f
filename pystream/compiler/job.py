"""Running a job: the Spark actions (BATCH) or streaming queries (STREAMING) of its sinks.

``Job.run()`` blocks until the job ends and raises a short ``JobExecutionError`` when it
fails. Ctrl-C (KeyboardInterrupt) cancels the job: running streaming queries are stopped (a
job that keeps its checkpoints: each after its current micro-batch, so that a restart resumes
after it) and running Spark jobs interrupted before the interrupt propagates.
``Job.start()`` runs it in a thread (``execute_async``).
"""
from __future__ import annotations

import collections
import concurrent.futures
import contextlib
import functools
import os
import re
import shutil
import signal
import sys
import tempfile
import threading
import time
import weakref
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Set, Tuple

from pystream import graph, session
from pystream.common.job import JobExecutionResult, JobID, JobStatus
from pystream.compiler.bad_records import unparsed_counts
from pystream.compiler.sink_helpers import RunningQuery
from pystream.compiler.sinks import plan_sink
from pystream.compiler.source_helpers import runs_on_one_machine
from pystream.compiler.translate import Compiler
from pystream.dependencies import Dependencies, configure_session, prepare
from pystream.errors import PystreamError
from pystream.plan import Plan
from pystream.runtime.dependencies import Bundle
from pystream.runtime.errors import spark_error
from pystream.runtime.metric_reports import MetricsTarget, make_job_target

POLL_SECONDS = 0.2
# how long cancel() lets a streaming query's running micro-batch finish before it stops it
STOP_GRACE_SECONDS = 30.0
# how long cancel() waits for a BATCH job's running Spark jobs to end once interrupted
INTERRUPT_WAIT_SECONDS = 10.0
# Spark's errors when a Python worker did not connect back in time (a loaded machine)
_WORKER_START = ("Python worker failed to connect back",
                 "waiting for the Python worker to connect back")
_active: "weakref.WeakSet[Job]" = weakref.WeakSet()
_finished: "collections.deque[FinishedJob]" = collections.deque(maxlen=20)


@dataclass(frozen=True)
class FinishedJob:
    """A job of this process that has ended, with the final metrics of its functions."""

    job_id: str
    name: str
    status: JobStatus
    batch: bool
    runtime_s: float
    metrics: Dict[str, object]


def finished_jobs() -> List[FinishedJob]:
    """The latest jobs of this process that ended with metrics (for the shell's ``%jobs``)."""
    return list(_finished)


def record_finished(job: FinishedJob) -> None:
    _finished.append(job)


def active_jobs() -> List["Job"]:
    """The jobs of this process that are running now (for the shell's ``%jobs``)."""
    return [job for job in list(_active) if job.status() is JobStatus.RUNNING]


def unfinished_jobs() -> List["Job"]:
    """The jobs of this process that were started and have not ended."""
    return [job for job in list(_active) if not job.future.done()]


def start_session(plan: Plan) -> Tuple[object, Optional[Bundle]]:
    """The effects a plan needs before it compiles: the Spark session, started (or reused)
    with the job's jars and classpaths, active in this thread; the job's Python dependencies
    prepared (requirements installed) into the bundle its functions travel with."""
    deps = plan.settings.dependencies or Dependencies()
    configure_session(deps)
    bundle = prepare(deps)
    spark = session.get_session()
    session.activate(spark)
    return spark, bundle


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_") or "job"


class JobCancelled(PystreamError):
    """The job was cancelled."""


class CheckpointNeeded(PystreamError):
    """A STREAMING job that keeps state runs on a cluster without a checkpoint directory:
    its executors would write their state into a temporary directory of the driver's
    machine, which they cannot reach."""

    def __init__(self, job: str, spark):
        super().__init__(
            "job '%s' keeps state (keyed operators, aggregates, joins, windows) and runs on a "
            "cluster (%s), so its checkpoint must be on storage every node reaches. Set "
            "execution.checkpointing.dir (with a checkpointing interval: "
            "env.enable_checkpointing(ms)) or Spark's spark.sql.streaming.checkpointLocation "
            "to such a path: hdfs://..., s3a://..., abfss://..., gs://..., or a directory "
            "every node mounts" % (job, spark.conf.get("spark.master", "a cluster")))


class Job:
    """One execution of a job graph."""

    def __init__(self, spark, plan: Plan, bundle: Optional[Bundle] = None):
        self.spark = spark
        self.plan = plan
        self.bundle = bundle
        self.settings = plan.settings
        self.sinks = list(plan.roots)
        self.job_id = JobID()
        self.name = self.settings.job_name
        self.future: concurrent.futures.Future = concurrent.futures.Future()
        self.started_at: Optional[float] = None
        self._status = JobStatus.CREATED
        self._cancelled = threading.Event()
        self._stopped = threading.Event()  # cancel() has stopped the queries
        self._queries: List[RunningQuery] = []
        self._starts: List[Callable[[], RunningQuery]] = []  # start query i again
        self._restarts: Set[int] = set()
        self.unparsed: Dict[str, int] = {}  # lenient tables -> records that did not parse
        self._reported_batches: Dict[str, int] = {}  # query id -> last batch reported
        self._checkpoints: List[str] = []
        self._temp_dirs: List[str] = []
        self._batch_tag: Optional[session.JobTag] = None  # while its Spark jobs run (BATCH)
        self._thread: Optional[threading.Thread] = None  # the thread that runs it
        self._lock = threading.Lock()
        self._metrics: Optional[MetricsTarget] = None  # its functions' metrics, while it runs
        self._final_metrics: Dict[str, object] = {}

    # -- public

    def status(self) -> JobStatus:
        return self._status

    @property
    def queries(self) -> list:
        return [q.query for q in self._queries]

    def metrics(self) -> Dict[str, object]:
        """The metrics of the job's functions (``pystream.metrics``): now, while it runs;
        at its end, once it has ended."""
        target = self._metrics
        return target.read() if target is not None else dict(self._final_metrics)

    def start(self) -> "Job":
        """Run in a background thread; the result arrives in ``future``."""
        _active.add(self)  # known from now on (``unfinished_jobs``), not only once it runs
        def target():
            try:
                self.run()
            except BaseException:  # noqa: BLE001 - delivered through the future
                pass
        threading.Thread(target=target, daemon=True, name="pystream-%s" % self.name).start()
        return self

    def result(self, timeout: Optional[float] = None) -> JobExecutionResult:
        """Waits for the job to end: its result, or its error raised (``TimeoutError`` after
        ``timeout`` seconds). Ctrl-C while waiting raises KeyboardInterrupt; for a job that
        keeps its checkpoints, without PySpark's cancelling of every Spark job first
        (``plain_ctrl_c``), so that the caller's ``cancel()`` lets the running micro-batch
        commit."""
        with plain_ctrl_c(self.keeps_checkpoints):
            return self.future.result(timeout=timeout)

    @staticmethod
    def prepare(plan: Plan) -> "Job":
        """The job of ``plan``, ready to run: its Spark session started and dependencies
        prepared (``start_session``)."""
        spark, bundle = start_session(plan)
        return Job(spark, plan, bundle)

    def run(self) -> JobExecutionResult:
        self._thread = threading.current_thread()
        session.activate(self.spark)
        self.started_at = time.time()
        self._status = JobStatus.RUNNING
        _active.add(self)
        self._metrics = make_job_target(str(self.job_id))
        try:
            compiler = Compiler(self.spark, self.plan, self.bundle, self._metrics)
            self._temp_dirs = compiler.temp_dirs
            plans = [plan_sink(compiler, sink) for sink in self.sinks]
            if self.settings.spark_batch:
                self._run_batch(plans)
            else:
                with plain_ctrl_c(self.keeps_checkpoints):
                    self._run_streaming(plans, compiler)
        except KeyboardInterrupt:
            self.cancel()
            self._fail(JobCancelled("job '%s' was cancelled (Ctrl-C)" % self.name),
                       JobStatus.CANCELED)
            raise
        except BaseException as e:  # noqa: BLE001
            self._stop_all()
            if self._cancelled.is_set():
                error: BaseException = JobCancelled("job '%s' was cancelled" % self.name)
                self._fail(error, JobStatus.CANCELED)
            else:
                error = e if isinstance(e, (PystreamError, TypeError, ValueError)) \
                    else spark_error(e)
                self._fail(error, JobStatus.FAILED)
            raise error from None
        finally:
            self._cleanup()
        result = JobExecutionResult(self.job_id, int((time.time() - self.started_at) * 1000),
                                    job_name=self.name, metrics=self._final_metrics)
        self._status = JobStatus.FINISHED
        self._record()
        self.future.set_result(result)
        return result

    def cancel(self, grace: float = STOP_GRACE_SECONDS) -> None:
        """Stop the job; returns once its queries are stopped. A job that keeps its
        checkpoints stops each streaming query once its running micro-batch has committed
        (waiting ``grace`` seconds at most, then at once): the checkpoint then holds every
        batch that ran, and the job started again resumes after them. Other streaming queries
        stop at once (nothing resumes them); running Spark jobs (BATCH) are interrupted, and
        ``cancel()`` waits for them to end (``INTERRUPT_WAIT_SECONDS`` at most)."""
        self._cancelled.set()
        try:
            self._stop_all(grace if self.keeps_checkpoints else 0.0)
        finally:
            self._stopped.set()
        batch_tag = self._batch_tag
        if batch_tag is not None:
            batch_tag.cancel(wait=INTERRUPT_WAIT_SECONDS)
            if threading.current_thread() is not self._thread:  # its status is CANCELED then
                concurrent.futures.wait([self.future], timeout=INTERRUPT_WAIT_SECONDS)

    @property
    def keeps_checkpoints(self) -> bool:
        """Whether the streaming queries' checkpoints are kept (a restart resumes from them)."""
        return bool(self.settings.checkpoint_dir and self.settings.checkpoint_interval_ms)

    # -- internals

    def _fail(self, error: BaseException, status: JobStatus) -> None:
        self._status = status
        self._read_final_metrics()
        self._record()
        if not self.future.done():
            self.future.set_exception(error)

    def _record(self) -> None:
        if self._final_metrics:
            record_finished(FinishedJob(str(self.job_id), self.name, self._status,
                                        self.settings.batch,
                                        time.time() - (self.started_at or 0),
                                        dict(self._final_metrics)))

    def _run_batch(self, plans) -> None:
        with session.JobTag(self.spark, "pystream-job") as self._batch_tag:
            for plan in plans:
                if self._cancelled.is_set():
                    raise JobCancelled("job '%s' was cancelled" % self.name)
                plan.run_batch()

    def _run_streaming(self, plans, compiler: Compiler) -> None:
        bounded, trigger = self.plan.bounded, self.plan.trigger
        if compiler.shuffle_partitions:
            self.spark.conf.set("spark.sql.shuffle.partitions", str(compiler.shuffle_partitions))
        for index, (plan, sink) in enumerate(zip(plans, self.sinks)):
            checkpoint = self._checkpoint_location(sink, index)
            start = functools.partial(plan.start_stream, trigger, checkpoint)
            with self._lock:
                if self._cancelled.is_set():
                    raise JobCancelled("job '%s' was cancelled" % self.name)
                self._queries.append(start())
                self._starts.append(start)
        self._await_queries(bounded)

    def _checkpoint_location(self, sink: graph.Sink, index: int) -> str:
        """A kept ``<dir>/<job>/<sink>`` with checkpointing configured. Else a temporary
        one: when Spark's tasks run on its driver's machine, there; on a cluster, under Spark's
        ``spark.sql.streaming.checkpointLocation`` when set (the executors keep state there),
        else on the driver for a stateless job only (see ``CheckpointNeeded``)."""
        name = sink.meta.uid or "sink-%d" % index
        if self.keeps_checkpoints:
            base = self.settings.checkpoint_dir
            if base.startswith("file://"):
                base = base[len("file://"):]
            return os.path.join(base, _safe(self.name), _safe(name))
        if not runs_on_one_machine(self.spark):
            shared = self.spark.conf.get("spark.sql.streaming.checkpointLocation", None)
            if shared:
                return "%s/%s-%s/%s" % (shared.rstrip("/"), _safe(self.name),
                                        self.job_id, _safe(name))
            if self.plan.keeps_state:
                raise CheckpointNeeded(self.name, self.spark)
        path = tempfile.mkdtemp(prefix="pystream-checkpoint-")
        self._checkpoints.append(path)
        return path

    def _await_queries(self, bounded: bool = False) -> None:
        while True:
            for q in list(self._queries):
                if q.query.isActive:
                    try:
                        q.query.awaitTermination(POLL_SECONDS)
                    except Exception:  # noqa: BLE001 - read from query.exception() below
                        pass
                    if bounded and q.query.isActive and _idles(q.query):
                        q.query.stop()
                self._report_unparsed(q.query)
            if self._cancelled.is_set():
                self._stopped.wait()  # cancel() stops the queries, after their running batch
                raise JobCancelled("job '%s' was cancelled" % self.name)
            ended = [(i, q.query.exception()) for i, q in enumerate(self._queries)
                     if not q.query.isActive]
            for index, error in ended:
                if error is not None and not self._restarted(index, error):
                    raise self._queries[index].cause() or error
            if len(ended) == len(self._queries) and all(e is None for _, e in ended):
                break
        for q in self._queries:
            q.finish()

    def _report_unparsed(self, query) -> None:
        """Say on stderr how many records a lenient source ('ignore-parse-errors') could not
        parse in the query's last micro-batch, once per batch; ``unparsed`` sums them."""
        progress = query.lastProgress
        if not progress or self._reported_batches.get(str(query.id)) == progress["batchId"]:
            return
        self._reported_batches[str(query.id)] = progress["batchId"]
        for table, count in unparsed_counts(progress).items():
            self.unparsed[table] = self.unparsed.get(table, 0) + count
            print("pystream: %d record(s) of table %s did not parse in micro-batch %d (read "
                  "with NULL fields or skipped; %d in all)" % (
                      count, table, progress["batchId"], self.unparsed[table]),
                  file=sys.stderr, flush=True)

    def _restarted(self, index: int, error) -> bool:
        """Start a query again from its checkpoint, once, if it failed because a Python
        worker did not start in time (Spark waits 10 s for a transformWithState worker to
        connect back, which a loaded machine can miss; nothing of the batch ran)."""
        if index in self._restarts or not any(text in str(error) for text in _WORKER_START):
            return False
        self._restarts.add(index)
        try:
            self._queries[index].finish()
        except Exception:  # noqa: BLE001 - the failed query's sink is abandoned
            pass
        with self._lock:
            if self._cancelled.is_set():
                return False
            self._queries[index] = self._starts[index]()
        return True

    def _stop_all(self, grace: float = 0.0) -> None:
        """Stop the queries: each after its running micro-batch, waiting ``grace`` seconds in
        all at most (a second Ctrl-C while waiting: at once)."""
        with self._lock:
            pending = [q.query for q in self._queries]
        deadline = time.monotonic() + grace
        try:
            while pending:
                while time.monotonic() < deadline and not _between_batches(pending[0]):
                    time.sleep(0.05)
                _stop(pending.pop(0))
        finally:
            for query in pending:  # the rest at once (a second Ctrl-C while waiting)
                _stop(query)

    def _cleanup(self) -> None:
        for q in self._queries:
            try:
                q.finish()
            except Exception:  # noqa: BLE001
                pass
        for path in self._checkpoints + self._temp_dirs:
            shutil.rmtree(path, ignore_errors=True)
        self._read_final_metrics()

    def _read_final_metrics(self) -> None:
        target, self._metrics = self._metrics, None
        if target is not None:
            self._final_metrics = target.final(ended_at=time.time())


@contextlib.contextmanager
def plain_ctrl_c(active: bool = True):
    """While inside (in the main thread, when ``active``): Ctrl-C raises KeyboardInterrupt,
    as Python's own handler does. PySpark's handler, which a SparkContext installs, cancels
    every Spark job first, and so fails the micro-batch a streaming query is running, which
    ``Job.cancel`` would let commit. Outside: the handler there was before."""
    if not active or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        if previous is not None:  # None: a handler not set from Python, which stays
            signal.signal(signal.SIGINT, previous)


def _in_batch(query) -> bool:
    """Whether a streaming query is running a micro-batch (or looking for its input) now."""
    try:
        return bool(query.isActive and query.status.get("isTriggerActive"))
    except Exception:  # noqa: BLE001 - ended, or its session stopped
        return False


def _between_batches(query) -> bool:
    """Whether a streaming query is between micro-batches: not running one now, nor a moment
    later (a batch may follow another at once, as the one that emits the windows the previous
    batch's watermark closed does)."""
    if _in_batch(query):
        return False
    time.sleep(0.1)
    return not _in_batch(query)


def _stop(query) -> None:
    try:
        query.stop()
    except Exception:  # noqa: BLE001 - already stopped
        pass


def _idles(query) -> bool:
    """A bounded query that only runs empty micro-batches now: its input is consumed, and
    what keeps it going is a processing-time timer (Spark runs another batch for those, even
    with the availableNow trigger). Flink, too, ends a bounded job without waiting for them."""
    recent = query.recentProgress[-2:]
    return len(recent) == 2 and all(p.get("numInputRows") == 0 for p in recent)
