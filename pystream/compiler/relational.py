"""Relational nodes -> Spark DataFrames, one translation per node type (``TRANSLATIONS``).

Every frame has the node's fields as columns, in order, plus system columns:

* ``__seq`` (changelog mode): the arrival order of the record that produced the row, so that a
  streaming job over bounded inputs gives Flink's changelog in Flink's order;
* ``__op`` and ``__sub`` (updating frames): the row kind (0 +I, 1 -U, 2 +U, 3 -D) and the
  row's place among the rows one input record produced (-U before +U).

In BATCH mode frames are plain batch DataFrames. In STREAMING mode over bounded inputs a
frame is a batch DataFrame too, with the system columns that make it a changelog: an
aggregate emits, per input record in ``__seq`` order, ``+I`` for a new key and ``-U``/``+U``
when the result changed (running aggregates over Spark window functions, natively). Over
unbounded inputs (``Context.unbounded``) frames are streaming DataFrames of Structured
Streaming: calculations, table functions and UNION ALL as they are, group windows as Spark's
windowed aggregation, emitted when the watermark passes the window's end.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Any, Callable, Dict, List, Optional, Tuple

from pyspark.sql import Column, DataFrame, Window
from pyspark.sql import functions as F
from pyspark.sql import types as st

from pystream.common.data_types import (
    BigIntType,
    DateType,
    DecimalType,
    IntType,
    LocalZonedTimestampType,
    MapType,
    RowType,
    SmallIntType,
    TimestampType,
    TinyIntType,
)
from pystream.compiler import table_connectors
from pystream.compiler.expressions import (
    OFFSETS,
    RANKING,
    aggregate_column,
    collected_user_aggregate,
    quoted,
    running_aggregate_column,
    to_column,
)
from pystream.errors import UnsupportedFeatureError
from pystream.plan.relational import (
    by_proctime,
    by_rowtime,
    is_bounded,
    is_updating,
    reads_changelog,
    streams_over,
)
from pystream.relational import expressions as ex
from pystream.relational import operations as ops
from pystream.relational.resolve import type_of
from pystream.relational.schema import Field, Schema
from pystream.relational.time_bounded import (
    WINDOW_BOUNDS,
    conjuncts,
    interval_bounds,
    is_interval_join,
    is_window_join,
    is_window_ranking,
    shifted_time,
    window_of,
)
from pystream.util.exceptions import TableException

__all__ = ["Frame", "Context", "translate", "SEQ", "OP", "SUB", "is_updating"]

SEQ, OP, SUB = "__seq", "__op", "__sub"
INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE = 0, 1, 2, 3


@dataclass(frozen=True)
class Context:
    """What a translation needs besides the node: the session and the job's mode."""

    spark: object
    changelog: bool  # STREAMING mode: rows carry __seq (and __op/__sub when updating)
    time_zone: str = "UTC"
    unbounded: bool = False  # STREAMING over an unbounded source: streaming DataFrames
    bundle_size: int = 100000  # python.fn-execution.bundle.size: Python aggregates emit per
    compiler: object = None  # the DataStream compiler of the job (unbounded mode)
    state_ttl_ms: Optional[int] = None  # table.exec.state.ttl (unbounded mode's keyed state)


@dataclass(frozen=True)
class Frame:
    """A node's rows: ``df`` with the node's fields, then the system columns."""

    df: DataFrame
    updating: bool = False
    inserts_only: bool = False  # updating in form (with its kinds) but +I only: DISTINCT's

    def system_columns(self, ctx: Context) -> List[str]:
        if ctx.unbounded:
            return [OP] if self.updating else []
        if not ctx.changelog:
            return []
        return [SEQ, OP, SUB] if self.updating else [SEQ]


def translate(node: ops.Rel, ctx: Context) -> Frame:
    """The frame of ``node`` (and of everything it reads)."""
    return TRANSLATIONS[type(node)](node, ctx)


def _select(frame: Frame, ctx: Context, columns: List[Column]) -> Frame:
    system = [F.col(c) for c in frame.system_columns(ctx)]
    return replace(frame, df=frame.df.select(*columns, *system))


# -- sources ---------------------------------------------------------------------------------

def _values(node: ops.Values, ctx: Context) -> Frame:
    fields = [st.StructField(f.name, f.data_type.spark_type(), True) for f in node.schema]
    rows = [tuple(f.data_type.spark_value(v) for f, v in zip(node.schema, row))
            for row in node.rows]
    if ctx.changelog:
        fields.append(st.StructField(SEQ, st.LongType(), False))
        rows = [row + (node.position + i,) for i, row in enumerate(rows)]
    # one partition, as Flink's from_elements source is one subtask
    df = ctx.spark.createDataFrame(rows, st.StructType(fields)).coalesce(1)
    return Frame(df)


def _connector_scan(node: ops.ConnectorScan, ctx: Context) -> Frame:
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
        frame = _select(frame, ctx, columns)
    if ctx.unbounded and node.watermark is not None:
        frame = replace(frame, df=_with_watermark(frame.df, *node.watermark))
    return frame


def _with_watermark(df: DataFrame, column: str, expr: ex.Expr) -> DataFrame:
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


def _watermark_delay(df: DataFrame, column: str) -> Optional[int]:
    """The delay of Spark's watermark on ``column`` (milliseconds), None without one."""
    field = next((f for f in df.schema.fields if f.name == column), None)
    if field is None or "spark.watermarkDelayMs" not in (field.metadata or {}):
        return None
    return int(field.metadata["spark.watermarkDelayMs"])


def _not_on_unbounded(ctx: Context, what: str) -> None:
    if ctx.unbounded:
        raise UnsupportedFeatureError(
            "%s over an unbounded STREAMING source (Spark runs it on bounded inputs only; "
            "read a bounded table, or use a window aggregate)" % what)


def _stream_scan(node: ops.StreamScan, ctx: Context) -> Frame:
    """A bounded DataStream's records, compiled by the DataStream compiler (BATCH)."""
    from pystream.compiler import compile_stream
    from pystream.datastream import RuntimeExecutionMode
    from pystream.datastream.planning import plan_of

    stream = node.stream
    if ctx.unbounded and not is_bounded(node):  # in the job's own DataStream compiler
        from pystream.runtime.layout import Layout
        from pystream.runtime.records import column_names

        flow = ctx.compiler.flow(_values_node(stream))
        flow = ctx.compiler.materialize(flow, Layout(flow.type_info))
        columns = [quoted(c).cast(f.data_type.spark_type()).alias(f.name)
                   for c, f in zip(column_names(flow.type_info), node.schema)]
        if _row_kinds(node, flow.df.columns):
            return Frame(flow.df.select(*columns, _kind_as_op()), updating=True)
        return Frame(flow.df.select(*columns))
    if not is_bounded(node):
        raise UnsupportedFeatureError(
            "from_data_stream of an unbounded DataStream in a BATCH table environment")
    compiled = compile_stream(plan_of(stream, RuntimeExecutionMode.BATCH))
    columns = [quoted(c).cast(f.data_type.spark_type()).alias(f.name)
               for c, f in zip(compiled.columns, node.schema)]
    if ctx.changelog and _row_kinds(node, compiled.df.columns):
        df = compiled.df.select(*columns, _kind_as_op(),
                                F.monotonically_increasing_id().alias(SEQ), F.lit(0).alias(SUB))
        return Frame(df, updating=True)
    df = compiled.df.select(*columns)
    if ctx.changelog:
        df = df.withColumn(SEQ, F.monotonically_increasing_id())
    return Frame(df)


def _row_kinds(node: ops.StreamScan, columns) -> bool:
    """A changelog stream (``from_changelog_stream``) of ROW records: their row kinds
    (``__kind``) say what each change is."""
    from pystream.runtime.records import ROW_KIND

    return node.changelog and ROW_KIND in columns


def _kind_as_op():
    from pystream.runtime.records import ROW_KIND

    return F.col(ROW_KIND).cast("int").alias(OP)


def _values_node(stream):
    return stream._values_node() if hasattr(stream, "_values_node") else stream._node


# -- operators -------------------------------------------------------------------------------

def _project(node: ops.Project, ctx: Context, frame: Optional[Frame] = None) -> Frame:
    """The projection of ``node`` (over ``frame``, if given: its input's rows). Over a Top-N
    filter, the rank number is computed only if the projection keeps it, as in Flink."""
    ranks = isinstance(node.input, ops.Filter) and _streaming_ranks(node.input, ctx)
    if frame is None and ranks:
        kept = any(isinstance(e, ex.Column) and e.name == ranks[2]
                   for expr in node.exprs for e in ex.walk(expr))
        frame = _filtered_ranks(node.input, ctx, with_rank=kept)
    frame = frame or translate(node.input, ctx)
    schema = node.input.schema
    columns = [to_column(e, schema).alias(f.name) for e, f in zip(node.exprs, node.schema)]
    return _select(frame, ctx, columns)


def _correlate(node: ops.Correlate, ctx: Context) -> Frame:
    """A table function's rows per input row: a Python UDF giving an array of structs,
    exploded (``inline_outer`` keeps rows it gives nothing for, with NULLs)."""
    from pystream.compiler.udfs import table_udf_column

    frame = translate(node.input, ctx)
    schema = node.input.schema
    call = node.call
    rows = table_udf_column(call.function, [to_column(a, schema) for a in call.args],
                            [type_of(a, schema) for a in call.args])
    kept = [quoted(n) for n in schema.names] if node.keep_input else []
    system = [F.col(c) for c in frame.system_columns(ctx)]
    explode = F.inline_outer if node.kind == "left" else F.inline
    exploded = frame.df.select(*kept, *system, explode(rows))
    own = node.schema.fields[len(kept):]
    produced = call.function.result_type.field_names()
    columns = kept + [quoted(p).alias(f.name) for p, f in zip(produced, own)]
    df = exploded.select(*columns, *system)
    if ctx.changelog:  # rows from one input row keep its place in the input's order
        df = df.withColumn(SEQ, F.col(SEQ) * 1000 + F.row_number().over(
            Window.partitionBy(SEQ).orderBy(F.lit(0))) - 1)
    return replace(frame, df=df)


