"""Where a query's rows come from: VALUES, connector tables (with their computed columns
and watermark) and tables made from DataStreams."""
from __future__ import annotations

import datetime
from dataclasses import replace
from typing import List, Optional

from pyspark.errors import PySparkException
from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F
from pyspark.sql import types as st

from pystream.compiler import table_connectors
from pystream.compiler.expressions import quoted, to_column
from pystream.compiler.relational.frames import (
    OP,
    SEQ,
    SUB,
    Context,
    Frame,
    select_with_system_columns,
)
from pystream.errors import UnsupportedFeatureError
from pystream.plan import plan
from pystream.plan.reads import EVERYTHING, scan_key
from pystream.plan.relational import is_bounded, reads_changelog
from pystream.relational import expressions as ex
from pystream.relational import operations as ops
from pystream.runtime.layout import ORDER, Layout
from pystream.runtime.records import ROW_KIND, column_names
from pystream.util.exceptions import TableException


def values_frame(node: ops.Values, ctx: Context) -> Frame:
    fields = [st.StructField(f.name, f.data_type.spark_type(), True) for f in node.schema]
    rows = [tuple(f.data_type.spark_value(v) for f, v in zip(node.schema, row))
            for row in node.rows]
    if ctx.changelog:
        fields.append(st.StructField(SEQ, st.LongType(), False))
        rows = [row + (node.position + i,) for i, row in enumerate(rows)]
    # one partition, as Flink's from_elements source is one subtask
    df = local_relation(ctx.spark, rows, st.StructType(fields)).coalesce(1)
    return Frame(df)


def local_relation(spark, rows: List[tuple], schema: st.StructType) -> DataFrame:
    """``rows`` (values as Spark takes them) as a relation the driver holds: sent as Arrow,
    Spark keeps them on the driver (a local relation), where a query's projections and
    filters of them run without a Spark job and the rest starts from rows ready to use.
    Values Arrow cannot take (year-month intervals, variants) go through Spark's own
    conversion of Python rows instead."""
    import pyarrow as pa
    from pyspark.sql.pandas.types import to_arrow_schema

    try:
        arrow = to_arrow_schema(schema, timezone="UTC")
        columns = [list(c) for c in zip(*rows)] if rows else [[] for _ in schema.fields]
        table = pa.Table.from_arrays(
            [pa.array(_as_instants(c) if isinstance(f.dataType, st.TimestampType) else c,
                      type=a.type) for c, f, a in zip(columns, schema.fields, arrow)],
            schema=arrow)
    except (pa.ArrowException, TypeError, ValueError, OverflowError, ArithmeticError,
            PySparkException):
        return spark.createDataFrame(rows, schema)
    return spark.createDataFrame(table, schema)


def _as_instants(values: list) -> list:
    """Datetimes of a TIMESTAMP_LTZ column as instants: one without a zone is a wall-clock
    time of this process's zone, as Spark takes it."""
    return [v.astimezone(datetime.timezone.utc)
            if isinstance(v, datetime.datetime) and v.tzinfo is None else v for v in values]


def connector_scan_frame(node: ops.ConnectorScan, ctx: Context) -> Frame:
    if not (ctx.changelog or ctx.unbounded) and reads_changelog(node.options):
        raise TableException(
            "Querying a table in batch mode is currently only possible for INSERT-only table "
            "sources. But the source for table 'default_catalog.default_database.%s' produces "
            "other changelog messages than just INSERT." % node.name)
    df = table_connectors.read(node, ctx.spark, streaming=ctx.changelog or ctx.unbounded,
                               compiler=ctx.compiler)
    if ctx.changelog and SEQ not in df.columns:
        df = df.withColumn(SEQ, F.monotonically_increasing_id())
    elif ctx.unbounded and SEQ in df.columns:
        df = df.drop(SEQ)
    frame = Frame(df, updating=OP in df.columns)  # an upsert table's changelog
    if node.computed:
        physical = node.physical
        by_name = dict(node.computed)
        columns = [to_column(by_name[f.name], physical).alias(f.name) if f.name in by_name
                   else quoted(f.name) for f in node.schema]
        frame = select_with_system_columns(frame, ctx, columns)
    if ctx.unbounded and node.watermark is not None:
        frame = replace(frame, df=with_watermark(frame.df, *node.watermark))
    return frame


def shared_scan_frame(node: ops.ConnectorScan, ctx: Context) -> Frame:
    """A connector table's rows; a bounded table the query reads more than once
    (``ctx.shared_reads``) is read once, into Spark's cache, with only the rows and fields
    its uses need, and every use reads it from there: when a sample of its leading rows
    shows that its uses keep at most ``MOST_KEPT`` of them (caching most of a table costs
    more than reading it again)."""
    key = scan_key(node)
    if ctx.unbounded or key not in ctx.shared_reads:
        return connector_scan_frame(node, ctx)
    if key not in ctx.shared_frames:
        frame, read = connector_scan_frame(node, ctx), ctx.shared_reads[key]
        kept = F.coalesce(to_column(read.rows, node.schema), F.lit(False))
        if _share_kept(frame.df, kept) > MOST_KEPT:
            ctx.shared_frames[key] = None
            return frame
        df = frame.df.where(kept)
        df = df.select(*_kept_columns(df, node.schema, read.fields))
        ctx.shared_frames[key] = replace(frame, df=df.persist())
    shared = ctx.shared_frames[key]
    return connector_scan_frame(node, ctx) if shared is None else shared


SAMPLE_ROWS = 10000  # the leading rows a sample reads (read once's share kept, big groups)
MOST_KEPT = 0.25


