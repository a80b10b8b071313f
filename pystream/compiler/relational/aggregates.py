"""GROUP BY aggregates and DISTINCT: in BATCH mode Spark's aggregates, in STREAMING mode
the changelog of running aggregates (per record, in ``__seq`` order), retracting over an
updating input."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Dict, List, Optional, Tuple

from pyspark.sql import Column, DataFrame, Window
from pyspark.sql import functions as F
from pyspark.sql import types as st

from pystream.common.data_types import (
    BigIntType,
    BooleanType,
    CharType,
    DateType,
    IntType,
    LocalZonedTimestampType,
    SmallIntType,
    TimestampType,
    TinyIntType,
    VarCharType,
)
from pystream.compiler.changelog import bundled_aggregate, unbounded_aggregate
from pystream.compiler.expressions import (
    aggregate_arguments,
    aggregate_column,
    collected_user_aggregate,
    quoted,
    running_aggregate_column,
    to_column,
)
from pystream.compiler.relational.frames import (
    INSERT,
    OP,
    SEQ,
    SUB,
    UPDATE_AFTER,
    Context,
    Frame,
    changelog_of_running,
    changes,
    retractions,
    translate,
)
from pystream.compiler.relational.scans import SAMPLE_ROWS
from pystream.errors import UnsupportedFeatureError
from pystream.relational import expressions as ex
from pystream.relational import operations as ops
from pystream.relational.resolve import type_of
from pystream.relational.schema import Field, Schema
from pystream.relational.time_bounded import groups_by_window
from pystream.runtime.running import BEFORE, ROWS, RunningTotals, Total


def aggregate_frame(node: ops.Aggregate, ctx: Context) -> Frame:
    frame = translate(node.input, ctx)
    schema = node.input.schema
    keys = [to_column(k, schema).alias(f.name) for k, f in zip(node.keys, node.schema)]
    if not node.aggregates:  # GROUP BY keys only: the distinct keys
        projected = ops.Project(schema=node.schema, input=node.input, exprs=node.keys)
        return distinct_frame(ops.Distinct(schema=node.schema, input=projected), ctx)
    if ctx.unbounded:
        return unbounded_aggregate(node, frame, ctx)
    if not ctx.changelog:
        grouped = aggregated_by(frame.df, keys, aggregate_columns(node.aggregates, schema))
        return Frame(grouped.select(*[quoted(n) for n in node.schema.names]))
    python = any(isinstance(a.expr, ex.UserCall) for a in node.aggregates)
    if not frame.updating and groups_by_window(node):  # each window once, when it closes
        grouped = aggregated_by(frame.df, keys, aggregate_columns(node.aggregates, schema) + [
            (F.max(SEQ).alias(SEQ), SEQ, False)])
        return Frame(grouped.select(*[quoted(n) for n in node.schema.names], F.col(SEQ)))
    if frame.updating and not python:
        return _retracting_aggregate(node, frame, keys)
    if python:
        return bundled_aggregate(node, frame, ctx)
    key_names = [f.name for f in node.schema.fields[:len(node.keys)]]
    if _runs_in_batches(node, schema) and _holds_big_groups(node, frame.df, keys):
        return _aggregate_in_batches(node, frame, keys, key_names)
    distinct = {i: _filtered_argument(a.expr.args[0]) for i, a in enumerate(node.aggregates)
                if _counts_first_values(a.expr)}
    df = frame.df.select(*keys, *[c.alias("__arg%d_%d" % (i, j))
                                  for i, a in enumerate(node.aggregates)
                                  for j, c in enumerate(aggregate_arguments(a.expr, schema))],
                         F.col(SEQ), *[
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
    return Frame(changelog_of_running(df, key_names, [a.names[0] for a in node.aggregates]),
                 updating=True)


RETRACTABLE = ("count", "sum", "sum0", "avg", "min", "max", "first_value", "last_value")

# what the running totals of ``runtime.running`` compare and keep as they are (numpy and
# pandas order these as Spark does)
IN_BATCH_KEYS = (TinyIntType, SmallIntType, IntType, BigIntType, BooleanType, CharType,
                 VarCharType, DateType, TimestampType, LocalZonedTimestampType)
IN_BATCH_EXTREMES = (TinyIntType, SmallIntType, IntType, BigIntType, CharType, VarCharType,
                     DateType, TimestampType, LocalZonedTimestampType)
INTEGRAL = (TinyIntType, SmallIntType, IntType, BigIntType)


def _runs_in_batches(node: ops.Aggregate, schema: Schema) -> bool:
    """Whether the aggregate's running values are ``runtime.running``'s totals: its keys
    compare as they are, and each aggregate is a COUNT (DISTINCT too), a SUM or AVG of
    integers, or a MIN or MAX."""
    if not all(isinstance(type_of(k, schema), IN_BATCH_KEYS) for k in node.keys):
        return False
    for a in node.aggregates:
        call = a.expr
        if not isinstance(call, ex.Call) or isinstance(call, ex.UserCall) or len(call.args) > 1:
            return False
        arg_type = type_of(call.args[0], schema) if call.args else None
        if call.name == "count":  # of DISTINCT values that compare as they are
            if call.distinct and not isinstance(arg_type, IN_BATCH_KEYS):
                return False
            continue
        if call.distinct or not call.args:
            return False
        if call.name == "avg" and not isinstance(type_of(call, schema), INTEGRAL):
            return False
        if not (call.name in ("sum", "sum0", "avg") and isinstance(arg_type, INTEGRAL)) and not (
                call.name in ("min", "max") and isinstance(arg_type, IN_BATCH_EXTREMES)):
            return False
    return True


ROWS_PER_GROUP = 100  # rows of a group in the sample (scans.SAMPLE_ROWS) that make it big


def _holds_big_groups(node: ops.Aggregate, df: DataFrame, keys: List[Column]) -> bool:
    """Whether big groups (``ROWS_PER_GROUP`` rows or more) hold half the rows or more of a
    sample of the aggregate's input's leading rows; only where its input is a table read as
    it is (filtered, projected: the sample costs little). Spark's windows would buffer whole
    groups; where groups are small, they cost less than taking the rows to Python and
    back."""
    rel = node.input
    while isinstance(rel, (ops.Project, ops.Filter)):
        rel = rel.input
    if not isinstance(rel, (ops.ConnectorScan, ops.Values)):
        return False
    leading = df.select(*keys).limit(SAMPLE_ROWS)
    rows = leading.groupBy(*map(quoted, leading.columns)).count()
    try:
        sample = rows.agg(F.sum("count").alias("rows"), F.sum(F.when(
            F.col("count") >= ROWS_PER_GROUP, F.col("count"))).alias("in_big")).first()
    except Exception:  # noqa: BLE001 - a malformed record, a missing file: the run says
        return False
    return bool(sample.rows) and 2 * (sample.in_big or 0) >= sample.rows


def _aggregate_in_batches(node: ops.Aggregate, frame: Frame, keys: List[Column],
                          key_names: List[str]) -> Frame:
    """The running aggregates of a group as ``runtime.running.RunningTotals`` computes them
    over each Spark partition's groups, sorted by key and arrival: no window, which would
    buffer a whole group."""
    schema = node.input.schema
    columns: List[Column] = []
    totals: List[Total] = []
    for i, a in enumerate(node.aggregates):
        call = a.expr
        arg = to_column(call.args[0], schema) if call.args else None
        name = "__t%d" % i
        if call.name == "count" and call.distinct:
            columns.append(arg.alias(name))
            totals.append(Total(name, "first", name))
        elif call.name == "count":
            columns.append((F.lit(1) if arg is None else arg.isNotNull()).cast("bigint")
                           .alias(name))
            totals.append(Total(name, "sum", name))
        elif call.name in ("sum", "sum0", "avg"):
            columns += [arg.cast("bigint").alias(name),
                        arg.isNotNull().cast("bigint").alias(name + "n")]
            totals += [Total(name, "sum", name), Total(name + "n", "sum", name + "n")]
        else:
            columns.append(arg.alias(name))
            totals.append(Total(name, call.name, name))
    df = frame.df.select(*keys, F.col(SEQ), *columns)
    df = df.repartition(*[quoted(k) for k in key_names]) if key_names else df.repartition(1)
    df = df.sortWithinPartitions(*[quoted(k) for k in key_names], SEQ)
    fields = {f.name: f for f in df.schema.fields}
    output = st.StructType(
        [fields[k] for k in key_names] + [fields[SEQ], st.StructField(ROWS, st.LongType())] +
        [st.StructField(t.name + suffix, fields[t.column].dataType if t.kind in ("min", "max")
                        else st.LongType()) for t in totals for suffix in ("", BEFORE)])
    run = RunningTotals(key_names, totals)
    df = df.mapInArrow(lambda batches: run(batches), output)

    def values(suffix: str) -> List[Column]:
        out = []
        for i, (a, f) in enumerate(zip(node.aggregates, node.schema.fields[len(node.keys):])):
            total = F.col("__t%d%s" % (i, suffix))
            count = F.col("__t%dn%s" % (i, suffix))
            if a.expr.name == "sum":
                total = F.when(count > 0, total)
            elif a.expr.name == "avg":  # of integers: as Java divides them
                total = F.when(count > 0, F.expr("`__t%d%s` div `__t%dn%s`" % (
                    i, suffix, i, suffix)))
            out.append(total.cast(f.data_type.spark_type()).alias(f.name))
        return out

    keys_out = [quoted(k) for k in key_names]
    df = df.select(F.struct(*keys_out, *values("")).alias("__new"), F.when(
        F.col(ROWS) > 1, F.struct(*keys_out, *values(BEFORE))).alias("__old"), F.col(SEQ))
    names = list(node.schema.names)
    return Frame(changes(df, names, compared=names[len(key_names):]), updating=True)


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


def _retracting_aggregate(node: ops.Aggregate, frame: Frame, keys: List[Column]) -> Frame:
    """An aggregate over a changelog, as Flink retracts: per change in (``__seq``,
    ``__sub``) order, +I and +U add their row, -U and -D take it away; a key's result is
    emitted as it changes, and deleted (-D) when none of its rows is left."""
    schema = node.input.schema
    for a in node.aggregates:
        if isinstance(a.expr, ex.UserCall) or a.expr.name not in RETRACTABLE or (
                a.expr.distinct and a.expr.name not in DISTINCT_RETRACTABLE):
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

    df = frame.df
    values = []
    for i, (a, f) in enumerate(zip(node.aggregates, node.schema.fields[len(node.keys):])):
        arg = to_column(a.expr.args[0], schema) if a.expr.args else None
        if a.expr.name in KEPT_VALUES or a.expr.distinct:
            # a column of its own first: its window partitions by the input's key columns
            # (Spark refuses the keys' aliases of the select below in a window)
            by_input_keys = Window.partitionBy(*[to_column(k, schema) for k in node.keys]) \
                .orderBy(SEQ, SUB).rowsBetween(Window.unboundedPreceding, Window.currentRow)
            df = df.withColumn("__kept%d" % i, _retracted_value(
                a.expr.name, arg, sign, by_input_keys, a.expr.distinct))
            values.append(F.col("__kept%d" % i).cast(f.data_type.spark_type()).alias(f.name))
            continue
        n = counted(arg)
        total = F.sum(arg * sign).over(running) if arg is not None else None
        value = {"count": n, "sum": F.when(n > 0, total),
                 "sum0": F.when(n > 0, total).otherwise(0),
                 "avg": F.when(n > 0, total / n)}[a.expr.name]
        values.append(value.cast(f.data_type.spark_type()).alias(f.name))
    df = df.select(*keys, *values, (counted(None) > 0).alias("__present"), F.col(SEQ),
                   F.col(SUB))
    order = Window.partitionBy(*[quoted(k) for k in key_names]).orderBy(SEQ, SUB)
    names = [f.name for f in node.schema]
    return Frame(retractions(df, order, names, compared=names[len(key_names):],
                              present="__present"), updating=True)


# aggregates over an updating table that keep the values its changes leave (and DISTINCT
# ones, over those values each once)
KEPT_VALUES = ("min", "max", "first_value", "last_value")
DISTINCT_RETRACTABLE = ("count", "sum", "sum0", "avg", "min", "max")


def _retracted_value(name: str, arg: Column, sign: Column, running,
                     distinct: bool = False) -> Column:
    """MIN, MAX, FIRST_VALUE, LAST_VALUE (or COUNT/SUM/AVG of the ``distinct`` values) over the
    values a key's changes so far leave, as Flink's retracting aggregates keep them: in
    arrival order, +I/+U adding its value, -U/-D taking away that value's earliest
    occurrence; NULL for none. A key's changes so far are collected at each change: cost
    grows with the square of its changes."""
    changes = F.collect_list(F.when(arg.isNotNull(), F.struct(
        arg.alias("__value"), sign.alias("__sign")))).over(running)

    def apply(left: Column, change: Column) -> Column:
        at = F.array_position(left, change["__value"]).cast("int")
        taken = F.concat(F.slice(left, 1, at - 1), F.slice(left, at + 1, F.size(left)))
        return F.when(change["__sign"] > 0, F.concat(left, F.array(change["__value"]))) \
            .when(at > 0, taken).otherwise(left)
    empty = F.filter(F.array(arg), lambda v: F.lit(False))  # an empty array of arg's type
    left = F.aggregate(changes, empty, apply)
    if distinct:  # COUNT/SUM(DISTINCT x): of the values still there, each once
        values = F.array_distinct(left)
        rest = F.slice(values, 2, F.greatest(F.size(values) - 1, F.lit(0)))
        total = F.aggregate(rest, F.try_element_at(values, F.lit(1)), lambda t, v: t + v)
        if name == "count":
            return F.size(values).cast("bigint")
        if name in ("sum", "sum0"):
            return F.when(F.size(values) > 0, total).otherwise(
                F.lit(0) if name == "sum0" else F.lit(None))
        if name == "avg":
            return F.when(F.size(values) > 0, total / F.size(values))
    return {"min": lambda: F.array_min(left), "max": lambda: F.array_max(left),
            "first_value": lambda: F.try_element_at(left, F.lit(1)),
            "last_value": lambda: F.try_element_at(left, F.lit(-1))}[name]()


def aggregate_columns(aggregates, schema: Schema, pane: Optional[Column] = None) -> List[tuple]:
    """(Spark column, name, whether it runs Python) of each aggregate call (``pane``: see
    ``aggregate_column``)."""
    return [(aggregate_column(a.expr, schema, pane).alias(a.names[0]), a.names[0],
             isinstance(a.expr, ex.UserCall)) for a in aggregates]


def collected_python_aggregates(aggregates, schema: Schema,
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


def aggregated_by(df: DataFrame, groups: List[Column], aggs: List[tuple]) -> DataFrame:
    """``df.groupBy(groups).agg(...)`` of ``aggs`` (see ``aggregate_columns``): Spark's own
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
    """``call`` over the projected columns of its arguments (constants stay: a percentile's
    percentage, or array of them, is one)."""
    return ex.Call(call.name, tuple(a if _constant(a) else ex.Column("__arg%d_%d" % (index, j))
                                    for j, a in enumerate(call.args)), call.distinct)


def _constant(expr: ex.Expr) -> bool:
    """A literal, or an array or negation of literals."""
    if isinstance(expr, ex.Call) and expr.name in ("array", "negate"):
        return all(map(_constant, expr.args))
    return isinstance(expr, ex.Literal)


def _arg_schema(node: ops.Aggregate, schema: Schema) -> Schema:
    fields = [Field("__arg%d_%d" % (i, j), type_of(e, schema))
              for i, a in enumerate(node.aggregates) for j, e in enumerate(a.expr.args)]
    return Schema(tuple(fields))


def distinct_frame(node: ops.Distinct, ctx: Context) -> Frame:
    """DISTINCT: BATCH, the distinct rows; STREAMING, each row the first time it comes (+I;
    Flink's changelog of an aggregate without aggregate calls): over an unbounded table,
    Spark's streaming deduplication, which keeps every distinct row in its state store."""
    frame = translate(node.input, ctx)
    if not (ctx.changelog or ctx.unbounded):
        return replace(frame, df=frame.df.distinct())
    return first_of_each(frame, list(node.schema.names), ctx, "DISTINCT")


def first_of_each(frame: Frame, names: List[str], ctx: Context, what: str) -> Frame:
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