def _expand(node: ops.Expand, ctx: Context) -> Frame:
    """Each row once per projection: an array of them exploded, in one pass; in a
    changelog each row's copies follow each other in the projections' order."""
    frame = translate(node.input, ctx)
    schema = node.input.schema
    copies = F.array(*[F.struct(*[to_column(e, schema).cast(f.data_type.spark_type())
                                  .alias("c%d" % i) for i, (e, f) in
                                  enumerate(zip(projection, node.schema))])
                       for projection in node.projections])
    system = frame.system_columns(ctx)
    df = frame.df.select(*[F.col(c) for c in system], F.posexplode(copies).alias("__pos", "__c"))
    columns = [F.col("__c")["c%d" % i].alias(f.name) for i, f in enumerate(node.schema)]
    placed = {SEQ: (F.col(SEQ) * len(node.projections) + F.col("__pos")).alias(SEQ)}
    return replace(frame, df=df.select(*columns, *[placed.get(c, F.col(c)) for c in system]))


def _unnest(node: ops.Unnest, ctx: Context) -> Frame:
    """An array's elements (a map's entries) as rows beside their row: Spark's
    ``posexplode`` (``_outer`` for a LEFT JOIN); a row element's fields as columns."""
    frame = translate(node.input, ctx)
    schema = node.input.schema
    kept = [quoted(n) for n in schema.names]
    system = [F.col(c) for c in frame.system_columns(ctx)]
    explode = F.posexplode_outer if node.kind == "left" else F.posexplode
    collection_type = type_of(node.collection, schema)
    if isinstance(collection_type, MapType):
        produced = ["__pos", "__key", "__value"]
        values = [F.col("__key"), F.col("__value")]
    else:
        produced = ["__pos", "__element"]
        element = collection_type.element_type
        values = [F.col("__element")[f.name] for f in element.fields] \
            if isinstance(element, RowType) else [F.col("__element")]
    if node.ordinality:
        values.append(F.col("__pos") + 1)
    df = frame.df.select(*kept, *system, explode(to_column(node.collection, schema))
                         .alias(*produced))
    own = node.schema.fields[len(kept):]
    # a row's elements follow each other with its order key (the sort into the changelog
    # keeps rows of one key in the order they come)
    df = df.select(*kept, *[v.alias(f.name) for v, f in zip(values, own)], *system)
    return replace(frame, df=df)


def _table_aggregate_rows(node: ops.TableAggregateRows, ctx: Context) -> Frame:
    """Each result's rows exploded in the order the function emitted them; in a changelog
    a replaced result's rows are deleted (-D, from -U and -D) and a new result's inserted
    (+I, from +I and +U), the old rows' before the new ones'."""
    frame = translate(node.input, ctx)
    others = [n for n in node.input.schema.names if n != node.column]
    system = frame.system_columns(ctx)
    df = frame.df.select(*[quoted(n) for n in others], *[F.col(c) for c in system],
                         F.posexplode(F.col(node.column)["__rows"]).alias("__pos", "__row"))
    own = node.schema.fields[len(others):]
    columns = [quoted(n) for n in others] + [
        F.col("__row")[f.name].alias(f.name) for f in own]
    changed = {  # the system columns: the row kinds and their order become the rows'
        OP: F.when(F.col(OP).isin(UPDATE_BEFORE, DELETE), F.lit(DELETE))
        .otherwise(F.lit(INSERT)).alias(OP),
        SUB: (F.col(SUB) * 100000 + F.col("__pos")).cast("int").alias(SUB)}
    return replace(frame, df=df.select(*columns, *[changed.get(c, F.col(c)) for c in system]))


def _filter(node: ops.Filter, ctx: Context) -> Frame:
    if _streaming_ranks(node, ctx):
        return _filtered_ranks(node, ctx, with_rank=True)
    frame = translate(node.input, ctx)
    condition = node.condition
    if isinstance(condition, ex.SubQuery):
        return _semi_join(frame, node.input.schema, condition, ctx)
    return replace(frame, df=frame.df.where(to_column(condition, node.input.schema)))


def _streaming_ranks(node: ops.Filter, ctx: Context) -> Optional[Tuple[ops.Over, int, str]]:
    """The rank filter (``_rank_filter``) of a STREAMING job: Top-N or deduplication."""
    return _rank_filter(node) if ctx.changelog or ctx.unbounded else None


def _rank_filter(node: ops.Filter) -> Optional[Tuple[ops.Over, int, str]]:
    """``WHERE rn <= N`` (or ``rn < N + 1``, ``rn = 1``) over a ROW_NUMBER, the only aggregate
    of its Over node, read directly or through a projection that keeps it: the Over node, N
    and the rank's name at the filter. None for any other filter."""
    condition = node.condition
    if not (isinstance(condition, ex.Call) and len(condition.args) == 2
            and isinstance(condition.args[0], ex.Column)
            and isinstance(condition.args[1], ex.Literal)
            and isinstance(condition.args[1].value, int)):
        return None
    value = condition.args[1].value
    n = {"equals": 1 if value == 1 else None, "less_than_or_equal": value,
         "less_than": value - 1}.get(condition.name)
    if not n or n < 1:
        return None
    name = rank = condition.args[0].name
    over = node.input
    if isinstance(over, ops.Project) and over.schema.has(rank):
        expr = _unaliased(over.exprs[over.schema.names.index(rank)])
        if not isinstance(expr, ex.Column):
            return None
        rank, over = expr.name, over.input
    if not (isinstance(over, ops.Over) and len(over.aggregates) == 1
            and over.schema.names[-1] == rank):
        return None
    call = _unaliased(over.aggregates[0].expr)
    if isinstance(call, ex.OverCall) and _agg_name(call) == "row_number":
        return over, n, name
    return None


def _filtered_ranks(node: ops.Filter, ctx: Context, with_rank: bool) -> Frame:
    """The frame of a rank filter (see ``_rank_filter``) in STREAMING mode."""
    over, n, _ = _rank_filter(node)
    frame = _ranked(over, n, ctx, with_rank)
    return frame if node.input is over else _project(node.input, ctx, frame)


def _ranked(over: ops.Over, n: int, ctx: Context, with_rank: bool) -> Frame:
    """ROW_NUMBER kept up to rank ``n`` in STREAMING mode: deduplication (rank 1 by a
    processing-time attribute) or Top-N (by other fields)."""
    if is_window_ranking(over):
        return _window_ranked(over, n, ctx)
    window: ops.OverWindow = _unaliased(over.aggregates[0].expr).window
    schema = over.input.schema
    if n == 1 and (by_proctime(over.aggregates[0].expr, schema) or by_rowtime(over)):
        return _deduplicated_stream(over, ctx) if ctx.unbounded else _deduplicated(over, ctx)
    times = [schema.field(o.expr.name).time for o in window.order_by
             if isinstance(o.expr, ex.Column)]
    if "proctime" in times:  # an event-time attribute ranks as any timestamp
        raise UnsupportedFeatureError("Top-N on a processing-time attribute in STREAMING mode")
    return _top_n(over, n, ctx, with_rank)


def _top_n(over: ops.Over, n: int, ctx: Context, with_rank: bool, skip: int = 0) -> Frame:
    """Flink's Top-N changelog over a bounded table (``runtime.ranking.TopN``): the rows,
    partitioned by the ranking's keys, carry their ORDER BY values made comparable
    (``_order_keys``) or, for other types, their ``dense_rank``; each Spark partition's rows
    are then replayed in arrival order through a buffer of the best ``n`` per key."""
    from pystream.runtime.ranking import TopN

    frame = translate(over.input, ctx)
    if frame.updating:
        raise UnsupportedFeatureError("Top-N of an updating table in STREAMING mode")
    if ctx.unbounded:
        return _top_n_stream(over, n, frame, ctx, with_rank, skip)
    window: ops.OverWindow = _unaliased(over.aggregates[0].expr).window
    schema = over.input.schema
    names = list(schema.names)
    keys = [to_column(p, schema).alias("__part%d" % i)
            for i, p in enumerate(window.partition_by)] or [F.lit(0).alias("__part0")]
    parts = ["__part%d" % i for i in range(len(keys))]
    order_keys = None if n == 1 and not skip else _order_keys(window.order_by, schema)
    ranked = order_keys is None
    if ranked:
        ordered = Window.partitionBy(*[to_column(p, schema) for p in window.partition_by]) \
            .orderBy(*[_ordering(o, schema) for o in window.order_by])
        order_keys = [F.dense_rank().over(ordered).alias("__ord")]
    df = frame.df.select(*keys, *[quoted(f) for f in names], F.col(SEQ), *order_keys)
    if not ranked:  # compared as they are: the rows only need to be partitioned by the keys
        df = df.repartition(*map(F.col, parts)) if window.partition_by else df.repartition(1)
    if n == 1 and not skip:
        df = _top_1(df, parts, names, with_rank)
        return Frame(df.select(*[quoted(f) for f in names],
                               F.col("__rank").alias(over.schema.names[-1]), F.col(SEQ),
                               F.col(OP), F.col(SUB)), updating=True)
    output = st.StructType(
        [st.StructField(f.name, f.data_type.spark_type(), True) for f in schema] +
        [st.StructField("__rank", st.LongType(), False),
         st.StructField(SEQ, st.LongType(), False), st.StructField(OP, st.IntegerType(), False),
         st.StructField(SUB, st.IntegerType(), False)])
    # each Spark partition holds whole partitions of the ranking (the window or the
    # repartition above), replayed in arrival order
    run = TopN(n, names, with_rank, parts, [c.name for c in df.schema
                                            if c.name.startswith("__ord")], skip=skip)
    df = df.sortWithinPartitions(SEQ).mapInArrow(lambda batches: run(batches), output)
    return Frame(df.select(*[quoted(f) for f in names],
                           F.col("__rank").alias(over.schema.names[-1]), F.col(SEQ),
                           F.col(OP), F.col(SUB)), updating=True)


ORDERED_AS_IS = (TinyIntType, SmallIntType, IntType, BigIntType, DecimalType, DateType,
                 TimestampType, LocalZonedTimestampType)


def _order_keys(order_by, schema: Schema) -> Optional[List[Column]]:
    """The ORDER BY of a Top-N as columns that compare in Python as Spark orders the rows,
    with no sort: two per item, where its NULLs go (0 first, 2 last, 1 a value) and the
    value (its bits inverted when descending, an order-reversing map that cannot overflow);
    dates and timestamps as integers. None where an item is of another type (strings,
    floating point: ``dense_rank`` then does it)."""
    columns = []
    for i, o in enumerate(order_by):
        data_type = type_of(o.expr, schema)
        if not isinstance(data_type, ORDERED_AS_IS):
            return None
        value = to_column(o.expr, schema)
        nulls_first = o.nulls_first if o.nulls_first is not None else o.ascending
        number = F.unix_date(value) if isinstance(data_type, DateType) else \
            F.unix_micros(value.cast("timestamp")) if isinstance(
                data_type, (TimestampType, LocalZonedTimestampType)) else value
        if not o.ascending:
            number = -number if isinstance(data_type, DecimalType) else F.bitwise_not(number)
        columns += [F.when(value.isNull(), 0 if nulls_first else 2).otherwise(1)
                    .alias("__ord%d_null" % i),
                    F.coalesce(number, F.lit(0)).alias("__ord%d" % i)]
    return columns


