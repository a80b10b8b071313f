"""Operators over time-ordered rows in STREAMING mode, as Flink's streaming SQL runs them
(``runtime.time_ordered``): aggregates OVER a window ordered by a time attribute, and
ORDER BY the rowtime. A row is emitted once, when the watermark passes its time.

* over an unbounded table: ``transformWithState`` per key (an OVER window's partition; one
  key for a sort), woken by Spark's watermark (event time), or at once per micro-batch
  (processing time);
* over a bounded table: ``applyInPandas`` per key, replaying the watermark each row came
  at: Flink's SQL watermark assigner emits it after each record that moves it more than
  200 ms past the last one it emitted (``runtime.time_ordered.EmittedWatermarks``), so
  rows behind it are late and dropped as in Flink.

The keys, the fields and the aggregates' arguments are Spark expressions; only the
buffering, sorting and accumulation run in Python.
"""
from __future__ import annotations

from typing import List, Optional, Tuple

from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F
from pyspark.sql import types as st

from pystream.compiler.changelog import aggregate_spec
from pystream.compiler.expressions import quoted, to_column
from pystream.plan.relational import one_window, time_ordered
from pystream.relational import expressions as ex
from pystream.relational import operations as ops
from pystream.relational.resolve import type_of
from pystream.runtime.time_ordered import (
    EmittedWatermarks,
    OverFrame,
    SortOrder,
    TimeOrderedReplay,
    TimeOrderedState,
)

__all__ = ["over_aggregate", "temporal_sort"]

SEQ, WATERMARK = "__seq", "__wm"


def over_aggregate(node: ops.Over, frame, ctx, translate) -> DataFrame:
    """``node``'s rows (append-only) over ``frame``, its input (``translate`` translates a
    node: the bounded replay reads the watermark's source again)."""
    window = one_window(node)
    schema = node.input.schema
    keys = [to_column(p, schema).alias("__part%d" % i) for i, p in enumerate(window.partition_by)]
    args, specs = [], []
    for i, aggregate in enumerate(node.aggregates):
        call = (aggregate.expr if isinstance(aggregate, ex.Alias) else aggregate).agg
        names = ["__arg%d_%d" % (i, j) for j in range(len(call.args))]
        args += [(n, to_column(e, schema)) for e, n in zip(call.args, names)]
        specs.append(aggregate_spec(call, names, type_of(call, schema),
                                    [type_of(e, schema) for e in call.args]))
    spec = OverFrame(window.rows, window.preceding, specs)
    return _time_ordered(node, frame, ctx, translate, spec, keys, args,
                         window.order_by[0].expr.name, time_ordered(node) == "proctime")


def temporal_sort(node: ops.Sort, frame, ctx, translate) -> DataFrame:
    """ORDER BY the rowtime, then other fields, over ``frame`` (append-only; Flink's
    temporal sort: one key, all rows)."""
    schema = node.input.schema
    secondary = node.keys[1:]  # among rows of equal time
    args = [("__sort%d" % i, to_column(o.expr, schema)) for i, o in enumerate(secondary)]
    spec = SortOrder([("__sort%d" % i, o.ascending,
                       o.nulls_first if o.nulls_first is not None else o.ascending)
                      for i, o in enumerate(secondary)])
    return _time_ordered(node, frame, ctx, translate, spec, [], args,
                         node.keys[0].expr.name, False)


def _time_ordered(node: ops.Rel, frame, ctx, translate, spec, keys: List[Column],
                  args: List[Tuple[str, Column]], time_field: str, proctime: bool
                  ) -> DataFrame:
    """``frame``'s rows through ``spec``'s buffers, one per key (``keys``; one for all rows
    without), each row with its fields and ``args`` (name, value)."""
    fields = list(node.input.schema.names)
    keys = keys or [F.lit(0).alias("__part0")]
    carried = fields + [name for name, _ in args]
    columns = [*keys, *[quoted(f) for f in fields], *[c.alias(n) for n, c in args]]
    output = list(node.schema.names)
    if ctx.unbounded:
        return _stream(node, frame.df, columns, spec, carried, time_field, output, len(keys),
                       proctime, ctx)
    watermarks = _arrival_watermarks(node, time_field, ctx, translate)
    df = frame.df.select(*columns, F.col(SEQ))
    df = df.join(watermarks, SEQ, "left").select(*df.columns, WATERMARK) \
        if watermarks is not None else df.withColumn(WATERMARK, F.lit(None).cast("double"))
    return _replay(node, df, spec, carried, time_field, output, len(keys),
                   in_order=not isinstance(node, ops.Over))


def _output_type(node: ops.Rel) -> st.StructType:
    return st.StructType([st.StructField(f.name, f.data_type.spark_type(), True)
                          for f in node.schema])


def _stream(node, df: DataFrame, columns, spec, carried: List[str], time_field: str,
            output: List[str], n_keys: int, proctime: bool, ctx) -> DataFrame:
    """Spark drops an input row behind the watermark before a stateful operator sees it;
    the operator decides which rows are late as Flink does, so the time reaches it as a
    plain column, and leaves it as the event time it was."""
    processor = TimeOrderedState(spec, carried, time_field, output, proctime=proctime)
    if ctx.compiler is not None:
        processor = ctx.compiler.ship(processor)
    metadata = df.schema[time_field].metadata
    df = df.select(*columns).withColumn(time_field, F.col(time_field).alias(time_field,
                                                                            metadata={}))
    df = df.groupBy(*df.columns[:n_keys]).transformWithState(
        processor, _output_type(node), "Append", "ProcessingTime" if proctime else "EventTime")
    return df.withColumn(time_field, F.col(time_field).alias(time_field, metadata=metadata))


def _replay(node, df: DataFrame, spec, carried: List[str], time_field: str,
            output: List[str], n_keys: int, in_order: bool) -> DataFrame:
    run = TimeOrderedReplay(spec, carried, time_field, output + [SEQ], SEQ, WATERMARK,
                            in_order)
    schema = st.StructType(_output_type(node).fields +
                           [st.StructField(SEQ, st.LongType(), False)])
    return df.groupBy(*df.columns[:n_keys]).applyInPandas(lambda rows: run(rows), schema)


def _arrival_watermarks(node: ops.Rel, time_field: str, ctx, translate) -> Optional[DataFrame]:
    """Per record of the source whose ``WATERMARK`` is on ``time_field``: the watermark when
    it arrived (``__wm``, epoch milliseconds; null before the first record), by ``__seq``.
    None without such a source (no row is late then)."""
    scan = next((n for n in ops.walk(node.input) if isinstance(n, ops.ConnectorScan)
                 and n.watermark is not None and n.watermark[0] == time_field), None)
    if scan is None:
        return None

    source = translate(scan, ctx).df
    candidate = F.unix_millis(to_column(scan.watermark[1], scan.schema).cast("timestamp"))
    records = source.select(F.col(SEQ), candidate.cast("double").alias("__candidate")) \
        .repartition(1).sortWithinPartitions(SEQ)
    emitted = EmittedWatermarks(SEQ, "__candidate", WATERMARK)
    return records.mapInPandas(lambda frames: emitted(frames),
                               "%s long, %s double" % (SEQ, WATERMARK))
