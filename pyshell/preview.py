"""Previews: the leading rows of a DataStream, and the guarantee that no query outlives them.

A bounded stream is collected with a bounded batch query (``limit(n)``), except keyed
streams in STREAMING mode: their rolling results differ from BATCH mode's final ones, so they
run as a streaming query that ends by itself (``availableNow``). An unbounded stream runs as
a streaming query into a memory table, polled until ``n`` rows, the timeout, or ``idle``
seconds without new rows. The timeout counts from the query's first micro-batch with data,
so Spark's start-up (seconds for a first query) does not eat it. The query runs in a worker thread:
Ctrl-C in the shell only asks it to stop, and every path (rows, timeout, idle, error,
Ctrl-C) stops it.
"""
from __future__ import annotations

import contextlib
import itertools
import shutil
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterator, List, Optional, Tuple, TypeVar

from pyshell import render
from pystream.datastream.planning import plan_of
from pystream.runtime.errors import spark_error
from pystream.session import JobTag, get_session, is_remote
from pystream.table.planning import plan_of as table_plan_of

POLL_SECONDS = 0.1
CANCEL_GRACE_SECONDS = 2.0
NOTE_AFTER = 3.0  # seconds without a finished micro-batch before saying the query is starting
_names = itertools.count(1)
T = TypeVar("T")


@dataclass(frozen=True)
class Limits:
    """When a preview stops: ``n`` rows, ``timeout`` seconds, or ``idle`` seconds without new
    rows (counted from the latest row, while no micro-batch runs; None: never idle).

    The timeout counts from the first finished micro-batch that read data; the query gets
    ``startup`` more seconds to get there (a bounded collect gets ``startup + timeout``).
    """

    n: int = 10
    timeout: float = 10.0
    idle: Optional[float] = 5.0
    startup: float = 120.0


def stop_reason(limits: Limits, seen: int, running_for: Optional[float],
                idle_for: Optional[float], starting_for: float = 0.0) -> Optional[str]:
    """Why a running preview should stop now: 'rows', 'timeout', 'idle', or None.

    ``running_for``: seconds since the first micro-batch with data finished (None before);
    ``idle_for``: seconds since the latest new row (None before the first);
    ``starting_for``: seconds since the query started.
    """
    if seen >= limits.n:
        return "rows"
    if running_for is None and starting_for >= limits.startup + limits.timeout:
        return "timeout"
    if running_for is not None and running_for >= limits.timeout:
        return "timeout"
    if limits.idle is not None and idle_for is not None and idle_for >= limits.idle:
        return "idle"
    return None


@dataclass
class PreviewResult:
    """The rows a preview showed and why it stopped (``%preview -o`` returns it)."""

    columns: List[str]
    rows: list
    seen: int
    reason: str
    elapsed: float
    limits: Limits

    def footer(self) -> str:
        return render.footer(len(self.rows), self.seen, self.reason, self.elapsed,
                             self.limits.n, self.limits.timeout, self.limits.idle or 0)

    def text(self) -> str:
        return render.table(self.columns, self.rows) + "\n" + self.footer()

    def _repr_pretty_(self, printer, cycle) -> None:
        printer.text(self.text())

    def _repr_html_(self) -> str:
        return render.html_table(self.columns, self.rows) + "<p>%s</p>" % self.footer()

    def current_rows(self) -> "PreviewResult":
        """A Table's changelog preview (``op`` first) as the rows it leaves: ``+I``/``+U``
        add a row, ``-U``/``-D`` remove an equal one (the SQL client's table mode)."""
        if self.columns[:1] != ["op"]:
            return self
        current: list = []
        for op, *values in self.rows:
            if op in ("+I", "+U"):
                current.append(values)
            elif values in current:
                current.remove(values)
        return replace(self, columns=self.columns[1:], rows=current)


# ---------------------------------------------------------------------------------------------
# cancelling


