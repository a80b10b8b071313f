"""What sink planners share: the plan of a sink (``SinkPlan``, ``RunningQuery``) and the
client streams that bring records back to this Python process.

Client sinks (print, collect) bring records back: in BATCH mode with ``toArrow()``, in
STREAMING mode with ``foreachBatch`` on a classic session and by polling a memory sink over
Spark Connect (where foreachBatch runs on the server). A module of its own so that the
connector modules (``compiler.connectors``) can use it while ``compiler.sinks`` looks their
planners up in ``compiler.connectors``: no cycle.
"""
from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass
from typing import Callable, Optional

import pyarrow as pa

from pystream import graph, session
from pystream.compiler.flow import Flow
from pystream.runtime.layout import ORDER, Layout

PART = "__part"
_query_names = itertools.count(1)


@dataclass
class SinkPlan:
    """How to run one sink: ``run_batch()`` or ``start_stream(trigger, checkpoint)``."""

    label: str
    run_batch: Callable[[], None]
    start_stream: Callable[[dict, str], "RunningQuery"]


class RunningQuery:
    """A streaming query of a sink (with ``finish()`` run once it has ended). ``cause()``
    gives the Python exception that failed a micro-batch in this process, if one did: Spark
    reports it only as "An exception was raised by the Python Proxy", cut short."""

    def __init__(self, query, finish: Optional[Callable[[], None]] = None,
                 cause: Callable[[], Optional[BaseException]] = lambda: None):
        self.query = query
        self._finish = finish
        self.cause = cause

    def finish(self) -> None:
        if self._finish is not None:
            finish, self._finish = self._finish, None
            finish()


def client_frame(compiler, node: graph.Sink, java_floats: bool = True,
                 gathered: bool = False):
    """The sink's records as typed columns plus ``__part``, the sink subtask of each record
    (32-bit floats as Java's text of them when ``java_floats``, as a PyFlink client gets
    them); the sink runs at the operator's parallelism, or, ``gathered``, as one instance
    that reads the input's partitions in turn (Flink's collect sink; no shuffle: the client
    fetches them in that order)."""
    from pyspark.sql import functions as F

    flow: Flow = compiler.flow(node.input)
    p = 1 if gathered else \
        compiler.parallelism_of(node, flow.parallelism) or flow.parallelism or 1
    if not gathered:
        flow = compiler.repartitioned(flow, p)
    ordered = flow.ordered_df if flow.settled else None
    flow = compiler.materialize(flow, Layout(flow.type_info))
    df = flow.df if ordered is None else ordered.select(*flow.layout.columns, ORDER)
    df = _floats_as_java_text(df) if java_floats else df
    return df.withColumn(PART, F.spark_partition_id()), flow.type_info, p


def _floats_as_java_text(df):
    """``df`` with its 32-bit floats (also nested) cast to Java's text of them, which is
    what a PyFlink client receives (Java 17 prints 3.0000001E10 where the shortest
    decimal would be 3.0E10); ``records.column_decoder(client=True)`` reads them."""
    from pyspark.sql import functions as F
    from pyspark.sql import types as st

    def as_text(t):
        if isinstance(t, st.FloatType):
            return st.StringType()
        if isinstance(t, st.StructType):
            return st.StructType([st.StructField(f.name, as_text(f.dataType), f.nullable)
                                  for f in t.fields])
        if isinstance(t, st.ArrayType):
            return st.ArrayType(as_text(t.elementType), t.containsNull)
        if isinstance(t, st.MapType):
            return st.MapType(t.keyType, as_text(t.valueType), t.valueContainsNull)
        return t

    fields = [(f.name, f.dataType, as_text(f.dataType)) for f in df.schema.fields]
    if all(text == t for _, t, text in fields):
        return df
    return df.select(*[F.col(name) if text == t else F.col(name).cast(text).alias(name)
                       for name, t, text in fields])


def deliver_batch(spark, df, deliver: Callable[[pa.Table], None]) -> None:
    deliver(_to_arrow(df))


def _to_arrow(df) -> pa.Table:
    """A (micro-)batch's rows; with an ``__order`` column in its order (see Flow.ordered_df)."""
    if ORDER in df.columns:
        df = df.sortWithinPartitions(ORDER).drop(ORDER)
    return df.toArrow()


def start_client_stream(spark, df, deliver: Callable, trigger: dict, checkpoint: str,
                        fetch: Callable = _to_arrow) -> RunningQuery:
    """A streaming query bringing each micro-batch's rows to ``deliver`` in this process, as
    ``fetch`` gives them (an Arrow table; ``DataFrame.collect`` for Spark Rows)."""
    if not session.is_remote(spark):
        each = _EachClientBatch(deliver, fetch)
        writer = df.writeStream.foreachBatch(each)
        query = writer.trigger(**trigger).option("checkpointLocation", checkpoint).start()
        return RunningQuery(query, cause=lambda: each.error)
    return _MemoryPoller(spark, df, deliver, trigger, checkpoint, fetch).running()


class _EachClientBatch:
    """The foreachBatch function of a client sink; keeps the exception that failed it."""

    def __init__(self, deliver: Callable, fetch: Callable):
        self.deliver = deliver
        self.fetch = fetch
        self.error: Optional[BaseException] = None

    def __call__(self, batch, batch_id: int) -> None:
        try:
            self.deliver(self.fetch(batch))
        except BaseException as e:
            self.error = e
            raise


class _MemoryPoller:
    """Spark Connect: the query writes to a memory table; a thread reads the new rows."""

    def __init__(self, spark, df, deliver, trigger, checkpoint, fetch: Callable = _to_arrow):
        self.spark = spark
        self.deliver = deliver
        self.fetch = fetch
        self.name = "pystream_client_%d" % next(_query_names)
        self.seen = 0
        self.query = (df.writeStream.format("memory").queryName(self.name).outputMode("append")
                      .trigger(**trigger).option("checkpointLocation", checkpoint).start())
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._loop, daemon=True, name=self.name)
        self._thread.start()

    def _poll(self) -> None:
        with self._lock:
            new_rows = self.spark.table(self.name).offset(self.seen)
            if ORDER in new_rows.columns:  # several micro-batches: left in arrival order
                new_rows = new_rows.drop(ORDER)
            rows = self.fetch(new_rows)
            if len(rows):
                self.seen += len(rows)
                self.deliver(rows)

    def _loop(self) -> None:
        while not self._stop.wait(0.2):
            try:
                self._poll()
            except Exception:  # noqa: BLE001 - the query's own error is reported by the job
                return

    def finish(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        try:
            self._poll()
        finally:
            self.spark.catalog.dropTempView(self.name)

    def running(self) -> RunningQuery:
        return RunningQuery(self.query, self.finish)

