"""ORDER BY, LIMIT and OFFSET."""
from __future__ import annotations

from dataclasses import replace

from pyspark.sql import functions as F

from pystream.compiler.expressions import quoted
from pystream.compiler.relational.frames import (
    Context,
    Frame,
    not_on_unbounded,
    ordering,
    translate,
)
from pystream.compiler.relational.ranking import top_n
from pystream.compiler.time_ordered import temporal_sort
from pystream.errors import UnsupportedFeatureError
from pystream.relational import expressions as ex
from pystream.relational import operations as ops
from pystream.relational.resolve import type_of
from pystream.relational.schema import Field, Schema
from pystream.util.exceptions import TableException


def sort_frame(node: ops.Sort, ctx: Context) -> Frame:
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
            frame = translate(node.input, ctx)
            if frame.updating:
                raise UnsupportedFeatureError("ORDER BY over an updating table")
            return Frame(temporal_sort(node, frame, ctx, translate))
    not_on_unbounded(ctx, "ORDER BY / LIMIT / OFFSET")
    frame = translate(node.input, ctx)
    schema = node.input.schema
    keys = [ordering(o, schema) for o in node.keys]
    df = frame.df.orderBy(*keys) if keys else frame.df
    if node.offset:
        df = df.offset(node.offset)
    if node.fetch is not None:
        df = df.limit(node.fetch)
    return replace(frame, df=df)


def _sort_limit(node: ops.Sort, ctx: Context) -> Frame:
    """``ORDER BY keys LIMIT n [OFFSET m]`` in STREAMING mode: Flink's Top-N without
    partitions and without a rank column (``top_n`` of a ROW_NUMBER over all rows); with an
    offset, the changes of the ranks m + 1 to m + n, by rank."""
    window = ops.OverWindow(order_by=node.keys)
    rank = Field("__rank", type_of(ex.Call("row_number"), node.input.schema))
    over = ops.Over(schema=Schema(node.input.schema.fields + (rank,)), input=node.input,
                    aggregates=(ex.Alias(ex.OverCall(ex.Call("row_number"), window),
                                         (rank.name,)),))
    frame = top_n(over, node.offset + node.fetch, ctx, with_rank=False, skip=node.offset)
    return replace(frame, df=frame.df.select(*[quoted(n) for n in node.schema.names],
                                             *[F.col(c) for c in frame.system_columns(ctx)]))