def _top_1(df: DataFrame, parts: List[str], names: List[str], with_rank: bool) -> DataFrame:
    """``runtime.ranking.TopN``'s changelog for the best row only, in Spark: a row is the new
    best when its ``__ord`` is lower than every earlier row's of its partition; it replaces
    the best before it (-D then +I; with the rank shown, -U then +U), or is the first (+I)."""
    earlier = Window.partitionBy(*parts).orderBy(SEQ).rowsBetween(Window.unboundedPreceding, -1)
    df = df.withColumn("__best_before", F.min("__ord").over(earlier))
    bests = df.where(F.col("__best_before").isNull() | (F.col("__ord") < F.col("__best_before")))
    row = F.struct(*[quoted(f) for f in names])
    bests = bests.select(*parts, row.alias("__new"), F.col(SEQ), F.lag(row).over(
        Window.partitionBy(*parts).orderBy(SEQ)).alias("__old"))
    rank = F.lit(1 if with_rank else 0).cast("bigint")
    old_kind, new_kind = (UPDATE_BEFORE, UPDATE_AFTER) if with_rank else (DELETE, INSERT)

    def change(value: str, kind, sub: int) -> Column:
        return F.struct(F.col(value).alias("row"), F.lit(kind).alias("op"),
                        F.lit(sub).alias("sub"))

    changes = F.when(F.col("__old").isNull(), F.array(change("__new", INSERT, 0))) \
        .otherwise(F.array(change("__old", old_kind, 0), change("__new", new_kind, 1)))
    exploded = bests.select(F.explode(changes).alias("__c"), F.col(SEQ))
    return exploded.select(*[F.col("__c.row")[f].alias(f) for f in names], rank.alias("__rank"),
                           F.col(SEQ), F.col("__c.op").alias(OP), F.col("__c.sub").alias(SUB))


def _window_ranked(over: ops.Over, n: int, ctx: Context) -> Frame:
    """Window Top-N and window deduplication in STREAMING mode: each window's best ``n``
    rows once, as the watermark passes the window's end (append-only)."""
    frame = translate(over.input, ctx)
    if frame.updating:
        raise UnsupportedFeatureError("window Top-N of an updating table")
    window: ops.OverWindow = _unaliased(over.aggregates[0].expr).window
    schema = over.input.schema
    end = next(p.name for p in window.partition_by if isinstance(p, ex.Column)
               and (window_of(over.input, p.name) or (None, ""))[1] == "window_end")
    if ctx.unbounded:
        return _window_ranked_stream(over, n, frame, end)
    df = frame.df.withColumn(over.schema.names[-1], F.row_number().over(
        _ranking_spec(window, schema)).cast("bigint"))
    rank = F.col(over.schema.names[-1])
    return Frame(df.where(rank <= n).select(*[quoted(c) for c in over.schema.names],
                                            _by_window_end(quoted(end), rank).alias(SEQ)))


def _window_ranked_stream(over: ops.Over, n: int, frame: Frame, end: str) -> Frame:
    """Window Top-N over an unbounded table: Spark's streaming aggregation per window and
    partition (emitted once the watermark passes window_end) collects the rows, sorts them
    by the ORDER BY and keeps the first ``n``, numbered."""
    window: ops.OverWindow = _unaliased(over.aggregates[0].expr).window
    schema = over.input.schema
    names = list(schema.names)
    orders = [(to_column(o.expr, schema), o.ascending) for o in window.order_by]
    entry = F.struct(*[c.alias("__o%d" % i) for i, (c, _) in enumerate(orders)],
                     F.struct(*[quoted(c) for c in names]).alias("__row"))

    def before(a: Column, b: Column) -> Column:  # the comparator of the ORDER BY
        result = F.lit(0)
        for i, (_, ascending) in reversed(list(enumerate(orders))):
            x, y = a["__o%d" % i], b["__o%d" % i]
            first, second = (x, y) if ascending else (y, x)
            result = F.when(first < second, -1).when(first > second, 1).otherwise(result)
        return result

    keys = [to_column(p, schema) for p in window.partition_by]
    grouped = frame.df.groupBy(*keys).agg(F.collect_list(entry).alias("__rows"))
    best = F.slice(F.array_sort("__rows", before), 1, n)
    ranked = grouped.select(F.posexplode(best).alias("__pos", "__e"))
    types = {f.name: f.data_type.spark_type() for f in schema}
    return Frame(ranked.select(
        *[F.col("__e.__row")[c].cast(types[c]).alias(c) for c in names],
        (F.col("__pos") + 1).cast("bigint").alias(over.schema.names[-1])))


def _by_window_end(end: Column, within: Optional[Column] = None) -> Column:
    """The place of a window's result in a changelog: windows fire in the order of their
    ends, as the watermark passes them; within one, rows come in ``within``'s order (by
    default their input order)."""
    within = F.col(SEQ) % 1_000_000 if within is None else within
    return F.unix_millis(end.cast("timestamp")) * 1_000_000 + within


def _top_n_stream(over: ops.Over, n: int, frame: Frame, ctx: Context,
                  with_rank: bool, skip: int = 0) -> Frame:
    """Top-N over an unbounded table: each partition's buffer of its best ``n`` in Spark's
    state store (``runtime.ranking.TopNChangelog``), the same changes as over a bounded
    one."""
    from pystream.runtime.ranking import TopNChangelog

    window: ops.OverWindow = _unaliased(over.aggregates[0].expr).window
    schema = over.input.schema
    orders = ["__o%d" % i for i in range(len(window.order_by))]
    processor = TopNChangelog(n, with_rank, list(schema.names), orders,
                              [o.ascending for o in window.order_by], skip)
    return _keyed_ranking(over, frame, ctx, processor, [  # not event times of their own
        to_column(o.expr, schema).alias(name, metadata={})
        for o, name in zip(window.order_by, orders)])


def _deduplicated_stream(over: ops.Over, ctx: Context) -> Frame:
    """Deduplication on a processing-time attribute over an unbounded table: the kept row
    per key in Spark's state store (``runtime.ranking.Deduplicate``)."""
    from pystream.runtime.ranking import Deduplicate

    window: ops.OverWindow = _unaliased(over.aggregates[0].expr).window
    frame = translate(over.input, ctx)
    if frame.updating:
        raise UnsupportedFeatureError("deduplication of an updating table in STREAMING mode")
    order = window.order_by[0]
    processor = Deduplicate(list(over.input.schema.names), keep_last=not order.ascending,
                            time_field=order.expr.name if by_rowtime(over) else None)
    return _keyed_ranking(over, frame, ctx, processor, [],
                          "EventTime" if processor.on_watermark else "None")


def _keyed_ranking(over: ops.Over, frame: Frame, ctx: Context, processor, extra,
                   time_mode: str = "None") -> Frame:
    """``groupBy(partition keys).transformWithState(processor)`` over the input's fields
    (and ``extra`` columns): the fields, the rank, the row kind."""
    window: ops.OverWindow = _unaliased(over.aggregates[0].expr).window
    schema = over.input.schema
    keys = [to_column(p, schema).alias("__part%d" % i)
            for i, p in enumerate(window.partition_by)] or [F.lit(0).alias("__part0")]
    output = st.StructType(schema.spark_type().fields + [
        st.StructField("__rank", st.LongType(), False), st.StructField(OP, st.ByteType(), False)])
    if ctx.compiler is not None:
        processor = ctx.compiler.ship(processor)
    df = frame.df.select(*keys, *[quoted(n) for n in schema.names], *extra)
    df = df.groupBy(*df.columns[:len(keys)]).transformWithState(
        processor, output, "Append", time_mode)
    updating = is_updating(over, streaming=True)
    return Frame(df.select(*[quoted(n) for n in schema.names],
                           F.col("__rank").alias(over.schema.names[-1]),
                           *([F.col(OP).cast("int").alias(OP)] if updating else [])),
                 updating=updating)


def _deduplicated(over: ops.Over, ctx: Context) -> Frame:
    """Flink's deduplication in STREAMING mode: ROW_NUMBER over a processing-time attribute,
    rank 1. Ascending keeps each key's first row (append-only: +I); descending keeps its last
    row, a changelog in which each newer row retracts the one before (+I, then -U/+U). Over
    an event-time attribute, ascending keeps each key's earliest row, emitted once the
    watermark passes it (append-only); descending replaces the kept row by each row that is
    not earlier than it, as they come."""
    window: ops.OverWindow = _unaliased(over.aggregates[0].expr).window
    schema = over.input.schema
    order = window.order_by[0]
    frame = translate(over.input, ctx)
    if frame.updating:
        raise UnsupportedFeatureError("deduplication of an updating table in STREAMING mode")
    names = list(over.schema.names)
    by_arrival = Window.partitionBy(*[to_column(p, schema) for p in window.partition_by]) \
        .orderBy(SEQ)
    df = frame.df.withColumn(names[-1], F.lit(1).cast("bigint"))
    if by_rowtime(over):
        time = quoted(order.expr.name)
        if order.ascending:  # final once the watermark passes it: the earliest row, once
            earliest = by_arrival.orderBy(time, SEQ)
            df = df.withColumn("__n", F.row_number().over(earliest)).where(F.col("__n") == 1)
            return Frame(df.select(*[quoted(n) for n in names], F.col(SEQ)))
        latest = F.max(time).over(by_arrival.rowsBetween(Window.unboundedPreceding, -1))
        df = df.withColumn("__latest", latest)
        df = df.where(F.col("__latest").isNull() | (time >= F.col("__latest")))
        return Frame(_retractions(df, by_arrival, names), updating=True)
    if order.ascending:
        df = df.withColumn("__n", F.row_number().over(by_arrival)).where(F.col("__n") == 1)
        return Frame(df.select(*[quoted(n) for n in names], F.col(SEQ)))
    return Frame(_retractions(df, by_arrival, names), updating=True)


