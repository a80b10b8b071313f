"""Joins: regular (over changelogs too), interval joins planned on time buckets,
temporal joins against versioned tables, and lookup joins."""
from __future__ import annotations

import functools
from dataclasses import replace
from typing import List, Optional, Tuple

from pyspark.sql import Column, DataFrame, Window
from pyspark.sql import functions as F
from pyspark.sql import types as st

from pystream.compiler.expressions import quoted, to_column
from pystream.compiler.relational.frames import (
    DELETE,
    INSERT,
    OP,
    SEQ,
    SUB,
    UPDATE_BEFORE,
    Context,
    Frame,
    not_on_unbounded,
    translate,
)
from pystream.errors import UnsupportedFeatureError
from pystream.relational import expressions as ex
from pystream.relational import operations as ops
from pystream.relational.schema import Schema
from pystream.relational.time_bounded import (
    conjuncts,
    interval_bounds,
    is_interval_join,
    is_window_join,
    shifted_time,
    window_of,
)
from pystream.runtime.joining import JoinChangelog, JoinState, TemporalJoinState

JOIN_KINDS = {"inner": "inner", "left": "left", "right": "right", "full": "full",
              "semi": "left_semi", "anti": "left_anti"}


def join_frame(node: ops.Join, ctx: Context) -> Frame:
    if is_interval_join(node) or is_window_join(node):
        return _time_bounded_join(node, ctx)
    left = translate(node.left, ctx)
    right = translate(node.right, ctx)
    if ctx.unbounded and (node.kind != "inner" or left.updating or right.updating):
        if node.kind in ("semi", "anti"):
            not_on_unbounded(ctx, "a %s join of an updating table" % node.kind)
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
    window_end, marked as an event time by ``window_table_frame``)."""
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


def temporal_join_frame(node: ops.TemporalJoin, ctx: Context) -> Frame:
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
