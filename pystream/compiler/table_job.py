"""Running Table jobs on Spark: a query's rows, an INSERT into a connector table, pandas.

The effects of the Table API live here: starting Spark (``pystream.session.get_session``),
running the DataFrames that ``relational.translate`` builds, printing the print connector's
lines. Rows reach Python as Flink's values with their row kinds.
"""
from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import itertools
import logging
import math
import re
import struct
import sys
import time
from typing import Any, Callable, Dict, Iterator, List, Optional

from pyspark.sql import functions as F

from pystream import graph
from pystream.common.closeable_iterator import CloseableIterator
from pystream.common.data_types import (
    ArrayType,
    BinaryType,
    FloatType,
    IntType,
    SmallIntType,
    TimestampType,
    TinyIntType,
    VarBinaryType,
)
from pystream.common.job import CompletableFuture, JobID, JobStatus
from pystream.common.table_formatting import changelog_line
from pystream.common.time import duration_millis
from pystream.common.typeinfo import Types
from pystream.common.types import Row, RowKind
from pystream.compiler import table_connectors
from pystream.compiler.bad_records import explained
from pystream.compiler.connector_options import check_options
from pystream.compiler.expressions import quoted
from pystream.compiler.job import FinishedJob, Job, record_finished
from pystream.compiler.relational import OP, SEQ, SUB, Context, Frame, context, translate
from pystream.compiler.translate import Compiler
from pystream.compiler.udfs import FunctionOptions, function_options
from pystream.core.connectors.table import TableCollectSink, TableConnectorSink, TableSource
from pystream.dependencies import job_dependencies, prepare
from pystream.errors import JobExecutionError, PystreamError
from pystream.plan import JobSettings, Plan, plan
from pystream.plan.planner import streams_of
from pystream.plan.relational import reads_changelog
from pystream.relational import operations as ops
from pystream.relational.catalog import CatalogTable, written_columns
from pystream.relational.explain import explain
from pystream.relational.schema import Schema
from pystream.runtime.errors import find_report, job_error_from
from pystream.runtime.metric_reports import MetricsTarget, make_job_target
from pystream.session import get_session
from pystream.util.exceptions import TableException, ValidationException

__all__ = ["TableJob"]

PART = "__part"  # the Spark partition a row was computed in (the print sink's subtask)


def _takes_changelog(options, primary_key) -> bool:
    """Whether a sink takes updates: print and blackhole, upsert-kafka, jdbc with a key,
    filesystem and kafka in a changelog format (debezium-json, canal-json, maxwell-json)."""
    connector = options.get("connector")
    return connector in ("print", "blackhole", "upsert-kafka") or (
        connector == "jdbc" and bool(primary_key)) or (
        connector in ("filesystem", "kafka") and reads_changelog(options))


