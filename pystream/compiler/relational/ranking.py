"""Top-N and deduplication (ROW_NUMBER kept up to a rank), also per window: in BATCH
mode Spark's window functions, in STREAMING mode Flink's changelog of them."""
from __future__ import annotations

from typing import List, Optional

from pyspark.sql import Column, DataFrame, Window
from pyspark.sql import functions as F
from pyspark.sql import types as st

from pystream.common.data_types import (
    BigIntType,
    DateType,
    DecimalType,
    IntType,
    LocalZonedTimestampType,
    SmallIntType,
    TimestampType,
    TinyIntType,
)
from pystream.compiler.expressions import quoted, to_column
from pystream.compiler.relational.frames import (
    DELETE,
    INSERT,
    OP,
    SEQ,
    SUB,
    UPDATE_AFTER,
    UPDATE_BEFORE,
    Context,
    Frame,
    ordering,
    retractions,
    translate,
)
from pystream.compiler.relational.windows import by_window_end, ranking_spec, unaliased
from pystream.errors import UnsupportedFeatureError
from pystream.plan.relational import by_proctime, by_rowtime, is_updating
from pystream.relational import expressions as ex
from pystream.relational import operations as ops
from pystream.relational.resolve import type_of
from pystream.relational.schema import Schema
from pystream.relational.time_bounded import is_window_ranking, window_of
from pystream.runtime.ranking import Deduplicate, TopN, TopNCandidates, TopNChangelog


def ranked(over: ops.Over, n: int, ctx: Context, with_rank: bool) -> Frame:
    """ROW_NUMBER kept up to rank ``n`` in STREAMING mode: deduplication (rank 1 by a
    processing-time attribute) or Top-N (by other fields)."""
    if is_window_ranking(over):
        return _window_ranked(over, n, ctx)
    window: ops.OverWindow = unaliased(over.aggregates[0].expr).window
    schema = over.input.schema
    if n == 1 and (by_proctime(over.aggregates[0].expr, schema) or by_rowtime(over)):
        return _deduplicated_stream(over, ctx) if ctx.unbounded else _deduplicated(over, ctx)
    times = [schema.field(o.expr.name).time for o in window.order_by
             if isinstance(o.expr, ex.Column)]
    if "proctime" in times:  # an event-time attribute ranks as any timestamp
        raise UnsupportedFeatureError("Top-N on a processing-time attribute in STREAMING mode")
    return top_n(over, n, ctx, with_rank)


def top_n(over: ops.Over, n: int, ctx: Context, with_rank: bool, skip: int = 0) -> Frame:
    """Flink's Top-N changelog over a bounded table (``runtime.ranking.TopN``): the rows,
    partitioned by the ranking's keys, carry their ORDER BY values made comparable
    (``_order_keys``) or, for other types, their ``dense_rank``; each Spark partition's rows
    are then replayed in arrival order through a buffer of the best ``n`` per key. Compared
    as they are, the rows that cannot enter their buffer are dropped where they come from,
    before the shuffle (``runtime.ranking.TopNCandidates``)."""
    frame = translate(over.input, ctx)
    if frame.updating:
        raise UnsupportedFeatureError("Top-N of an updating table in STREAMING mode")
    if ctx.unbounded:
        return _top_n_stream(over, n, frame, ctx, with_rank, skip)
    window: ops.OverWindow = unaliased(over.aggregates[0].expr).window
    schema = over.input.schema
    names = list(schema.names)
    keys = [to_column(p, schema).alias("__part%d" % i)
            for i, p in enumerate(window.partition_by)] or [F.lit(0).alias("__part0")]
    parts = ["__part%d" % i for i in range(len(keys))]
    order_keys = None if n == 1 and not skip else _order_keys(window.order_by, schema)
    ranked = order_keys is None
    if ranked:
        ordered = Window.partitionBy(*[to_column(p, schema) for p in window.partition_by]) \
            .orderBy(*[ordering(o, schema) for o in window.order_by])
        order_keys = [F.dense_rank().over(ordered).alias("__ord")]
    df = frame.df.select(*keys, *[quoted(f) for f in names], F.col(SEQ), *order_keys)
    order_names = ["__ord"] if ranked else [c.name for c in df.schema
                                            if c.name.startswith("__ord")]
    if not ranked:  # compared as they are: the rows only need to be partitioned by the keys,
        # and only those that may enter their buffer, found where they come from
        may_enter = TopNCandidates(n, parts, order_names).spark_filter()
        df = df.where(may_enter(F.struct(*parts, *order_names, SEQ)))
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
    run = TopN(n, names, with_rank, parts, order_names, skip=skip)
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
    window: ops.OverWindow = unaliased(over.aggregates[0].expr).window
    schema = over.input.schema
    end = next(p.name for p in window.partition_by if isinstance(p, ex.Column)
               and (window_of(over.input, p.name) or (None, ""))[1] == "window_end")
    if ctx.unbounded:
        return _window_ranked_stream(over, n, frame, end)
    df = frame.df.withColumn(over.schema.names[-1], F.row_number().over(
        ranking_spec(window, schema)).cast("bigint"))
    rank = F.col(over.schema.names[-1])
    return Frame(df.where(rank <= n).select(*[quoted(c) for c in over.schema.names],
                                            by_window_end(quoted(end), rank).alias(SEQ)))


def _window_ranked_stream(over: ops.Over, n: int, frame: Frame, end: str) -> Frame:
    """Window Top-N over an unbounded table: Spark's streaming aggregation per window and
    partition (emitted once the watermark passes window_end) collects the rows, sorts them
    by the ORDER BY and keeps the first ``n``, numbered."""
    window: ops.OverWindow = unaliased(over.aggregates[0].expr).window
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


def _top_n_stream(over: ops.Over, n: int, frame: Frame, ctx: Context,
                  with_rank: bool, skip: int = 0) -> Frame:
    """Top-N over an unbounded table: each partition's buffer of its best ``n`` in Spark's
    state store (``runtime.ranking.TopNChangelog``), the same changes as over a bounded
    one."""
    window: ops.OverWindow = unaliased(over.aggregates[0].expr).window
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
    window: ops.OverWindow = unaliased(over.aggregates[0].expr).window
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
    window: ops.OverWindow = unaliased(over.aggregates[0].expr).window
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
    updating = is_updating(over, streaming=True, unbounded=True)
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
    window: ops.OverWindow = unaliased(over.aggregates[0].expr).window
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
        return Frame(retractions(df, by_arrival, names), updating=True)
    if order.ascending:
        df = df.withColumn("__n", F.row_number().over(by_arrival)).where(F.col("__n") == 1)
        return Frame(df.select(*[quoted(n) for n in names], F.col(SEQ)))
    return Frame(retractions(df, by_arrival, names), updating=True)
