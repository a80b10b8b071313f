"""UNION, INTERSECT and EXCEPT (ALL or not), as Flink's changelogs in STREAMING mode."""
from __future__ import annotations

from dataclasses import replace
from typing import List

from pyspark.sql import Column, Window
from pyspark.sql import functions as F

from pystream.compiler.expressions import quoted
from pystream.compiler.relational.aggregates import first_of_each
from pystream.compiler.relational.frames import (
    INSERT,
    OP,
    SEQ,
    SUB,
    UPDATE_AFTER,
    UPDATE_BEFORE,
    Context,
    Frame,
    translate,
)
from pystream.errors import UnsupportedFeatureError
from pystream.relational import operations as ops


def set_op_frame(node: ops.SetOp, ctx: Context) -> Frame:
    streaming = ctx.changelog or ctx.unbounded
    if streaming and node.kind == "union" and not node.all:  # UNION ALL, then DISTINCT
        united = set_op_frame(replace(node, all=True), ctx)
        return first_of_each(united, list(node.schema.names), ctx, "UNION")
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
    return first_of_each(Frame(l_df.join(r_df, on, kind)), names, ctx, what)


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