class TableJob:
    """One run of a Table query's plan (``pystream.plan.plan_query``): the plan's query,
    compiled in the plan's mode, as the shell's ``%explain`` shows it."""

    def __init__(self, plan: Plan):
        query = plan.query  # pystream.table.planning.TableQuery
        self.plan = plan
        self.streaming = not plan.settings.batch
        self.config = query.config
        self.env_parallelism = query.env_parallelism  # a StreamExecutionEnvironment's own
        self.stream_settings = query.stream_settings  # of the DataStream jobs it may run
        self.unbounded = self.streaming and not plan.bounded  # runs as a streaming job
        self.rel: ops.Rel = plan.roots[0]  # the query it computes
        self.job_id = JobID()  # a bounded statement's (an unbounded one runs as a Job)
        self._metrics: Optional[MetricsTarget] = None  # its functions' metrics, while it runs
        self._cached: List = []  # DataFrames in Spark's cache while it runs (read once)
        self._final_metrics: Optional[dict] = None

    def _context(self, compiler=None, read_once: bool = False) -> Context:
        spark = compiler.spark if compiler is not None else get_session()
        # (unset or 'default': the session's own; another environment's may have been set)
        zone = self.config.get_local_timezone()
        spark.conf.set("spark.sql.session.timeZone", zone)
        arrow_batch = self.config.get("python.fn-execution.arrow.batch.size")
        if arrow_batch:  # the Arrow batches Python functions get
            spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", str(int(arrow_batch)))
        bundle = int(self.config.get("python.fn-execution.bundle.size") or 100000)
        if compiler is not None:  # an unbounded query in a streaming DataStream job
            return context(spark, changelog=False, unbounded=True, compiler=compiler,
                           time_zone=zone, bundle_size=bundle,
                           state_ttl_ms=self._state_ttl_ms())
        return context(spark, changelog=self.streaming, time_zone=zone, bundle_size=bundle,
                       shared_reads=self.plan.shared_reads if read_once else {})

    def _translated(self, ctx: Context) -> Frame:
        """The frame of the query, compiled as planned."""
        with function_options(self._prepared_function_options(ctx.compiler)):
            frame: Frame = translate(self.rel, ctx)
        self._cached.extend(f.df for f in ctx.shared_frames.values() if f is not None)
        self._check_compiled_as_planned(ctx, frame)
        return frame

    @property
    def cached_frames(self) -> List:
        """The DataFrames the job keeps in Spark's cache while it runs."""
        return list(self._cached)

    def _uncache(self) -> None:
        """Drop what the job kept in Spark's cache (tables read once for several uses)."""
        cached, self._cached = self._cached, []
        for df in cached:
            df.unpersist()

    @contextlib.contextmanager
    def _uncached_if_it_fails(self) -> Iterator[None]:
        """A run that fails drops what it kept in Spark's cache too (``ended`` does it for
        one that succeeds)."""
        try:
            yield
        except BaseException:
            self._uncache()
            raise

    def _prepared_function_options(self, compiler=None) -> FunctionOptions:
        """What the job's user functions are told (job parameters, async options), with the
        Python dependencies they travel with (``add_python_file``, ``set_python_requirements``,
        ``add_python_archive``, ``python.*`` keys; requirements installed now) and where
        their metrics add up (an unbounded query's job's, else the statement's)."""
        bundle = prepare(job_dependencies(self.config.get_configuration()))
        if str(self.config.get("python.metric.enabled")).lower() == "false":
            metrics = None
        elif compiler is not None:
            metrics = compiler.metrics
        else:
            if self._metrics is None:
                self._metrics = make_job_target(str(self.job_id))
            metrics = self._metrics
        return FunctionOptions.of(self.config.to_map(), bundle, metrics)

    def metrics(self) -> dict:
        """The metrics of the statement's functions: now, or their final values once it
        has run (``ended``)."""
        if self._final_metrics is not None:
            return dict(self._final_metrics)
        return self._metrics.read() if self._metrics is not None else {}

    def _name(self, default: str) -> str:
        """The job's name: ``pipeline.name``, else Flink's for the statement."""
        return self.config.get("pipeline.name") or default

    @property
    def has_run(self) -> bool:
        return self._final_metrics is not None

    def ended(self, name: str, started: float) -> None:
        """The bounded statement ``name`` that started at ``started`` has run: its functions'
        final metrics are read (and kept for the shell's ``%jobs`` when there are any)."""
        self._uncache()
        target, self._metrics = self._metrics, None
        self._final_metrics = target.final(ended_at=time.time()) if target else {}
        if self._final_metrics:
            record_finished(FinishedJob(str(self.job_id), name, JobStatus.FINISHED,
                                        not self.streaming, time.time() - started,
                                        dict(self._final_metrics)))

    def _state_ttl_ms(self) -> Optional[int]:
        """``table.exec.state.ttl``: how long a key's state lives after its last change
        (None, or 0 as in Flink: for ever)."""
        ttl = self.config.get("table.exec.state.ttl")
        return (duration_millis(str(ttl)) or None) if ttl else None

    def frame(self, subtasks: bool = False, compiler=None, ordered: bool = True,
              read_once: bool = False, in_each_partition: bool = False):
        """The Spark DataFrame of the query's rows in order, with ``__op`` when updating (and,
        with ``subtasks``, ``__part``: the Spark partition each row was computed in). An
        unbounded query is a streaming DataFrame, in a job of ``compiler``. Without
        ``ordered`` (a sink that discards its rows) the rows stay in the partitions they are
        computed in, not gathered into one and sorted. With ``read_once`` (a run to the
        end, which ``ended`` follows) a table read more than once is read once, into Spark's
        cache. With ``in_each_partition`` an insert-only result is in order within each
        partition, not gathered into one (a sink whose parallel tasks write their own
        files, as Flink's subtasks do)."""
        if compiler is None and self.unbounded:
            return self._unbounded_plan()
        ctx = self._context(compiler, read_once)
        frame = self._translated(ctx)
        names = [quoted(n) for n in self.rel.schema.names]
        if ctx.unbounded:
            return frame.df.select(*names, *([F.col(OP)] if frame.updating else [])), \
                frame.updating
        df = frame.df.withColumn(PART, F.spark_partition_id()) if subtasks else frame.df
        part = [F.col(PART)] if subtasks else []
        updating = ctx.changelog and frame.updating
        if ctx.changelog and ordered and in_each_partition and not updating:
            df = df.sortWithinPartitions(SEQ)
        elif ctx.changelog and ordered:
            df = _in_order(df, SEQ, SUB) if updating else _in_order(df, SEQ)
        return df.select(*names, *([F.col(OP)] if updating else []), *part), updating

    def _check_compiled_as_planned(self, ctx: Context, frame: Frame) -> None:
        """The compiler followed the plan: it translated each of the plan's operators, and
        the result is the changelog the plan said (an internal error otherwise: the shell
        would show another plan than the one that runs)."""
        planned = {op.node_id: op.name for stage in self.plan.stages for op in stage.operators}
        if self.rel is not self.plan.roots[0]:  # an unbounded query's leading LIMIT
            planned.pop(id(self.plan.roots[0]), None)
        missing = sorted(name for node_id, name in planned.items()
                         if node_id not in ctx.translated)
        if missing or bool(frame.updating) != self.plan.updating:
            raise PystreamError(
                "internal: the Table query was not compiled as planned: %s" % (
                    "operators %s not translated" % ", ".join(missing) if missing else
                    "planned %s, compiled %s" % (_changelog(self.plan.updating),
                                                 _changelog(frame.updating))))

    @property
    def parallelism(self) -> int:
        return self.plan.settings.parallelism

    def _unbounded_plan(self):
        """An unbounded query planned in a job that is not started (explain, checks)."""
        compiler = Compiler(get_session(), plan(streams_of(self.rel), JobSettings(batch=False)))
        return self.frame(compiler=compiler)

    # -- unbounded queries: streaming DataStream jobs

    def _stream_job(self, sink, name: str):
        """The job of ``Source(TableSource(query)) -> Sink(sink)``, not started."""
        settings = dataclasses.replace(self.stream_settings,
                                       job_name=self.config.get("pipeline.name") or name,
                                       runtime_mode="STREAMING",
                                       parallelism=self.parallelism, **self._checkpointing())
        rel = self.rel
        type_info = Types.ROW_NAMED(list(rel.schema.names),
                                    [t.to_type_info() for t in rel.schema.types])
        source = graph.Source(meta=graph.Meta(name="Source: Table"), output_type=type_info,
                              source=TableSource(self, rel, bounded=False), bounded=False)
        # the checkpoint of a kept job lives under <dir>/<job name>/<uid>: the same statement
        # started again finds it
        uid = "table-%s" % hashlib.sha1(explain(rel).encode()).hexdigest()[:12]
        node = graph.Sink(meta=graph.Meta(name=name, uid=uid), output_type=type_info,
                          input=source, sink=sink)
        return Job.prepare(plan([node], settings))

    def _checkpointing(self) -> dict:
        """JobSettings from Flink's checkpoint options in the TableConfig (``SET`` in SQL):
        ``execution.checkpointing.interval`` and ``execution.checkpointing.dir`` (or
        ``state.checkpoints.dir``)."""
        changes = {}
        interval = self.config.get("execution.checkpointing.interval")
        if interval:
            changes["checkpoint_interval_ms"] = duration_millis(str(interval))
        directory = self.config.get("execution.checkpointing.dir") or \
            self.config.get("state.checkpoints.dir")
        if directory:
            changes["checkpoint_dir"] = str(directory)
        return changes

    def _unbounded_rows(self) -> "QueryRows":
        self.rel, limit = _leading_limit(self.rel)  # LIMIT n: its first n rows
        self.frame()  # planned now: a query Spark cannot run fails here

        def rows() -> CloseableIterator:
            sink = TableCollectSink()
            streaming = _StreamingRows(self._stream_job(sink, "collect"), sink)
            if limit is None:
                return streaming
            return CloseableIterator(itertools.islice(streaming, limit), streaming.close)

        return QueryRows(rows, client=None, unbounded=limit is None)

    def _unbounded_insert(self, name: str, target: CatalogTable,
                          physical: Schema, primary_key, metadata: Dict[str, str]
                          ) -> "UnboundedStatementClient":
        _, updating = self.frame()  # planned now: a query Spark cannot run fails here
        if updating and not _takes_changelog(target.options, primary_key):
            raise TableException(
                "Table sink 'default_catalog.default_database.%s' doesn't support consuming "
                "update changes." % name)
        sink = TableConnectorSink(name, target.options, physical, target.partition_keys,
                                  primary_key, metadata)
        job = self._stream_job(sink, "insert-into_default_catalog.default_database.%s"
                               % name).start()
        return UnboundedStatementClient(job)

    def spark_plan(self) -> str:
        """Spark's physical plan of the query (what ``explain()`` shows under Flink's
        "Optimized Execution Plan")."""
        import contextlib
        import io

        df, _ = self.frame(read_once=True)
        text = io.StringIO()
        with contextlib.redirect_stdout(text):  # DataFrame.explain prints, classic or Connect
            df.explain()
        self._uncache()
        return text.getvalue().strip()

    def rows(self, frame=None) -> Iterator[Row]:
        for row, _ in self.rows_with_subtasks(frame):
            yield row

    def rows_with_subtasks(self, frame=None) -> Iterator:
        """(row, Spark partition or None) for each row, the partition when ``frame`` has
        ``__part``."""
        df, updating = frame or self.frame(read_once=True)
        types = list(self.rel.schema.types)
        width = len(types)
        readers = [_collected_reader(t) for t in types]
        for spark_row in _spark_rows(df):
            values = [read(v) for read, v in zip(readers, spark_row)]
            row = Row(*values)
            if updating:
                row.set_row_kind(RowKind(spark_row[width]))
            yield row, spark_row[-1] if len(spark_row) > width + updating else None

    def query_rows(self) -> "QueryRows":
        """The query's rows: computed when first read (a bounded query), or a streaming
        job's as they come (an unbounded one)."""
        if self.unbounded:
            return self._unbounded_rows()
        frame = self.frame(read_once=True)  # planned now: a query Spark cannot run fails here
        cached: List[Row] = []
        done = []

        def rows() -> CloseableIterator:
            if not done:  # the job runs once; collect() and print() share its rows
                started = time.time()
                with self._uncached_if_it_fails():
                    cached.extend(self.rows(frame))
                self.ended(self._name("collect"), started)
                done.append(True)
            return CloseableIterator(iter(list(cached)))

        return QueryRows(rows, client=StatementClient(self))

    def to_pandas(self):
        import pandas as pd

        names = list(self.rel.schema.names)
        if self.unbounded:
            if _leading_limit(self.rel)[1] is None:
                raise ValidationException(
                    "to_pandas() of a table that reads an unbounded source would never end: "
                    "limit it (table.limit(n)), take the leading rows with "
                    "execute().collect() (and close it), or make the source bounded "
                    "('number-of-rows', 'scan.bounded.mode').")
            with self.query_rows().rows() as leading:
                rows = list(leading)
        else:
            started = time.time()
            with self._uncached_if_it_fails():
                rows = list(self.rows())
            self.ended(self._name("collect"), started)
        final = _final_rows(rows) if self.streaming else rows
        frame = pd.DataFrame([list(r) for r in final], columns=names)
        return _with_pyflink_dtypes(frame, self.rel.schema)

    def insert(self, name: str, target: CatalogTable, overwrite: bool):
        """INSERT INTO the connector table ``target``: runs now (a bounded query) or starts
        its streaming job (an unbounded one); the client of the statement's job."""
        rel = self.rel
        physical, metadata = written_columns(target)
        primary_key = tuple(target.schema.primary_key)
        check_options(name, target.options, physical, source=False)
        _check_insert(rel.schema, physical, name)
        if self.unbounded:
            return self._unbounded_insert(name, target, physical, primary_key,
                                          metadata)
        started = time.time()
        with self._uncached_if_it_fails():
            self._write(name, target, physical, primary_key, metadata, overwrite)
        self.ended(self._name("insert-into_default_catalog.default_database.%s" % name),
                   started)
        return StatementClient(self)

    def _write(self, name: str, target: CatalogTable, physical: Schema, primary_key,
               metadata: Dict[str, str], overwrite: bool) -> None:
        """The bounded query's rows into ``target``, by its connector."""
        connector = target.options.get("connector")
        if connector == "print":
            self._print(physical, target.options)
        elif connector in table_connectors.KEYED_SINKS:
            self._to_keyed_sink(name, target, physical, primary_key, metadata)
        else:
            writer = table_connectors.SINKS.get(connector)
            if writer is None:
                raise ValidationException(
                    "Connector '%s' can only be used as a source. It cannot be used as a sink."
                    % connector)
            df, updating = self.frame(
                ordered=connector not in UNORDERED_SINKS, read_once=True,
                in_each_partition=connector in PARALLEL_FILE_SINKS and self.parallelism > 1)
            if updating and not _takes_changelog(target.options, primary_key):
                raise TableException(
                    "Table sink '%s' doesn't support consuming update changes." % name)
            columns = [quoted(a).cast(f.data_type.spark_type()).alias(f.name)
                       for a, f in zip(self.rel.schema.names, physical)]
            kinds = [F.col(OP)] if updating else []
            with spark_job_errors():
                writer(df.select(*columns, *kinds), target.options, physical,
                       list(target.partition_keys), overwrite)

    def _to_keyed_sink(self, name: str, target: CatalogTable,
                       physical: Schema, primary_key, metadata: Dict[str, str]) -> None:
        """A bounded query into kafka, upsert-kafka or jdbc; a STREAMING changelog goes into
        a table with a primary key as each key's last change (its final value, or a
        deletion)."""
        from pyspark.sql import Window

        rel = self.rel
        frame = self._translated(self._context(read_once=True))
        updating, df = frame.updating, frame.df
        if updating and not _takes_changelog(target.options, primary_key):
            raise TableException(
                "Table sink 'default_catalog.default_database.%s' doesn't support consuming "
                "update changes." % name)
        columns = [quoted(a).cast(f.data_type.spark_type()).alias(f.name)
                   for a, f in zip(rel.schema.names, physical)]
        if updating and reads_changelog(target.options):  # every change, in order
            df = _in_order(df, SEQ, SUB).select(*columns, F.col(OP))
        elif updating:
            last = Window.partitionBy(*[quoted(k) for k in primary_key]).orderBy(
                F.col(SEQ).desc(), F.col(SUB).desc())
            df = df.select(*columns, F.col(OP), F.col(SEQ), F.col(SUB)) \
                .withColumn("__n", F.row_number().over(last)).where(F.col("__n") == 1) \
                .select(*[quoted(f.name) for f in physical], F.col(OP))
        else:
            df = df.select(*columns)
        table_connectors.KEYED_SINKS[target.options["connector"]](target.options, physical, name,
                                                   primary_key, metadata)(df)

    def _print(self, physical: Schema, options) -> None:
        """The print connector: ``+I[...]`` lines, prefixed as Flink's print sink does: the
        identifier, and with a parallelism above 1 the subtask (``evens:2> ``, ``1> ``)."""
        identifier = options.get("print-identifier")
        stream = sys.stderr if options.get("standard-error") == "true" else None
        types = list(physical.types)
        p = self.parallelism
        for row, part in self.rows_with_subtasks(self.frame(subtasks=p > 1, read_once=True)):
            if p > 1:
                prefix = "%s%d> " % (identifier + ":" if identifier else "", part % p + 1)
            else:
                prefix = "%s> " % identifier if identifier else ""
            print(prefix + changelog_line(row, types), file=stream)