def _semi_join(frame: Frame, schema, sub: ex.SubQuery, ctx: Context) -> Frame:
    """IN / EXISTS as a semi join, NOT IN / NOT EXISTS as an anti join, on the correlation
    too when there is one. NOT IN follows SQL's NULLs: a NULL in the sub-query's column, or
    a NULL value tested, keeps no row (of those the correlation matches)."""
    inner = translate(sub.query, replace(ctx, changelog=False)).df
    names = sub.query.schema.names
    correlated = names[:len(names) - (sub.expr is not None)] if sub.correlation else []
    on = None
    if sub.correlation is not None:
        both = Schema(tuple(schema.fields) + tuple(sub.query.schema.fields))
        on = to_column(sub.correlation, both)
    if sub.kind in ("exists", "not_exists"):
        how = "left_semi" if sub.kind == "exists" else "left_anti"
        if on is None:
            one = inner.limit(1).select(F.lit(1).alias("__exists"))
            return replace(frame, df=frame.df.join(one, F.lit(True), how))
        return replace(frame, df=frame.df.join(inner.select(*map(quoted, correlated)), on, how))
    right = inner.select(*map(quoted, correlated), quoted(names[-1]).alias("__in_key"))
    value = to_column(sub.expr, schema)
    if sub.kind == "in":
        matches = value == F.col("__in_key")
        how = "left_semi"
    else:
        matches = (value == F.col("__in_key")) | value.isNull() | F.col("__in_key").isNull()
        how = "left_anti"
    return replace(frame, df=frame.df.join(right, matches if on is None else matches & on, how))


def _aggregate(node: ops.Aggregate, ctx: Context) -> Frame:
    frame = translate(node.input, ctx)
    schema = node.input.schema
    keys = [to_column(k, schema).alias(f.name) for k, f in zip(node.keys, node.schema)]
    if not node.aggregates:  # GROUP BY keys only: the distinct keys
        projected = ops.Project(schema=node.schema, input=node.input, exprs=node.keys)
        return _distinct(ops.Distinct(schema=node.schema, input=projected), ctx)
    if ctx.unbounded:
        from pystream.compiler.changelog import unbounded_aggregate

        return unbounded_aggregate(node, frame, ctx)
    if not ctx.changelog:
        grouped = _grouped(frame.df, keys, _aggregate_columns(node.aggregates, schema))
        return Frame(grouped.select(*[quoted(n) for n in node.schema.names]))
    python = any(isinstance(a.expr, ex.UserCall) for a in node.aggregates)
    if not frame.updating and _groups_by_window(node):  # each window once, when it closes
        grouped = _grouped(frame.df, keys, _aggregate_columns(node.aggregates, schema) + [
            (F.max(SEQ).alias(SEQ), SEQ, False)])
        return Frame(grouped.select(*[quoted(n) for n in node.schema.names], F.col(SEQ)))
    if frame.updating and not python:
        return _retracting_aggregate(node, frame, keys)
    if python:
        from pystream.compiler.changelog import bundled_aggregate

        return bundled_aggregate(node, frame, ctx)
    key_names = [f.name for f in node.schema.fields[:len(node.keys)]]
    distinct = {i: _filtered_argument(a.expr.args[0]) for i, a in enumerate(node.aggregates)
                if _counts_first_values(a.expr)}
    df = frame.df.select(*keys, *[to_column(e, schema).alias("__arg%d_%d" % (i, j))
                                  for i, a in enumerate(node.aggregates)
                                  for j, e in enumerate(a.expr.args)], F.col(SEQ), *[
        c for i, (value, condition) in distinct.items()
        for c in _value_and_hit(i, value, condition, schema)])
    arg_schema = _arg_schema(node, schema)
    running = Window.partitionBy(*[quoted(k) for k in key_names]).orderBy(SEQ) \
        .rowsBetween(Window.unboundedPreceding, Window.currentRow)
    if distinct:
        df = _first_occurrences(df, distinct, key_names)
    values = []
    for i, (a, f) in enumerate(zip(node.aggregates, node.schema.fields[len(node.keys):])):
        if i in distinct:
            value = _running_distinct(a.expr.name, i, running)
            values.append(value.cast(f.data_type.spark_type()).alias(a.names[0]))
        else:
            values.append(running_aggregate_column(_arg_call(a.expr, i), arg_schema, running)
                          .alias(a.names[0]))
    df = df.select(*[quoted(k) for k in key_names], *values, F.col(SEQ))
    return Frame(_changelog_of_running(df, key_names, [a.names[0] for a in node.aggregates]),
                 updating=True)


RETRACTABLE = ("count", "sum", "sum0", "avg")


def _counts_first_values(call: ex.Expr) -> bool:
    return isinstance(call, ex.Call) and call.distinct and len(call.args) == 1 and \
        call.name in ("count", "sum", "sum0")


def _filtered_argument(arg: ex.Expr) -> Tuple[ex.Expr, Optional[ex.Expr]]:
    """A DISTINCT aggregate's argument as (value, condition): ``agg(DISTINCT x) FILTER
    (WHERE c)`` is ``agg(DISTINCT CASE WHEN c THEN x END)`` (``sql.translate``)."""
    if isinstance(arg, ex.Call) and arg.name == "case" and len(arg.args) == 2:
        return arg.args[1], arg.args[0]
    return arg, None


def _value_and_hit(index: int, value: ex.Expr, condition: Optional[ex.Expr],
                   schema: Schema) -> List[Column]:
    """``__value<i>``, the value a DISTINCT aggregate counts, and ``__hit<i>``, 1 where the
    row gives it one (its filter holds and the value is not NULL)."""
    column = to_column(value, schema)
    hit = column.isNotNull() if condition is None else \
        column.isNotNull() & F.coalesce(to_column(condition, schema), F.lit(False))
    return [column.alias("__value%d" % index), hit.cast("int").alias("__hit%d" % index)]


def _first_occurrences(df: DataFrame, distinct: Dict[int, tuple],
                       keys: List[str]) -> DataFrame:
    """``__first<i>`` for each DISTINCT aggregate: the row is the first of its group whose
    value counts (its running count of hits per value is 1 at a hit). Aggregates over the
    same value with other filters (``COUNT(DISTINCT x) FILTER (WHERE ...)``) share one
    window, and so one sort; the rows are shuffled once, by the group keys, which every
    window's partitioning then includes."""
    df = df.repartition(*[quoted(k) for k in keys]) if keys else df.repartition(1)
    by_value: Dict[ex.Expr, List[int]] = {}
    for i, (value, _) in distinct.items():
        by_value.setdefault(value, []).append(i)
    for indices in by_value.values():
        seen = Window.partitionBy(*[quoted(k) for k in keys], F.col("__value%d" % indices[0])) \
            .orderBy(SEQ).rowsBetween(Window.unboundedPreceding, Window.currentRow)
        for i in indices:
            hit = F.col("__hit%d" % i)
            df = df.withColumn("__first%d" % i, (hit == 1) & (F.sum(hit).over(seen) == 1))
    return df


def _running_distinct(name: str, index: int, running) -> Column:
    """COUNT/SUM(DISTINCT x) as each row arrives: over the rows where a value comes the first
    time in its group (``_first_occurrences``; a running set of values would copy the set at
    every row)."""
    first, arg = F.col("__first%d" % index), F.col("__arg%d_0" % index)
    count = F.sum(first.cast("bigint")).over(running)
    if name == "count":
        return count
    total = F.sum(F.when(first, arg)).over(running)
    return F.coalesce(total, F.lit(0)) if name == "sum0" else F.when(count > 0, total)


def _groups_by_window(node: ops.Aggregate) -> bool:
    """GROUP BY the window_start and window_end of one window (a cascaded window aggregate:
    its input's rows of a window all come when the window closes)."""
    found = [window_of(node.input, k.name) for k in node.keys if isinstance(k, ex.Column)]
    found = [f for f in found if f is not None and f[1] in WINDOW_BOUNDS]
    return len({id(table) for table, _ in found}) == 1 and \
        {prop for _, prop in found} == WINDOW_BOUNDS


def _retracting_aggregate(node: ops.Aggregate, frame: Frame, keys: List[Column]) -> Frame:
    """An aggregate over a changelog, as Flink retracts: per change in (``__seq``,
    ``__sub``) order, +I and +U add their row, -U and -D take it away; a key's result is
    emitted as it changes, and deleted (-D) when none of its rows is left."""
    schema = node.input.schema
    for a in node.aggregates:
        if isinstance(a.expr, ex.UserCall) or a.expr.name not in RETRACTABLE or \
                a.expr.distinct:
            raise UnsupportedFeatureError(
                "%s over an updating table in STREAMING mode (retraction: only %s)" % (
                    str(a.expr.name).upper() + ("(DISTINCT)" if a.expr.distinct else ""),
                    ", ".join(n.upper() for n in RETRACTABLE)))
    key_names = [f.name for f in node.schema.fields[:len(node.keys)]]
    running = Window.partitionBy(*keys).orderBy(SEQ, SUB) \
        .rowsBetween(Window.unboundedPreceding, Window.currentRow)
    sign = F.when(F.col(OP).isin(INSERT, UPDATE_AFTER), 1).otherwise(-1)

    def counted(arg: Optional[Column]) -> Column:
        return F.sum(sign if arg is None else F.when(arg.isNotNull(), sign).otherwise(0)) \
            .over(running)

    values = []
    for a, f in zip(node.aggregates, node.schema.fields[len(node.keys):]):
        arg = to_column(a.expr.args[0], schema) if a.expr.args else None
        n = counted(arg)
        total = F.sum(arg * sign).over(running) if arg is not None else None
        value = {"count": n, "sum": F.when(n > 0, total),
                 "sum0": F.when(n > 0, total).otherwise(0),
                 "avg": F.when(n > 0, total / n)}[a.expr.name]
        values.append(value.cast(f.data_type.spark_type()).alias(f.name))
    df = frame.df.select(*keys, *values, (counted(None) > 0).alias("__present"), F.col(SEQ),
                         F.col(SUB))
    order = Window.partitionBy(*[quoted(k) for k in key_names]).orderBy(SEQ, SUB)
    names = [f.name for f in node.schema]
    return Frame(_retractions(df, order, names, compared=names[len(key_names):],
                              present="__present"), updating=True)


def _aggregate_columns(aggregates, schema: Schema) -> List[tuple]:
    """(Spark column, name, whether it runs Python) of each aggregate call."""
    return [(aggregate_column(a.expr, schema).alias(a.names[0]), a.names[0],
             isinstance(a.expr, ex.UserCall)) for a in aggregates]


def _collected_python_aggregates(aggregates, schema: Schema,
                                 aggs: List[tuple]) -> Tuple[List[tuple], Dict[str, Any]]:
    """``aggs`` with each Python aggregate replaced by Spark's ``collect_list`` of its
    arguments, and the folds that give their values from those lists, by name."""
    out, folds = [], {}
    for a, (column, name, python) in zip(aggregates, aggs):
        if python:
            collected, folds[name] = collected_user_aggregate(a.expr, schema)
            column, python = collected.alias(name), False
        out.append((column, name, python))
    return out, folds