class Cancellation:
    """Set by the shell (Ctrl-C) or by a timer; running work checks it or registers a hook.

    Hooks run in their own thread: the thread that cancels may be handling a Ctrl-C and must
    never be inside a call into the JVM when the next one arrives.
    """

    def __init__(self):
        self._event = threading.Event()
        self._hooks: List[Callable[[], None]] = []
        self._lock = threading.Lock()
        self.reason: Optional[str] = None

    def is_set(self) -> bool:
        return self._event.is_set()

    def wait(self, seconds: float) -> bool:
        return self._event.wait(seconds)

    def explains(self, error: BaseException) -> bool:
        """Whether a Spark call failed with ``error`` because we cancelled it. PySpark's own
        Ctrl-C handler cancels every job before the shell's thread sees the KeyboardInterrupt,
        so a job's cancellation may arrive first: then it waits a moment for ours."""
        if self._event.is_set():
            return True
        return "cancelled" in str(error).lower() and self._event.wait(CANCEL_GRACE_SECONDS)

    def cancel(self, reason: str = "interrupted") -> None:
        with self._lock:
            if self._event.is_set():
                return
            self.reason = reason
            self._event.set()
            hooks = list(self._hooks)
        if hooks:
            threading.Thread(target=lambda: [_quietly(h) for h in hooks], daemon=True,
                             name="pystream-shell-cancel").start()

    def on_cancel(self, hook: Callable[[], None]) -> None:
        with self._lock:
            if not self._event.is_set():
                self._hooks.append(hook)
                return
        _quietly(hook)


def _quietly(hook: Callable[[], None]) -> None:
    try:
        hook()
    except Exception:  # noqa: BLE001 - nothing left to cancel
        pass


def run_interruptible(task: Callable[[Cancellation], T], cancel: Optional[Cancellation] = None,
                      on_interrupt: Optional[Callable[[int], None]] = None) -> T:
    """Run ``task(cancel)`` in a worker thread. Ctrl-C here cancels it and waits until it has
    cleaned up (more Ctrl-Cs only call ``on_interrupt`` again); its result or error is ours."""
    cancel = cancel or Cancellation()
    outcome: dict = {}
    finished = threading.Event()  # not Thread.join: a Ctrl-C inside join() can corrupt it

    def target():
        try:
            outcome["value"] = task(cancel)
        except BaseException as e:  # noqa: BLE001 - re-raised in the calling thread
            outcome["error"] = e
        finally:
            finished.set()

    threading.Thread(target=target, daemon=True, name="pystream-shell-query").start()
    interrupts = 0
    while not finished.is_set():
        try:  # the whole wait loop inside: a Ctrl-C lands between any two bytecodes
            while not finished.wait(POLL_SECONDS):
                pass
        except KeyboardInterrupt:
            interrupts += 1
            try:
                cancel.cancel("interrupted")
                if on_interrupt is not None:
                    on_interrupt(interrupts)
            except KeyboardInterrupt:
                interrupts += 1
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


# ---------------------------------------------------------------------------------------------
# compiling


@contextlib.contextmanager
def compiled_stream(plan, with_watermark: bool = False) -> Iterator[Any]:
    """``compile_stream(plan)``, its temporary files removed when the block ends."""
    from pystream.compiler import compile_stream

    compiled = compile_stream(plan, with_watermark)
    try:
        yield compiled
    finally:
        compiled.close()


@contextlib.contextmanager
def compiled_frame(plan) -> Iterator[Any]:
    """The Spark DataFrame a plan (a stream's or a table query's) computes, while the block
    runs."""
    if plan.query is None:
        with compiled_stream(plan) as compiled:
            yield compiled.df
        return
    from pystream.compiler.table_job import TableJob

    yield TableJob(plan).frame()[0]


# ---------------------------------------------------------------------------------------------
# the two ways to preview