# sinks whose rows nobody sees, so their order needs no sort
UNORDERED_SINKS = ("blackhole",)
# sinks whose parallel tasks each write their own files, in their rows' order
PARALLEL_FILE_SINKS = ("filesystem",)


def _changelog(updating: bool) -> str:
    return "an updating changelog" if updating else "inserts only"


def _collected_reader(data_type):
    """How a field's Spark value becomes the value PyFlink's ``collect()`` gives: the type's
    Python value, and BINARY and BYTES as a ``bytearray`` (Java's byte[] unpickled; a Python
    function gets ``bytes``), a FLOAT as its shortest decimal (Java's float as text)."""
    if isinstance(data_type, (BinaryType, VarBinaryType)):
        return lambda value: None if value is None else bytearray(value)
    if isinstance(data_type, FloatType):
        return shortest_single
    return data_type.python_value


def shortest_single(value: Optional[float]) -> Optional[float]:
    """A 32-bit float (widened to Python's float) as the shortest decimal that is the same
    32-bit float, as Java writes a float: 0.1, not 0.10000000149011612."""
    if value is None or not math.isfinite(value):
        return value
    single = struct.pack("<f", value)
    for digits in range(1, 10):
        shorter = float("%.*g" % (digits, value))
        if struct.pack("<f", shorter) == single:
            return shorter
    return value


