"""TO_CHANGELOG and FROM_CHANGELOG (``Table.to_changelog()`` / ``from_changelog()``): a
changelog as an append-only table with an ``op`` column naming each change's kind, and back.
"""
from __future__ import annotations

from dataclasses import replace

from pyspark.sql import Window
from pyspark.sql import functions as F

from pystream.compiler.expressions import quoted
from pystream.compiler.relational.frames import OP, SEQ, SUB, Context, Frame, translate
from pystream.errors import UnsupportedFeatureError
from pystream.relational import operations as ops
from pystream.relational.build import CHANGE_NAMES

__all__ = ["to_changelog_frame", "from_changelog_frame"]


def to_changelog_frame(node: ops.ToChangelog, ctx: Context) -> Frame:
    """Each change as an inserted row, led by its kind's name; in the changes' order."""
    frame = translate(node.input, ctx)
    fields = [quoted(n) for n in node.input.schema.names]
    if not frame.updating:
        op = F.lit(CHANGE_NAMES[0])
        return Frame(frame.df.select(op.alias("op"), *fields,
                                     *[F.col(c) for c in frame.system_columns(ctx)]))
    op = F.element_at(F.array(*[F.lit(n) for n in CHANGE_NAMES]), F.col(OP).cast("int") + 1)
    if ctx.unbounded:
        return Frame(frame.df.select(op.alias("op"), *fields))
    # one sequence number per change, in the order of (change, its place among a change's)
    seq = F.row_number().over(Window.orderBy(SEQ, SUB)).cast("bigint")
    return Frame(frame.df.select(op.alias("op"), *fields, seq.alias(SEQ)))


def from_changelog_frame(node: ops.FromChangelog, ctx: Context) -> Frame:
    """Each row as the change its ``op`` column names (another name fails the job)."""
    if not (ctx.changelog or ctx.unbounded):
        raise UnsupportedFeatureError("from_changelog() in BATCH mode")
    frame = translate(node.input, ctx)
    if frame.updating:
        raise UnsupportedFeatureError("from_changelog() of an updating table")
    name = quoted(node.op)
    kind = F.array_position(F.array(*[F.lit(n) for n in CHANGE_NAMES]), name) - 1
    checked = F.when(kind >= 0, kind).otherwise(F.raise_error(F.concat(
        F.lit("from_changelog(): unknown change '"), F.coalesce(name, F.lit("NULL")),
        F.lit("' in column '%s' (INSERT, UPDATE_BEFORE, UPDATE_AFTER or DELETE)" % node.op))))
    fields = [quoted(n) for n in node.schema.names]
    system = [checked.cast("int").alias(OP)]
    if not ctx.unbounded:
        system = [F.col(SEQ)] + system + [F.lit(0).alias(SUB)]
    return replace(frame, df=frame.df.select(*fields, *system), updating=True)