def preview(ds, limits: Limits = Limits(), cancel: Optional[Cancellation] = None,
            note: Callable[[str], None] = lambda text: None) -> PreviewResult:
    """The leading rows of ``ds`` (blocks; run it under ``run_interruptible`` in a shell).

    >>> preview(env.from_collection([1, 2, 3]), Limits(n=2)).rows   # doctest: +SKIP
    [1, 2]
    """
    cancel = cancel or Cancellation()
    started = time.monotonic()
    plan = plan_of(ds)
    with compiled_stream(plan) as compiled:
        if not compiled.streaming:
            return _collect(compiled, limits, cancel, started)
        spark = get_session()
        if compiled.shuffle_partitions:
            spark.conf.set("spark.sql.shuffle.partitions", str(compiled.shuffle_partitions))
        with StreamTap(spark, compiled.df, compiled.decode, bounded=plan.bounded) as tap:
            return _poll(tap, compiled.columns, limits, cancel, started, note)


def preview_table(table, limits: Limits = Limits(),
                  cancel: Optional[Cancellation] = None) -> PreviewResult:
    """The leading rows of a Table; an updating table (STREAMING mode) shows its changelog,
    each row with its ``op`` (+I, -U, +U, -D), as ``TableResult.print()`` does."""
    from pystream.compiler.table_job import TableJob

    cancel = cancel or Cancellation()
    started = time.monotonic()
    plan = table_plan_of(table)
    job = TableJob(plan)
    if job.unbounded:
        return _preview_unbounded_table(job, limits, cancel, started)
    df, updating = job.frame()
    timer = threading.Timer(limits.startup + limits.timeout, cancel.cancel, args=("timeout",))
    timer.daemon = True
    rows: list = []
    reason = "end"
    with JobTag(get_session(), "pystream-preview") as tag:
        cancel.on_cancel(tag.cancel)
        timer.start()
        try:
            for row in job.rows((df.limit(limits.n + 1), updating)):
                rows.append(([str(row.get_row_kind())] if job.streaming else []) + list(row))
            reason = "rows" if len(rows) > limits.n else "end"
        except Exception as e:
            if not cancel.explains(e):
                raise
            reason = cancel.reason
        finally:
            timer.cancel()
    columns = (["op"] if job.streaming else []) + list(job.rel.schema.names)
    return PreviewResult(columns, rows[:limits.n], len(rows), reason,
                         time.monotonic() - started, limits)


def _preview_unbounded_table(job, limits: Limits, cancel: Cancellation,
                             started: float) -> PreviewResult:
    """The leading changes of a query over an unbounded table: its streaming job runs until
    ``n`` rows came, the timeout, or Ctrl-C, and is cancelled then."""
    names = list(job.rel.schema.names)
    result = job.query_rows().rows()
    cancel.on_cancel(result.close)
    timer = threading.Timer(limits.startup + limits.timeout, cancel.cancel, args=("timeout",))
    timer.daemon = True
    timer.start()
    rows: list = []
    reason = "end"
    try:
        for row in result:
            rows.append([str(row.get_row_kind())] + list(row))
            if len(rows) > limits.n:
                reason = "rows"
                break
    except Exception as e:
        if not cancel.explains(e):
            raise
    finally:
        timer.cancel()
        result.close()
    if cancel.is_set() and reason != "rows":
        reason = cancel.reason
    return PreviewResult(["op"] + names, rows[:limits.n], len(rows), reason,
                         time.monotonic() - started, limits)


def _collect(compiled, limits: Limits, cancel: Cancellation, started: float) -> PreviewResult:
    timer = threading.Timer(limits.startup + limits.timeout, cancel.cancel, args=("timeout",))
    timer.daemon = True
    with JobTag(get_session(), "pystream-preview") as tag:
        cancel.on_cancel(tag.cancel)
        timer.start()
        try:
            rows = compiled.decode(compiled.df.limit(limits.n + 1).toArrow())
            reason = "rows" if len(rows) > limits.n else "end"
        except Exception as e:  # noqa: BLE001 - Spark's errors, made short
            if not cancel.explains(e):
                raise spark_error(e) from None
            rows, reason = [], cancel.reason
        finally:
            timer.cancel()
    return PreviewResult(compiled.columns, rows[:limits.n], len(rows), reason,
                         time.monotonic() - started, limits)