def _in_order(df, *columns: str):
    """``df`` sorted by ``columns`` in one partition (a bounded result on its way to the
    driver): Spark's global sort would sample its input first, running the query, and its
    Python functions, twice."""
    return df.repartition(1).sortWithinPartitions(*columns)


def _leading_limit(rel: ops.Rel):
    """(the query, n) for ``LIMIT n`` / ``fetch(n)`` over an unbounded query, whose result
    is then its first n rows (the job stops after them); else (rel, None)."""
    if isinstance(rel, ops.Sort) and not rel.keys and not rel.offset \
            and rel.fetch is not None:
        return rel.input, rel.fetch
    return rel, None


@dataclasses.dataclass(frozen=True)
class QueryRows:
    """What a query statement's TableResult shows: its rows (``rows()``: each call a new
    iterator), the client of its job, and whether the rows come as an unbounded job runs."""

    rows: Callable[[], CloseableIterator]
    client: Any
    unbounded: bool = False


class UnboundedStatementClient:
    """``TableResult.get_job_client()`` of a streaming job: its id, status, cancel, wait."""

    def __init__(self, job):
        self.job = job

    def get_job_id(self):
        return self.job.job_id

    def get_job_status(self):
        import concurrent.futures

        future = concurrent.futures.Future()
        future.set_result(self.job.status())
        return future

    def cancel(self):
        """Stops the job (a checkpointed one after its current micro-batch, so that the
        statement started again resumes); the future is done: the job is stopped."""
        self.job.cancel()
        return CompletableFuture.completed(None)

    def get_metrics(self) -> dict:
        """The metrics of the job's functions by name, now (``pystream.metrics``)."""
        return self.job.metrics()

    def wait(self, timeout_ms: Optional[int] = None) -> None:
        """Blocks until the job ends (an unbounded one: until cancelled, or Ctrl-C)."""
        import concurrent.futures

        timeout = None if timeout_ms is None else timeout_ms / 1000
        try:
            self.job.result(timeout=timeout)
        except concurrent.futures.TimeoutError:
            return
        except JobExecutionError as e:
            raise _table_error(e) from None
        except KeyboardInterrupt:
            self.job.cancel()
            raise


