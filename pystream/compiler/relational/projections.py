"""Row by row: projections, filters (and IN/EXISTS as semi joins), table functions
(LATERAL TABLE), UNNEST and GROUPING SETS' expansion; a filter on a ROW_NUMBER rank is
handed to ``ranking``."""
from __future__ import annotations

from dataclasses import replace
from typing import Optional, Tuple

from pyspark.sql import Window
from pyspark.sql import functions as F

from pystream.common.data_types import MapType, RowType
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
    select_with_system_columns,
    translate,
)
from pystream.compiler.relational.ranking import ranked
from pystream.compiler.udfs import table_udf_column
from pystream.plan.relational import rank_filter
from pystream.relational import expressions as ex
from pystream.relational import operations as ops
from pystream.relational.resolve import type_of
from pystream.relational.schema import Schema


def project_frame(node: ops.Project, ctx: Context, frame: Optional[Frame] = None) -> Frame:
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
    return select_with_system_columns(frame, ctx, columns)


def correlate_frame(node: ops.Correlate, ctx: Context) -> Frame:
    """A table function's rows per input row: a Python UDF giving an array of structs,
    exploded (``inline_outer`` keeps rows it gives nothing for, with NULLs)."""
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


def expand_frame(node: ops.Expand, ctx: Context) -> Frame:
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


def unnest_frame(node: ops.Unnest, ctx: Context) -> Frame:
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


def table_aggregate_rows_frame(node: ops.TableAggregateRows, ctx: Context) -> Frame:
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


def filter_frame(node: ops.Filter, ctx: Context) -> Frame:
    if _streaming_ranks(node, ctx):
        return _filtered_ranks(node, ctx, with_rank=True)
    frame = translate(node.input, ctx)
    condition = node.condition
    if isinstance(condition, ex.SubQuery):
        return _semi_join(frame, node.input.schema, condition, ctx)
    return replace(frame, df=frame.df.where(to_column(condition, node.input.schema)))


def _streaming_ranks(node: ops.Filter, ctx: Context) -> Optional[Tuple[ops.Over, int, str]]:
    """The rank filter (``rank_filter``) of a STREAMING job: Top-N or deduplication."""
    return rank_filter(node) if ctx.changelog or ctx.unbounded else None


def _filtered_ranks(node: ops.Filter, ctx: Context, with_rank: bool) -> Frame:
    """The frame of a rank filter (see ``rank_filter``) in STREAMING mode."""
    over, n, _ = rank_filter(node)
    ctx.translated.update(map(id, (node, node.input, over)))  # one ranking operator
    frame = ranked(over, n, ctx, with_rank)
    return frame if node.input is over else project_frame(node.input, ctx, frame)


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