def _share_kept(df: DataFrame, kept: Column) -> float:
    """The share of ``df``'s leading ``SAMPLE_ROWS`` rows where ``kept`` holds (0 for none;
    1 when they cannot be read: the run then reads the table and reports why it fails)."""
    try:  # a collected LIMIT reads the first split alone, more only if it must
        sample = df.select(kept.alias("kept")).limit(SAMPLE_ROWS).collect()
    except Exception:  # noqa: BLE001 - a malformed record, a missing file: the run says
        return 1.0
    return sum(row.kept for row in sample) / len(sample) if sample else 0.0


def _kept_columns(df: DataFrame, schema, paths) -> List[Column]:
    """The columns of ``df`` with only what ``paths`` name kept: the others, and the other
    fields of a ROW column that ``paths`` name fields of, are NULLs of their types (every
    use still finds every field; the cache keeps little of them). All of it where a path
    is ``()``."""
    if EVERYTHING in paths:
        return [quoted(c) for c in df.columns]
    names = set(schema.names)
    columns = []
    for f in df.schema.fields:
        column = quoted(f.name)
        parts = {p[1] for p in paths if p[0] == f.name and len(p) > 1}
        if f.name not in names or (f.name,) in paths:  # system columns (__seq...), or whole
            columns.append(column)
        elif parts and isinstance(f.dataType, st.StructType):
            columns.append(F.struct(*[
                (column[g.name] if g.name in parts else F.lit(None).cast(g.dataType))
                .alias(g.name) for g in f.dataType.fields]).alias(f.name))
        elif parts:
            columns.append(column)
        else:
            columns.append(F.lit(None).cast(f.dataType).alias(f.name))
    return columns


def with_watermark(df: DataFrame, column: str, expr: ex.Expr) -> DataFrame:
    """``WATERMARK FOR ts AS ts - INTERVAL ...`` as Spark's watermark: Flink's bounded
    out-of-orderness (a window fires once a record at least ``delay`` past its end came)."""
    delay = 0
    if isinstance(expr, ex.Call) and expr.name == "minus" and expr.args[0] == ex.Column(column) \
            and isinstance(expr.args[1], ex.Literal):
        delay = int(expr.args[1].value.total_seconds() * 1000)
    elif expr != ex.Column(column):
        raise UnsupportedFeatureError(
            "the watermark expression of '%s' over an unbounded source (only '%s' or '%s - "
            "INTERVAL ...' translate to Spark's watermark)" % (column, column, column))
    if isinstance(df.schema[column].dataType, st.TimestampNTZType):
        # Spark's event time is a TIMESTAMP (LTZ): through the session time zone and back
        df = df.withColumn(column, quoted(column).cast("timestamp"))
    return df.withWatermark(column, "%d milliseconds" % delay)


def watermark_delay(df: DataFrame, column: str) -> Optional[int]:
    """The delay of Spark's watermark on ``column`` (milliseconds), None without one."""
    field = next((f for f in df.schema.fields if f.name == column), None)
    if field is None or "spark.watermarkDelayMs" not in (field.metadata or {}):
        return None
    return int(field.metadata["spark.watermarkDelayMs"])


def stream_scan_frame(node: ops.StreamScan, ctx: Context) -> Frame:
    """A bounded DataStream's records, compiled by the DataStream compiler (BATCH)."""
    from pystream.compiler import compile_stream

    if ctx.unbounded and not is_bounded(node):  # in the job's own DataStream compiler
        flow = ctx.compiler.flow(node.node)
        flow = ctx.compiler.materialize(flow, Layout(flow.type_info))
        columns = [quoted(c).cast(f.data_type.spark_type()).alias(f.name)
                   for c, f in zip(column_names(flow.type_info), node.schema)]
        if _row_kinds(node, flow.df.columns):
            return Frame(flow.df.select(*columns, _kind_as_op()), updating=True)
        return Frame(flow.df.select(*columns))
    if not is_bounded(node):
        raise UnsupportedFeatureError(
            "from_data_stream of an unbounded DataStream in a BATCH table environment")
    # a STREAMING table's changelog stream as a STREAMING job over its bounded input gives
    # it: its records in the order PyFlink emits them (a keyed operator's by arrival, not
    # key by key), where that job is a batch one
    planned = plan([node.node], replace(node.settings, runtime_mode="STREAMING")) \
        if ctx.changelog and node.changelog else None
    if planned is None or not planned.batch:  # else as BATCH
        planned = plan([node.node], replace(node.settings, runtime_mode="BATCH"))
    compiled = compile_stream(planned)
    columns = [quoted(c).cast(f.data_type.spark_type()).alias(f.name)
               for c, f in zip(compiled.columns, node.schema)]
    source = compiled.df
    if ORDER in source.columns:  # the records in the order PyFlink emits them
        source = source.withColumn("__pos", F.monotonically_increasing_id()) \
            .sortWithinPartitions(ORDER, "__pos")
    if ctx.changelog and _row_kinds(node, compiled.df.columns):
        df = source.select(*columns, _kind_as_op(),
                           F.monotonically_increasing_id().alias(SEQ), F.lit(0).alias(SUB))
        return Frame(df, updating=True)
    df = source.select(*columns)
    if ctx.changelog:
        df = df.withColumn(SEQ, F.monotonically_increasing_id())
    return Frame(df)


def _row_kinds(node: ops.StreamScan, columns) -> bool:
    """A changelog stream (``from_changelog_stream``) of ROW records: their row kinds
    (``__kind``) say what each change is."""
    return node.changelog and ROW_KIND in columns


def _kind_as_op():
    return F.col(ROW_KIND).cast("int").alias(OP)