class StatementClient:
    """``TableResult.get_job_client()`` of a bounded statement, which runs in the caller's
    thread (a query's when its rows are first read)."""

    def __init__(self, job: TableJob):
        self.job = job

    def get_job_id(self):
        return self.job.job_id

    def get_job_status(self):
        done = self.job.has_run
        return CompletableFuture.completed(JobStatus.FINISHED if done else JobStatus.CREATED)

    def cancel(self):
        return CompletableFuture.completed(None)

    def wait(self, timeout_ms: Optional[int] = None) -> None:
        """The statement has run (a query runs when its rows are read)."""

    def get_metrics(self) -> dict:
        """The metrics of the statement's functions by name (``pystream.metrics``)."""
        return self.job.metrics()


class _StreamingRows(CloseableIterator):
    """The rows of an unbounded query, as its streaming job delivers them; ``close()`` (or
    leaving the ``with`` block, or Ctrl-C) cancels the job."""

    def __init__(self, job, sink):
        import queue

        self._job = job
        self._queue: "queue.Queue" = queue.Queue()
        self._started = False
        self._done = False
        self._buffer: Iterator[Row] = iter(())
        sink.consumer = self._queue.put
        super().__init__(self, self._cancel)

    def _start(self) -> None:
        import threading

        self._job.start()
        self._started = True

        def watch():
            try:
                self._job.future.result()
            except BaseException as e:  # noqa: BLE001 - handed to the reader
                self._queue.put(e)
            self._queue.put(None)
        threading.Thread(target=watch, daemon=True, name="pystream-table-rows").start()

    def __next__(self) -> Row:
        import queue

        if not self._started:
            self._start()
        while True:
            row = next(self._buffer, None)
            if row is not None:
                return row
            if self._done:
                raise StopIteration
            try:
                item = self._queue.get(timeout=0.2)
            except queue.Empty:
                continue
            except KeyboardInterrupt:
                self.close()
                raise
            if item is None or isinstance(item, BaseException):
                stopped_here = self._done  # close() cancelled the job: its end, not an error
                self._done = True
                if isinstance(item, BaseException) and not stopped_here:
                    raise _table_error(item) from None
                continue
            self._buffer = iter(item)

    def _cancel(self) -> None:
        import concurrent.futures

        self._done = True
        if self._started and not self._job.future.done():
            self._job.cancel()
            concurrent.futures.wait([self._job.future], timeout=60)