def _grouped(df: DataFrame, groups: List[Column], aggs: List[tuple]) -> DataFrame:
    """``df.groupBy(groups).agg(...)`` of ``aggs`` (see ``_aggregate_columns``): Spark's own
    aggregates and Python ones (grouped-aggregate pandas UDFs, which Spark does not run in
    one aggregation with others) in two aggregations joined on the groups."""
    spark = [(c, n) for c, n, python in aggs if not python]
    python = [(c, n) for c, n, is_python in aggs if is_python]
    parts = [df.groupBy(*groups).agg(*[c for c, _ in part]) for part in (spark, python)
             if part]
    if len(parts) == 1:
        return parts[0]
    left, right = parts
    names = [n for n in left.columns if n not in {name for _, name in spark}]
    right = right.select(*[quoted(n).alias("__right%d" % i) for i, n in enumerate(names)],
                         *[quoted(name) for _, name in python])
    on = F.lit(True)
    for i, n in enumerate(names):
        on = on & quoted(n).eqNullSafe(F.col("__right%d" % i))
    return left.join(right, on).drop(*["__right%d" % i for i in range(len(names))])


def _arg_call(call: ex.Call, index: int) -> ex.Call:
    return ex.Call(call.name, tuple(ex.Column("__arg%d_%d" % (index, j))
                                    for j in range(len(call.args))), call.distinct)


def _arg_schema(node: ops.Aggregate, schema: Schema) -> Schema:
    fields = [Field("__arg%d_%d" % (i, j), type_of(e, schema))
              for i, a in enumerate(node.aggregates) for j, e in enumerate(a.expr.args)]
    return Schema(tuple(fields))


def _changelog_of_running(df: DataFrame, keys: List[str], values: List[str]) -> DataFrame:
    """Per record: +I for a key's first row, -U/+U when its values changed, else nothing."""
    order = Window.partitionBy(*[quoted(k) for k in keys]).orderBy(SEQ)
    return _retractions(df, order, keys + values, compared=values)


def _retractions(df: DataFrame, order, names: List[str],
                 compared: Optional[List[str]] = None,
                 present: Optional[str] = None) -> DataFrame:
    """Per record, in ``order`` (a window over ``__seq``): +I for a partition's first row,
    else -U of the row before it and +U of this one (only where the ``compared`` fields
    changed, if given). With ``present``, a record where that column is false deletes the
    row before it (-D), and the next one inserts again. Input records that are changes
    themselves (``__sub``) keep their order."""
    row = F.struct(*[quoted(n) for n in names])
    df = df.withColumn("__new", F.when(F.col(present), row) if present else row)
    df = df.withColumn("__old", F.lag("__new").over(order))
    base = F.col(SUB) * 2 if SUB in df.columns else F.lit(0)
    first = F.array(F.struct(F.col("__new").alias("row"), F.lit(INSERT).alias("op"),
                             base.alias("sub")))
    update = F.array(F.struct(F.col("__old").alias("row"), F.lit(UPDATE_BEFORE).alias("op"),
                              base.alias("sub")),
                     F.struct(F.col("__new").alias("row"), F.lit(UPDATE_AFTER).alias("op"),
                              (base + 1).alias("sub")))
    delete = F.array(F.struct(F.col("__old").alias("row"), F.lit(DELETE).alias("op"),
                              base.alias("sub")))
    emitted = F.when(F.col("__new").isNull(), F.when(F.col("__old").isNotNull(), delete)) \
        .when(F.col("__old").isNull(), first)
    if compared is None:
        emitted = emitted.otherwise(update)
    else:
        old, new = [F.struct(*[F.col(side)[c].alias(c) for c in compared])
                    for side in ("__old", "__new")]
        emitted = emitted.when(old != new, update)
    exploded = df.select(F.explode(emitted).alias("__e"), F.col(SEQ))
    return exploded.select(*[F.col("__e.row")[n].alias(n) for n in names], F.col(SEQ),
                           F.col("__e.op").alias(OP), F.col("__e.sub").alias(SUB))


def _distinct(node: ops.Distinct, ctx: Context) -> Frame:
    """DISTINCT: BATCH, the distinct rows; STREAMING, each row the first time it comes (+I;
    Flink's changelog of an aggregate without aggregate calls): over an unbounded table,
    Spark's streaming deduplication, which keeps every distinct row in its state store."""
    frame = translate(node.input, ctx)
    if not (ctx.changelog or ctx.unbounded):
        return replace(frame, df=frame.df.distinct())
    return _first_of_each(frame, list(node.schema.names), ctx, "DISTINCT")


def _first_of_each(frame: Frame, names: List[str], ctx: Context, what: str) -> Frame:
    """STREAMING: each row of ``frame`` the first time it comes (+I), as Flink's aggregate
    without aggregate calls emits it."""
    if frame.updating and not frame.inserts_only:
        raise UnsupportedFeatureError("%s over an updating table in STREAMING mode" % what)
    if ctx.unbounded:
        df = frame.df.dropDuplicates(names)
        return Frame(df.select(*[quoted(n) for n in names], F.lit(INSERT).alias(OP)),
                     updating=True)
    first = Window.partitionBy(*[quoted(n) for n in names]).orderBy(SEQ)
    df = frame.df.withColumn("__n", F.row_number().over(first)).where(F.col("__n") == 1)
    df = df.select(*[quoted(n) for n in names], F.col(SEQ), F.lit(INSERT).alias(OP),
                   F.lit(0).alias(SUB))
    return Frame(df, updating=True, inserts_only=True)


JOIN_KINDS = {"inner": "inner", "left": "left", "right": "right", "full": "full",
              "semi": "left_semi", "anti": "left_anti"}


def _join(node: ops.Join, ctx: Context) -> Frame:
    if is_interval_join(node) or is_window_join(node):
        return _time_bounded_join(node, ctx)
    left = translate(node.left, ctx)
    right = translate(node.right, ctx)
    if ctx.unbounded and (node.kind != "inner" or left.updating or right.updating):
        if node.kind in ("semi", "anti"):
            _not_on_unbounded(ctx, "a %s join of an updating table" % node.kind)
        return _changelog_join(node, left, right, ctx)
    if ctx.changelog and (left.updating or right.updating or node.kind not in ("inner", "semi",
                                                                              "anti")):
        if node.kind in ("semi", "anti"):
            raise UnsupportedFeatureError("a %s join of updating tables in STREAMING mode"
                                          % node.kind)
        return _changelog_join(node, left, right, ctx)
    both = ops.Join(schema=_join_schema(node), left=node.left, right=node.right, kind=node.kind)
    condition = F.lit(True) if node.condition is None else to_column(node.condition, both.schema)
    right_df = right.df.drop(SEQ) if ctx.changelog else right.df
    df = left.df.join(right_df, condition, JOIN_KINDS[node.kind])
    columns = [quoted(n) for n in node.schema.names]
    if ctx.changelog:
        columns.append(F.col(SEQ))
    return Frame(df.select(*columns))


def _changelog_join(node: ops.Join, left: Frame, right: Frame, ctx: Context) -> Frame:
    """A regular join in STREAMING mode whose result updates (an outer join, or a join of
    updating tables): both inputs' changes, tagged by side, grouped by the join keys and
    replayed per key (``runtime.joining.JoinChangelog``), Flink's changelog. Over unbounded
    tables the key's rows of both sides stay in Spark's state store (``JoinState``; with
    ``table.exec.state.ttl``, a key idle that long is forgotten)."""
    from pyspark.sql.pandas.types import to_arrow_schema

    from pystream.runtime.joining import JoinChangelog, JoinState

    keys, others = _split_condition(node)
    if others and node.kind == "inner":  # each joined change kept if the rest holds for it
        equi = functools.reduce(lambda a, b: ex.Call("and", (a, b)), [
            ex.Call("equals", pair) for pair in keys]) if keys else None
        joined = _changelog_join(replace(node, condition=equi), left, right, ctx)
        rest = functools.reduce(lambda a, b: ex.Call("and", (a, b)), others)
        return replace(joined, df=joined.df.where(to_column(rest, _join_schema(node))))
    keys = _equi_keys(node)
    group = [F.col("__k%d" % i) for i in range(len(keys))] or [F.lit(0)]
    fields = node.schema.spark_type().fields
    if ctx.unbounded:
        both = _tagged_sides(node, left, right, keys, lambda frame, side: [
            (F.col(OP) if frame.updating else F.lit(INSERT)).cast("int").alias(OP)])
        run = JoinChangelog(node.kind, node.left.schema.names, node.right.schema.names, None)
        processor = JoinState(run, list(node.schema.names), ctx.state_ttl_ms)
        if ctx.compiler is not None:
            processor = ctx.compiler.ship(processor)
        output = st.StructType(fields + [st.StructField(OP, st.ByteType(), False)])
        df = both.groupBy(*group).transformWithState(
            processor, output, "Append", "ProcessingTime" if ctx.state_ttl_ms else "None")
        return Frame(df.select(*[quoted(n) for n in node.schema.names],
                               F.col(OP).cast("int").alias(OP)), updating=True)
    both = _tagged_sides(node, left, right, keys, lambda frame, side: [F.col(SEQ), *(
        [F.col(OP), F.col(SUB)] if frame.updating else [F.lit(INSERT).alias(OP),
                                                        F.lit(0).alias(SUB)])])
    output = st.StructType(fields + [st.StructField(SEQ, st.LongType(), False),
                                     st.StructField(OP, st.IntegerType(), False),
                                     st.StructField(SUB, st.IntegerType(), False)])
    run = JoinChangelog(node.kind, node.left.schema.names, node.right.schema.names,
                        to_arrow_schema(output))
    return Frame(both.groupBy(*group).applyInArrow(lambda table: run(table), output),
                 updating=True)


def _tagged_sides(node, left: Frame, right: Frame, keys, extra) -> DataFrame:
    """Both inputs of a join as one DataFrame: its keys (``__k0``...), the row as a struct
    of its side's fields (``__l`` or ``__r``, the other NULL), ``extra(frame, side)``
    columns and ``__side`` (0 left, 1 right)."""
    def tagged(frame: Frame, side: int, schema: Schema, other: Schema) -> DataFrame:
        own = F.struct(*[quoted(n) for n in schema.names])
        empty = F.lit(None).cast(other.spark_type())
        return frame.df.select(
            *[quoted(pair[side].name).alias("__k%d" % i) for i, pair in enumerate(keys)],
            (own if side == 0 else empty).alias("__l"),
            (empty if side == 0 else own).alias("__r"), *extra(frame, side),
            F.lit(side).alias("__side"))

    return tagged(left, 0, node.left.schema, node.right.schema).unionByName(
        tagged(right, 1, node.right.schema, node.left.schema))