def _poll(tap: "StreamTap", columns: List[str], limits: Limits, cancel: Cancellation,
          started: float, note: Callable[[str], None]) -> PreviewResult:
    """Read new rows after each micro-batch until a stop reason. While fewer than ``n`` rows
    came, all of them were read; only then does counting the rest take a Spark job."""
    rows: list = []
    last_rows_at = running_since = None
    noted, reason = False, None
    while reason is None:
        try:
            changed, ended = tap.poll()
            new = tap.rows(len(rows), limits.n - len(rows)) if changed else []
        except Exception as e:
            if not cancel.explains(e):
                raise
            reason = cancel.reason
            break
        now = time.monotonic()
        if running_since is None and tap.running:
            running_since = now
        elif running_since is None and not noted and now - started > NOTE_AFTER:
            note("the query is starting (its first micro-batch with data)…")
            noted = True
        if new:
            rows, last_rows_at = rows + new, now
        if ended:
            reason = "end"
        else:
            reason = stop_reason(limits, len(rows),
                                 None if running_since is None else now - running_since,
                                 None if last_rows_at is None else now - last_rows_at,
                                 now - started)
            if reason == "idle" and tap.busy():
                reason = None  # a micro-batch is still running: rows may come
        if reason is None and cancel.wait(POLL_SECONDS):
            reason = cancel.reason
    seen = tap.count() if len(rows) >= limits.n else len(rows)
    return PreviewResult(columns, rows, seen, reason, time.monotonic() - started, limits)


class StreamTap:
    """A streaming query of ``df`` into a memory table, read as it grows; leaving the
    ``with`` block stops the query, drops the table and deletes the checkpoint."""

    def __init__(self, spark, df, decode: Callable[[Any], list], bounded: bool = False):
        self.spark = spark
        self.decode = decode
        self.name = "pystream_preview_%d_%s" % (next(_names), uuid.uuid4().hex[:8])
        self.running = False  # a micro-batch with input has finished
        self._batch_id: Optional[int] = None
        # over Spark Connect the checkpoint lives on the server: Spark makes and deletes one
        self.checkpoint = None if is_remote(spark) else tempfile.mkdtemp(
            prefix="pystream-preview-")
        writer = (df.writeStream.format("memory").queryName(self.name).outputMode("append"))
        if bounded:
            writer = writer.trigger(availableNow=True)
        if self.checkpoint:
            writer = writer.option("checkpointLocation", self.checkpoint)
        try:
            self.query = writer.start()
        except Exception as e:  # noqa: BLE001 - Spark's errors, made short
            self._cleanup()
            raise spark_error(e) from None

    def __enter__(self) -> "StreamTap":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def progress(self) -> Optional[dict]:
        return self.query.lastProgress

    def busy(self) -> bool:
        """Whether a micro-batch is running now."""
        return bool(self.query.status.get("isTriggerActive"))

    def poll(self) -> Tuple[bool, bool]:
        """(a micro-batch finished since the last poll, the query has ended); raises the
        short form of the query's error if it failed."""
        active = self.query.isActive
        if not active and self.query.exception() is not None:
            raise spark_error(self.query.exception())
        progress = self.query.lastProgress
        batch_id = progress["batchId"] if progress else None
        changed, self._batch_id = batch_id != self._batch_id, batch_id
        self.running = self.running or bool(progress and progress["numInputRows"])
        return changed or not active, not active

    def count(self) -> int:
        """Rows in the memory table."""
        return self.spark.table(self.name).count()

    def rows(self, offset: int, limit: int) -> list:
        """Decoded rows ``offset`` to ``offset + limit`` of the memory table."""
        table = self.spark.table(self.name).offset(offset).limit(limit).toArrow()
        return self.decode(table)

    def stop(self) -> None:
        try:
            self.query.stop()
        finally:
            self._cleanup()

    def _cleanup(self) -> None:
        try:
            self.spark.catalog.dropTempView(self.name)
        except Exception:  # noqa: BLE001 - the table never existed
            pass
        if self.checkpoint:
            shutil.rmtree(self.checkpoint, ignore_errors=True)