def _table_error(error: BaseException) -> BaseException:
    """A streaming job's failure as the Table API reports it."""
    if isinstance(error, (TableException, ValidationException)):
        return error
    text = str(error)
    if text.startswith("Spark failed: "):  # Spark's own error, not a user function's
        return TableException("The Table job failed: %s" % _spark_message(
            text[len("Spark failed: "):]))
    return error


def _spark_rows(df) -> Iterator:
    """The rows of ``df`` (a failing Spark job: see ``spark_job_errors``)."""
    with spark_job_errors():
        yield from df.collect()


@contextlib.contextmanager
def spark_job_errors() -> Iterator[None]:
    """A failure of the Spark job run inside is a short TableException (Spark's message
    without JVM frames), not Py4J's wall of text; a user function's, its line and row."""
    logging.getLogger("DataFrameQueryContextLogger").setLevel(logging.CRITICAL)
    try:
        yield
    except Exception as e:
        if type(e).__module__.startswith(("pyspark", "py4j")):
            report = find_report(str(e))  # a user function failed: its line and row
            if report is not None:
                raise job_error_from(report) from None
            raise TableException("The Table job failed: %s" % _spark_message(str(e))) from None
        raise


def _spark_message(text: str) -> str:
    """Spark's own error (``[ARITHMETIC_OVERFLOW] overflow. ...``) out of a Py4J report."""
    found = re.search(r"\[[A-Z][A-Z_.]+\][^\n]*", text)
    if not found:  # a Python worker's failure without Spark's error class: what it raised
        raised = _raised(text.split("\n\tat ")[0])
        first = text.strip().splitlines()[0]
        return first + (" " + raised if raised and raised not in first else "")
    line = found.group(0)
    if line.startswith("[USER_RAISED_EXCEPTION] "):  # pystream's own check, as it said it
        return explained(re.sub(r" SQLSTATE: \w+$", "", line[len("[USER_RAISED_EXCEPTION] "):]))
    if line.rstrip().endswith("Traceback (most recent call last):"):  # a Python worker's
        raised = _raised(text[found.end():].split("\n\tat ")[0])  # not the JVM's frames
        if raised:
            line = line[:line.index("Traceback")] + raised
    return line