def _time_buckets(left: DataFrame, right: DataFrame, left_time: str, right_time: str,
                  low: int, high: int) -> Tuple[DataFrame, DataFrame, Column]:
    """A bounded interval join keyed by time, not only by its keys: time cut in buckets as
    wide as the interval, each right row in its bucket, each left row in the (at most two)
    buckets its interval [t + low, t + high] reaches; rows can match only within a bucket,
    so a key with many rows is no longer joined all against all."""
    width = max(high - low, 1)

    def millis(name: str) -> Column:
        return F.unix_millis(quoted(name).cast("timestamp"))

    first = F.floor((millis(left_time) + low) / width)
    last = F.floor((millis(left_time) + high) / width)
    left = left.withColumn("__lbucket", F.explode(F.sequence(first, last)))
    right = right.withColumn("__rbucket", F.floor(millis(right_time) / width))
    return left, right, F.col("__lbucket") == F.col("__rbucket")


def _time_bounded_join(node: ops.Join, ctx: Context) -> Frame:
    """Interval and window joins (inner and outer): each match, and each row left without
    one, emitted once (append-only), as Flink's watermark-bounded joins do. Over unbounded
    inputs, Spark's stream-stream join, whose state the watermarks drop (window joins: by
    window_end, marked as an event time by ``_window_table``)."""
    window = is_window_join(node)
    left = translate(node.left, ctx)
    right = translate(node.right, ctx)
    if left.updating or right.updating:
        raise UnsupportedFeatureError("an interval or window join of an updating table")
    both = ops.Join(schema=_join_schema(node), left=node.left, right=node.right, kind=node.kind)
    condition = functools.reduce(Column.__and__, [
        bound if (bound := _time_bound(t)) is not None else to_column(t, both.schema)
        for t in conjuncts(node.condition)])
    left_df, right_df = left.df, right.df
    if ctx.changelog:
        left_df = left_df.withColumnRenamed(SEQ, "__left_seq")
        right_df = right_df.withColumnRenamed(SEQ, "__right_seq")
    bounds = interval_bounds(node) if not (window or ctx.unbounded) else None
    if bounds is not None and node.kind == "inner":
        left_df, right_df, same_bucket = _time_buckets(left_df, right_df, *bounds)
        condition = condition & same_bucket
    df = left_df.join(right_df, condition, JOIN_KINDS[node.kind])
    columns = [quoted(f.name).cast(f.data_type.spark_type()).alias(f.name)
               for f in node.schema]  # window_end marked as Spark's event time, back
    if ctx.changelog:  # a match comes with the later of its two rows
        arrival = F.coalesce(F.greatest("__left_seq", "__right_seq"), F.col("__left_seq"),
                             F.col("__right_seq"))
        if window:
            end = F.coalesce(*[quoted(n) for n in node.schema.names
                               if (window_of(node, n) or (None, ""))[1] == "window_end"])
            arrival = F.unix_millis(end.cast("timestamp")) * 1_000_000 + arrival % 1_000_000
        columns.append(arrival.alias(SEQ))
    return Frame(df.select(*columns))


COMPARE = {"less_than": Column.__lt__, "less_than_or_equal": Column.__le__,
           "greater_than": Column.__gt__, "greater_than_or_equal": Column.__ge__,
           "equals": Column.__eq__}


def _time_bound(term: ex.Expr) -> Optional[Column]:
    """A comparison of columns (time columns maybe shifted by interval literals) as the
    plain Spark comparison whose keys and bounds Spark's stream-stream join reads to drop
    state (None for any other term)."""
    if isinstance(term, ex.Call) and term.name == "between":
        low = _time_bound(ex.Call("greater_than_or_equal", term.args[:2]))
        high = _time_bound(ex.Call("less_than_or_equal", (term.args[0], term.args[2])))
        return low & high if low is not None and high is not None else None
    if not (isinstance(term, ex.Call) and term.name in COMPARE):
        return None
    sides = [_shifted_time(a) for a in term.args]
    return COMPARE[term.name](*sides) if all(s is not None for s in sides) else None


def _shifted_time(expr: ex.Expr) -> Optional[Column]:
    """``ts``, ``ts + INTERVAL ...`` or ``ts - INTERVAL ...`` as a Spark column."""
    found = shifted_time(expr)
    if found is None:
        return None
    name, shift = found
    if not shift:
        return quoted(name)
    interval = F.expr("INTERVAL '%d' MILLISECOND" % abs(shift))
    return quoted(name) + interval if shift > 0 else quoted(name) - interval


def _equi_keys(node) -> List[Tuple[ex.Column, ex.Column]]:
    """The (left field, right field) pairs a join's condition equates; an
    UnsupportedFeatureError if it says more (the joins replayed per key cannot check it)."""
    keys, others = _split_condition(node)
    if others:
        raise UnsupportedFeatureError(
            "a %s join in STREAMING mode whose condition is more than equalities of the two "
            "sides' fields (%s)" % (node.kind, ", ".join(str(o) for o in others)[:80]))
    return keys


def _split_condition(node) -> Tuple[List[Tuple[ex.Column, ex.Column]], List[ex.Expr]]:
    """A join condition's (left field, right field) equalities, and its other terms."""
    names = _join_schema(node).names
    width = len(node.left.schema)
    keys, others = [], []
    for term in conjuncts(node.condition) if node.condition is not None else []:
        sides = [names.index(a.name) < width if isinstance(a, ex.Column) else None
                 for a in getattr(term, "args", ())]
        if isinstance(term, ex.Call) and term.name == "equals" and sorted(
                s for s in sides if s is not None) == [False, True] and None not in sides:
            keys.append(term.args if sides[0] else term.args[::-1])
        else:
            others.append(term)
    return keys, others


def _temporal_join(node: ops.TemporalJoin, ctx: Context) -> Frame:
    """A lookup join (``_lookup_join``), or an event-time temporal join: each left row with
    the right row of equal key whose version (rowtime) is the latest at the left row's
    time, unless that version is a deletion (-D); emitted once (append-only). As in Flink,
    the versions are read as upserts by key: -U rows are left out."""
    if node.lookup:
        return _lookup_join(node, ctx)
    left = translate(node.left, ctx)
    right = translate(node.right, ctx)
    if left.updating:
        raise UnsupportedFeatureError("an event-time temporal join of an updating table")
    if ctx.unbounded:
        return _temporal_join_stream(node, left, right, ctx)
    both = ops.Join(schema=_join_schema(node), left=node.left, right=node.right, kind="left")
    version_time = quoted(node.right.schema.rowtime().name)
    arrival = F.col(SEQ) if ctx.changelog else F.monotonically_increasing_id()
    versions = right.df.select(*[quoted(n) for n in node.right.schema.names],
                               (F.col(OP) if right.updating else F.lit(INSERT)).alias("__kind"),
                               arrival.alias("__version"))
    versions = versions.where(F.col("__kind") != UPDATE_BEFORE)
    rows = left.df.withColumn("__row", F.monotonically_increasing_id())
    condition = to_column(node.condition, both.schema) & (
        version_time <= quoted(node.time_field))
    joined = rows.join(versions, condition, "left")
    latest = Window.partitionBy("__row").orderBy(version_time.desc_nulls_last(),
                                                 F.col("__version").desc_nulls_last())
    joined = joined.withColumn("__n", F.row_number().over(latest)).where(F.col("__n") == 1)
    valid = F.col("__kind") != DELETE
    if node.kind == "inner":
        joined = joined.where(valid)
    width = len(node.left.schema)
    columns = [quoted(n) for n in node.schema.names[:width]] + [
        F.when(valid, quoted(n)).alias(n) for n in node.schema.names[width:]]
    return Frame(joined.select(*columns, *([F.col(SEQ)] if ctx.changelog else [])))


def _temporal_join_stream(node: ops.TemporalJoin, left: Frame, right: Frame,
                          ctx: Context) -> Frame:
    """An event-time temporal join over unbounded tables: both sides' rows, tagged, grouped
    by the join keys into Spark's state store (``runtime.joining.TemporalJoinState``, event
    time): each left row is joined once the watermark passes its time."""
    from pystream.runtime.joining import TemporalJoinState

    keys = _equi_keys(node)
    times = (node.time_field, node.right.schema.rowtime().name)
    both = _tagged_sides(node, left, right, keys, lambda frame, side: [
        F.unix_millis(quoted(times[side]).cast("timestamp")).alias("__t"),
        (F.col(OP) if frame.updating else F.lit(INSERT)).cast("int").alias(OP)])
    output = st.StructType(node.schema.spark_type().fields +
                           [st.StructField(OP, st.ByteType(), False)])
    processor = TemporalJoinState(node.left.schema.names, node.right.schema.names,
                                  list(node.schema.names), outer=node.kind == "left")
    if ctx.compiler is not None:
        processor = ctx.compiler.ship(processor)
    group = [F.col("__k%d" % i) for i in range(len(keys))]
    df = both.groupBy(*group).transformWithState(processor, output, "Append", "EventTime")
    return Frame(df.select(*[quoted(n) for n in node.schema.names]))


def _lookup_join(node: ops.TemporalJoin, ctx: Context) -> Frame:
    """A lookup join: each left row with the right table's rows as they are when it is
    processed. The right table is read as a batch DataFrame; over an unbounded left side,
    Spark's stream-static join reads it again for every micro-batch."""
    left = translate(node.left, ctx)
    right = translate(node.right, replace(ctx, changelog=False, unbounded=False))
    if left.updating:
        raise UnsupportedFeatureError("a lookup join of an updating table")
    both = ops.Join(schema=_join_schema(node), left=node.left, right=node.right, kind="left")
    df = left.df.join(right.df, to_column(node.condition, both.schema), node.kind)
    return Frame(df.select(*[quoted(n) for n in node.schema.names],
                           *[F.col(c) for c in left.system_columns(ctx)]))


def _join_schema(node: ops.Join) -> Schema:
    return Schema(node.left.schema.fields + node.right.schema.fields)


def _set_op(node: ops.SetOp, ctx: Context) -> Frame:
    streaming = ctx.changelog or ctx.unbounded
    if streaming and node.kind == "union" and not node.all:  # UNION ALL, then DISTINCT
        united = _set_op(replace(node, all=True), ctx)
        return _first_of_each(united, list(node.schema.names), ctx, "UNION")
    if streaming and node.kind != "union":
        return _matched_set_op(node, ctx)
    left = translate(node.left, ctx)
    right = translate(node.right, ctx)
    casts = [quoted(a.name).cast(f.data_type.spark_type()).alias(f.name)
             for a, f in zip(node.left.schema, node.schema)]
    right_casts = [quoted(b.name).cast(f.data_type.spark_type()).alias(f.name)
                   for b, f in zip(node.right.schema, node.schema)]
    extra = [F.col(SEQ)] if ctx.changelog else []
    changes = [f.updating and not f.inserts_only for f in (left, right)]
    if any(changes) and node.kind == "union":  # UNION ALL of changelogs: each keeps its kinds
        def kinds(frame: Frame) -> List[Column]:
            return [F.col(OP), F.col(SUB)] if frame.updating else [
                F.lit(INSERT).alias(OP), F.lit(0).alias(SUB)]

        united = left.df.select(*casts, *extra, *kinds(left)).unionAll(
            right.df.select(*right_casts, *extra, *kinds(right)))
        return Frame(united, updating=True)
    l_df = left.df.select(*casts, *extra)
    r_df = right.df.select(*right_casts, *extra)
    if node.kind == "union":
        df = l_df.unionAll(r_df) if node.all else l_df.union(r_df).distinct()
    elif node.kind == "intersect":
        df = l_df.intersectAll(r_df) if node.all else l_df.intersect(r_df)
    else:
        df = l_df.exceptAll(r_df) if node.all else l_df.subtract(r_df)
    return Frame(df)


def _matched_set_op(node: ops.SetOp, ctx: Context) -> Frame:
    """INTERSECT / EXCEPT in STREAMING mode over bounded tables, as Flink rewrites them: a
    semi (anti) join of the left rows on all fields with the right ones, then each row once
    (+I). Over unbounded tables, and their ALL forms, refused."""
    what = "%s%s" % ("INTERSECT" if node.kind == "intersect" else "EXCEPT",
                     " ALL" if node.all else "")
    if ctx.unbounded:
        raise UnsupportedFeatureError("%s in STREAMING mode over an unbounded table" % what)
    left, right = translate(node.left, ctx), translate(node.right, ctx)
    if left.updating or right.updating:
        raise UnsupportedFeatureError("%s of an updating table in STREAMING mode" % what)
    if node.all:
        return _replicated_set_op(node, left, right)
    names = list(node.schema.names)
    l_df = left.df.select(*[quoted(a.name).cast(f.data_type.spark_type()).alias(f.name)
                            for a, f in zip(node.left.schema, node.schema)], F.col(SEQ))
    r_df = right.df.select(*[quoted(b.name).cast(f.data_type.spark_type()).alias("__r%d" % i)
                             for i, (b, f) in enumerate(zip(node.right.schema, node.schema))])
    on = [quoted(n).eqNullSafe(F.col("__r%d" % i)) for i, n in enumerate(names)]
    kind = "left_semi" if node.kind == "intersect" else "left_anti"
    return _first_of_each(Frame(l_df.join(r_df, on, kind)), names, ctx, what)


def _replicated_set_op(node: ops.SetOp, left: Frame, right: Frame) -> Frame:
    """INTERSECT ALL / EXCEPT ALL in STREAMING mode, as Flink runs them: the left rows, then
    the right ones, counted per distinct row (an aggregate: +I for a row's first record,
    then -U of the old counts and +U of the new ones), each change replicated as many times
    as the row is in the result then (INTERSECT ALL: the smaller count; EXCEPT ALL: left
    minus right)."""
    names = list(node.schema.names)
    sides = [frame.df.select(*[quoted(a.name).cast(f.data_type.spark_type()).alias(f.name)
                               for a, f in zip(rel.schema, node.schema)],
                             F.col(SEQ), F.lit(side).alias("__side"))
             for side, (frame, rel) in enumerate(((left, node.left), (right, node.right)))]
    df = sides[0].unionByName(sides[1])
    # the right rows after every left one, in one order
    last_left = F.max(F.when(F.col("__side") == 0, F.col(SEQ))).over(Window.partitionBy())
    df = df.withColumn(SEQ, F.when(F.col("__side") == 0, F.col(SEQ)).otherwise(
        F.col(SEQ) + F.coalesce(last_left, F.lit(-1)) + 1))
    rows = Window.partitionBy(*[quoted(n) for n in names]).orderBy(SEQ)
    counts = rows.rowsBetween(Window.unboundedPreceding, Window.currentRow)
    df = df.withColumn("__l", F.sum(1 - F.col("__side")).over(counts)) \
        .withColumn("__r", F.sum(F.col("__side")).over(counts))
    if node.kind == "intersect":
        copies = F.least(F.col("__l"), F.col("__r"))
    else:
        copies = F.greatest(F.col("__l") - F.col("__r"), F.lit(0))
    df = df.withColumn("__n", copies.cast("int")).withColumn("__was", F.lag("__n").over(rows))

    def replicated(op: int, n: Column) -> Column:
        return F.array_repeat(F.lit(op), n)

    ops_ = F.when(F.col("__was").isNull(), replicated(INSERT, F.col("__n"))).otherwise(
        F.concat(replicated(UPDATE_BEFORE, F.col("__was")),
                 replicated(UPDATE_AFTER, F.col("__n"))))
    df = df.select(*[quoted(n) for n in names], F.col(SEQ),
                   F.posexplode(ops_).alias(SUB, OP))
    return Frame(df.select(*[quoted(n) for n in names], F.col(SEQ), F.col(OP), F.col(SUB)),
                 updating=True)


def _sort(node: ops.Sort, ctx: Context) -> Frame:
    """ORDER BY / OFFSET / FETCH. In STREAMING mode, as Flink: ``ORDER BY ... LIMIT n`` is a
    Top-N over all rows (``_sort_limit``); ``ORDER BY`` the rowtime (then other fields)
    emits the rows in time order as the watermark passes them (``compiler.time_ordered``);
    another ORDER BY is refused with Flink's error."""
    if (ctx.changelog or ctx.unbounded) and node.keys:
        if node.fetch is not None:
            return _sort_limit(node, ctx)
        first, rowtime = node.keys[0], node.input.schema.rowtime()
        if not (isinstance(first.expr, ex.Column) and rowtime is not None
                and first.expr.name == rowtime.name and first.ascending):
            raise TableException("Sort on a non-time-attribute field is not supported.")
        if not node.offset:
            from pystream.compiler.time_ordered import temporal_sort

            frame = translate(node.input, ctx)
            if frame.updating:
                raise UnsupportedFeatureError("ORDER BY over an updating table")
            return Frame(temporal_sort(node, frame, ctx, translate))
    _not_on_unbounded(ctx, "ORDER BY / LIMIT / OFFSET")
    frame = translate(node.input, ctx)
    schema = node.input.schema
    keys = [_ordering(o, schema) for o in node.keys]
    df = frame.df.orderBy(*keys) if keys else frame.df
    if node.offset:
        df = df.offset(node.offset)
    if node.fetch is not None:
        df = df.limit(node.fetch)
    return replace(frame, df=df)


def _sort_limit(node: ops.Sort, ctx: Context) -> Frame:
    """``ORDER BY keys LIMIT n [OFFSET m]`` in STREAMING mode: Flink's Top-N without
    partitions and without a rank column (``_top_n`` of a ROW_NUMBER over all rows); with an
    offset, the changes of the ranks m + 1 to m + n, by rank."""
    window = ops.OverWindow(order_by=node.keys)
    rank = Field("__rank", type_of(ex.Call("row_number"), node.input.schema))
    over = ops.Over(schema=Schema(node.input.schema.fields + (rank,)), input=node.input,
                    aggregates=(ex.Alias(ex.OverCall(ex.Call("row_number"), window),
                                         (rank.name,)),))
    frame = _top_n(over, node.offset + node.fetch, ctx, with_rank=False, skip=node.offset)
    return replace(frame, df=frame.df.select(*[quoted(n) for n in node.schema.names],
                                             *[F.col(c) for c in frame.system_columns(ctx)]))


def _ordering(o: ex.Ordering, schema) -> Column:
    column = to_column(o.expr, schema)
    nulls_first = o.nulls_first if o.nulls_first is not None else o.ascending
    if o.ascending:
        return column.asc_nulls_first() if nulls_first else column.asc_nulls_last()
    return column.desc_nulls_first() if nulls_first else column.desc_nulls_last()


def _window_aggregate(node: ops.WindowAggregate, ctx: Context) -> Frame:
    frame = translate(node.input, ctx)
    schema = node.input.schema
    w = node.window
    ts = quoted(w.time_field)
    millis = "%d milliseconds"
    if w.kind == "tumble":
        window = F.window(ts, millis % w.size)
    elif w.kind == "slide":
        window = F.window(ts, millis % w.size, millis % w.slide)
    elif w.kind == "session":
        window = F.session_window(ts, millis % w.gap)
    elif w.kind == "cumulate":
        frame, window = _cumulate(frame, ts, w.size, w.slide)
    else:
        raise UnsupportedFeatureError("%s windows" % w.kind)
    key_fields = node.schema.fields[:len(node.keys)]
    keys = [to_column(k, schema).alias(f.name) for k, f in zip(node.keys, key_fields)]
    aggs = _aggregate_columns(node.aggregates, schema)
    folds = {}
    if w.kind == "session":  # Spark merges sessions right with its own aggregates only
        aggs, folds = _collected_python_aggregates(node.aggregates, schema, aggs)
    if ctx.unbounded and _watermark_delay(frame.df, w.time_field) is None:
        # a rowtime without a watermark Spark knows (a DataStream's): no delay
        frame = replace(frame, df=_with_watermark(frame.df, w.time_field,
                                                  ex.Column(w.time_field)))
    if ctx.changelog:
        aggs.append((F.max(SEQ).alias(SEQ), SEQ, False))
    if frame.updating:
        raise UnsupportedFeatureError("a group window over an updating table")
    df, window = frame.df, window.alias("__w")
    if ctx.unbounded and w.kind == "cumulate":  # an event time, as F.window's struct is:
        df = df.withColumn("__w", window.alias("__w", metadata={  # Spark emits it once the
            "spark.watermarkDelayMs": _watermark_delay(df, w.time_field)}))  # watermark
        window = F.col("__w")  # passes its end
    grouped = _grouped(df, [window, *keys], aggs)
    if folds:
        grouped = grouped.withColumns({name: fold(quoted(name)) for name, fold in folds.items()})
    props = {"window_start": F.col("__w.start"), "window_end": F.col("__w.end"),
             "window_rowtime": F.col("__w.end") - F.expr("INTERVAL 1 MILLISECOND")}
    properties = [props[p.expr.name].cast(f.data_type.spark_type()).alias(p.names[0])
                  for p, f in zip(node.properties, node.schema.fields[-len(node.properties):]
                                  if node.properties else [])]
    columns = [quoted(f.name) for f in key_fields] + \
        [quoted(a.names[0]) for a in node.aggregates] + properties
    if ctx.changelog:
        columns.append(_by_window_end(F.col("__w.end")).alias(SEQ))
        return Frame(grouped.select(*columns))
    if ctx.unbounded:  # Spark emits a window once the watermark passes its end
        return Frame(grouped.select(*columns))
    # BATCH: Flink aggregates windows sort-based, so results come by key, then by window
    # (cumulating windows: by their common start, then key, then end)
    key_order = [quoted(f.name) for f in key_fields]
    order = [F.col("__w.start"), *key_order, F.col("__w.end")] if w.kind == "cumulate" \
        else [*key_order, F.col("__w.start")]
    return Frame(grouped.orderBy(*order).select(*columns))