def _raised(traceback: str) -> Optional[str]:
    """The last exception a Python traceback's text shows (``ValueError: ...``)."""
    raised = [t.strip() for t in traceback.splitlines()
              if re.match(r"[A-Za-z_][\w.]*(Error|Exception)\b", t.strip())]
    return raised[-1] if raised else None


def _check_insert(query: Schema, sink: Schema, name: str) -> None:
    if len(query) != len(sink):
        raise ValidationException(
            "Column types of query result and sink for 'default_catalog.default_database.%s' "
            "do not match.\nCause: Different number of columns.\n\nQuery schema: [%s]\n"
            "Sink schema:  [%s]" % (name, _schema_text(query), _schema_text(sink)))


def _schema_text(schema: Schema) -> str:
    return ", ".join("%s: %s" % (f.name, f.data_type.summary_string()) for f in schema)


# the dtypes PyFlink's Arrow conversion gives, where pandas' own inference differs
def _sized(dtype: str):
    """Integers of a size (where the column holds no NULL: pandas' integers cannot)."""
    return lambda column, _: column if column.isna().any() else column.astype(dtype)


def _timestamp_millis(column, data_type: TimestampType):
    if data_type.precision <= 3 and str(column.dtype).startswith("datetime64"):
        return column.astype("datetime64[ms]")
    return column


def _numpy_arrays(column, _):
    import numpy as np

    return column.map(lambda v: None if v is None else np.array(v))


# a column's conversion, by its type, to the dtype PyFlink's Arrow conversion gives
_PANDAS_CONVERSIONS: Dict[type, Callable] = {
    TinyIntType: _sized("int8"),
    SmallIntType: _sized("int16"),
    IntType: _sized("int32"),
    FloatType: lambda column, _: column.astype("float32"),
    TimestampType: _timestamp_millis,
    ArrayType: _numpy_arrays,
}


def _with_pyflink_dtypes(frame, schema: Schema):
    """``frame``'s columns with the dtypes of PyFlink's ``to_pandas()``."""
    for f in schema.fields:
        convert = _PANDAS_CONVERSIONS.get(type(f.data_type))
        if convert is not None and f.name in frame.columns and len(frame):
            frame[f.name] = convert(frame[f.name], f.data_type)
    return frame


def _final_rows(rows: List[Row]) -> List[Row]:
    """The rows an updating changelog leaves (each -U/-D retracts an earlier row)."""
    final: List[Row] = []
    for row in rows:
        kind = row.get_row_kind()
        if kind in (RowKind.INSERT, RowKind.UPDATE_AFTER):
            final.append(row)
        else:
            for i, kept in enumerate(final):
                if list(kept) == list(row):
                    del final[i]
                    break
    return final