def _match_recognize(node: ops.MatchRecognize, ctx: Context) -> Frame:
    """MATCH_RECOGNIZE over a bounded table: each partition's rows, in time order, through
    ``runtime.matching.Matcher`` (one Python pass per partition, ``applyInArrow``); the
    matches are append-only, each at the arrival of its last row."""
    frame = translate(node.input, ctx)
    if frame.updating:
        raise UnsupportedFeatureError("MATCH_RECOGNIZE over an updating table")
    if ctx.unbounded:
        return _match_recognize_stream(node, frame, ctx)
    output = st.StructType(node.schema.spark_type().fields +
                           ([st.StructField(SEQ, st.LongType(), False)] if ctx.changelog else []))
    run = _matcher(node, output, SEQ if ctx.changelog else None)
    df = frame.df.select(*[quoted(n) for n in node.input.schema.names],
                         *[F.col(c) for c in frame.system_columns(ctx)],
                         F.lit(0).alias("__all"))
    keys = [quoted(k) for k in node.partition_by] or [F.col("__all")]
    return Frame(df.groupBy(*keys).applyInArrow(lambda table: run(table), output))


def _matcher(node: ops.MatchRecognize, output: st.StructType, seq: Optional[str]):
    """The ``runtime.matching.Matcher`` of ``node``, writing rows of ``output``."""
    from pyspark.sql.pandas.types import to_arrow_schema

    from pystream.runtime.matching import Matcher

    return Matcher(node.pattern, dict(node.define), [a.expr for a in node.measures],
                   node.partition_by, node.order_by[0].expr.name, node.after, node.within_ms,
                   to_arrow_schema(output), seq)


def _match_recognize_stream(node: ops.MatchRecognize, frame: Frame, ctx: Context) -> Frame:
    """MATCH_RECOGNIZE over an unbounded table: each partition's rows in Spark's state store
    until the watermark passes them (``runtime.matching.MatchState``, event time), then
    matched in time order as over a bounded table."""
    from pystream.runtime.matching import MatchState

    output = node.schema.spark_type()
    names = list(node.input.schema.names)
    processor = MatchState(_matcher(node, output, None), names)
    if ctx.compiler is not None:
        processor = ctx.compiler.ship(processor)
    keys = [quoted(k).alias("__part%d" % i) for i, k in enumerate(node.partition_by)] or \
        [F.lit(0).alias("__part0")]
    df = frame.df.select(*keys, *[quoted(n) for n in names])
    df = df.groupBy(*df.columns[:len(keys)]).transformWithState(
        processor, output, "Append", "EventTime")
    return Frame(df)


def _window_table(node: ops.WindowTable, ctx: Context) -> Frame:
    """Each row once per window it falls in, with window_start, window_end and window_time
    (windows aligned to the epoch, as Flink's). A row's copies keep its place in the input's
    order."""
    frame = translate(node.input, ctx)
    w = node.window
    ts = quoted(w.time_field)
    if w.kind == "cumulate":
        frame, window = _cumulate(frame, ts, w.size, w.slide)
        df = frame.df.withColumn("__w", window)
    else:
        t = F.unix_millis(ts.cast("timestamp"))
        slide = w.slide or w.size
        last = t - F.pmod(t, F.lit(slide))  # the start of the last window holding t
        first = last - ((w.size - 1) // slide) * slide
        starts = F.filter(F.sequence(first, last, F.lit(slide)), lambda s: s + w.size > t)
        df = frame.df.withColumn("__start", F.explode(starts)).withColumn(
            "__w", F.struct(F.timestamp_millis(F.col("__start")).alias("start"),
                            F.timestamp_millis(F.col("__start") + w.size).alias("end")))
    fields = node.schema.fields[-3:]
    properties = [F.col("__w.start"), F.col("__w.end"),
                  F.col("__w.end") - F.expr("INTERVAL 1 MILLISECOND")]
    columns = [quoted(n) for n in node.input.schema.names] + [
        p.cast(f.data_type.spark_type()).alias(f.name) for p, f in zip(properties, fields)]
    df = df.select(*columns, *[F.col(c) for c in frame.system_columns(ctx)])
    delay = _watermark_delay(frame.df, w.time_field)
    if ctx.unbounded and delay is not None:
        # window_end marked as an event time of the input's watermark (as Spark marks the
        # window of F.window): a streaming aggregate or join on it drops a window's state,
        # and emits it, once the watermark passes its end, as Flink fires windows
        df = df.withColumn("window_end", F.col("window_end").cast("timestamp").alias(
            "window_end", metadata={"spark.watermarkDelayMs": delay}))
    return Frame(df, frame.updating)


def _cumulate(frame: Frame, ts: Column, size: int, step: int):
    """CUMULATE windows: each row belongs to the windows of its ``size``-long period (aligned
    to the epoch) that end after it, every ``step``. The frame gets a row per window; the
    window is the struct (start, end) that ``F.window`` gives."""
    t = F.unix_millis(ts.cast("timestamp"))
    start = t - F.pmod(t, F.lit(size))
    first_end = start + (F.floor((t - start) / step) + 1) * step
    df = frame.df.withColumn("__wstart", start).withColumn(
        "__wend", F.explode(F.sequence(first_end, start + size, F.lit(step))))
    window = F.struct(F.timestamp_millis(F.col("__wstart")).alias("start"),
                      F.timestamp_millis(F.col("__wend")).alias("end"))
    return replace(frame, df=df), window


def _over(node: ops.Over, ctx: Context) -> Frame:
    if (ctx.changelog or ctx.unbounded) and streams_over(node, ctx.unbounded):
        return _streaming_over(node, ctx)
    ranking = [a for a in node.aggregates if _agg_name(_unaliased(a.expr)) in RANKING]
    _not_on_unbounded(ctx, "window Top-N or window deduplication" if is_window_ranking(node)
                      else "an OVER window not ordered by a time attribute")
    if ctx.changelog and ranking:  # Top-N and deduplication are _ranked's
        raise UnsupportedFeatureError(
            "%s OVER a window in STREAMING mode other than Top-N or deduplication (ROW_NUMBER "
            "filtered by rn <= N, rn < N or rn = 1)"
            % _agg_name(_unaliased(ranking[0].expr)).upper())
    frame = translate(node.input, ctx)
    schema = node.input.schema
    columns = [quoted(n) for n in schema.names]
    for a in node.aggregates:
        call: ex.OverCall = _unaliased(a.expr)
        spec = _ranking_spec(call.window, schema) if _agg_name(call) in {**RANKING, **OFFSETS} \
            else _over_spec(call.window, schema)
        columns.append(running_aggregate_column(call.agg, schema, spec).alias(a.names[0]))
    return _select(frame, ctx, columns)


def _streaming_over(node: ops.Over, ctx: Context) -> Frame:
    """Aggregates OVER a window ordered by a time attribute in STREAMING mode, as Flink's
    streaming over aggregate (``plan.relational.streams_over`` says which):
    ``compiler.time_ordered``."""
    from pystream.compiler.time_ordered import over_aggregate

    frame = translate(node.input, ctx)
    if frame.updating:
        raise UnsupportedFeatureError("an OVER window over an updating table")
    return Frame(over_aggregate(node, frame, ctx, translate))


def _agg_name(call: ex.OverCall) -> Optional[str]:
    """The name of a built-in aggregate OVER a window (None: a user-defined one)."""
    return getattr(call.agg, "name", None)


def _unaliased(expr: ex.Expr) -> ex.Expr:
    return expr.expr if isinstance(expr, ex.Alias) else expr


def _ranking_spec(w: ops.OverWindow, schema):
    """ROW_NUMBER / RANK / DENSE_RANK: partitions in their order, without a frame."""
    return Window.partitionBy(*[to_column(p, schema) for p in w.partition_by]).orderBy(
        *[_ordering(o, schema) for o in w.order_by])


def _over_spec(w: ops.OverWindow, schema):
    spec = Window.partitionBy(*[to_column(p, schema) for p in w.partition_by])
    order = w.order_by[0]
    if w.rows:
        spec = spec.orderBy(_ordering(order, schema))
        start = Window.unboundedPreceding if w.preceding is None else -w.preceding
        return spec.rowsBetween(start, w.following or 0)
    micros = F.unix_micros(to_column(order.expr, schema).cast("timestamp"))
    spec = spec.orderBy(micros)
    start = Window.unboundedPreceding if w.preceding is None else -w.preceding * 1000
    return spec.rangeBetween(start, (w.following or 0) * 1000)


TRANSLATIONS: Dict[type, Callable[[ops.Rel, Context], Frame]] = {
    ops.Values: _values,
    ops.ConnectorScan: _connector_scan,
    ops.StreamScan: _stream_scan,
    ops.Correlate: _correlate,
    ops.Unnest: _unnest,
    ops.Expand: _expand,
    ops.TableAggregateRows: _table_aggregate_rows,
    ops.Project: _project,
    ops.Filter: _filter,
    ops.Aggregate: _aggregate,
    ops.Distinct: _distinct,
    ops.Join: _join,
    ops.TemporalJoin: _temporal_join,
    ops.SetOp: _set_op,
    ops.Sort: _sort,
    ops.WindowAggregate: _window_aggregate,
    ops.WindowTable: _window_table,
    ops.MatchRecognize: _match_recognize,
    ops.Over: _over,
}
