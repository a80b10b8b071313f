"""Aggregates OVER a time-ordered window in STREAMING mode, as Flink's over aggregates emit
them: each row once, when the watermark passes its time (``runtime.over_windows``).

* over an unbounded table: ``transformWithState`` per partition, woken by Spark's watermark
  (event time), or at once per micro-batch (processing time);
* over a bounded table: ``applyInPandas`` per partition, replaying the watermark each row
  came at. Flink's SQL sources emit their watermark after each record that moves it by more
  than 200 ms; here it moves after every record (the largest time so far minus the delay of
  the table's ``WATERMARK`` clause), so rows behind it are late and dropped as in Flink.

The partition keys, the fields and the aggregates' arguments are Spark expressions; only the
accumulation runs in Python.
"""
from __future__ import annotations

from typing import List, Optional

from pyspark.sql import DataFrame, Window
from pyspark.sql import functions as F
from pyspark.sql import types as st

from pystream.compiler.changelog import aggregate_spec
from pystream.compiler.expressions import quoted, to_column
from pystream.plan.relational import one_window, time_ordered
from pystream.relational import expressions as ex
from pystream.relational import operations as ops
from pystream.relational.resolve import type_of

__all__ = ["over_aggregate"]

SEQ, WATERMARK = "__seq", "__wm"


def _call(aggregate: ex.Expr) -> ex.OverCall:
    return aggregate.expr if isinstance(aggregate, ex.Alias) else aggregate


def over_aggregate(node: ops.Over, frame, ctx, translate):
    """``node``'s rows (append-only) over ``frame``, its input (``translate`` translates a
    node: the bounded replay reads the watermark's source again)."""
    from pystream.runtime.over_windows import OverFrame

    window = one_window(node)
    schema = node.input.schema
    fields = list(schema.names)
    time_field = window.order_by[0].expr.name
    keys = [to_column(p, schema).alias("__part%d" % i) for i, p in enumerate(window.partition_by)]
    keys = keys or [F.lit(0).alias("__part0")]
    args, specs = [], []
    for i, aggregate in enumerate(node.aggregates):
        call = _call(aggregate).agg
        names = ["__arg%d_%d" % (i, j) for j in range(len(call.args))]
        args += [to_column(e, schema).alias(n) for e, n in zip(call.args, names)]
        specs.append(aggregate_spec(call, names, type_of(call, schema),
                                    [type_of(e, schema) for e in call.args]))
    over = OverFrame(window.rows, window.preceding, specs)
    carried = fields + [a for n in specs for a in n.columns]
    output = list(node.schema.names)
    columns = [*keys, *[quoted(f) for f in fields], *args]
    if ctx.unbounded:
        return _stream(node, frame.df, columns, over, carried, time_field, output,
                       len(keys), ctx)
    watermarks = _arrival_watermarks(node, time_field, ctx, translate)
    df = frame.df.select(*columns, F.col(SEQ))
    df = df.join(watermarks, SEQ, "left").select(*df.columns, WATERMARK) \
        if watermarks is not None else df.withColumn(WATERMARK, F.lit(None).cast("double"))
    return _replay(node, df, over, carried, time_field, output, len(keys))


def _output_type(node: ops.Over) -> st.StructType:
    return st.StructType([st.StructField(f.name, f.data_type.spark_type(), True)
                          for f in node.schema])


def _stream(node, df: DataFrame, columns, over, carried: List[str], time_field: str,
             output: List[str], n_keys: int, ctx) -> DataFrame:
    """Spark drops an input row behind the watermark before a stateful operator sees it;
    the operator decides which rows are late as Flink does, so the time reaches it as a
    plain column, and leaves it as the event time it was."""
    from pystream.runtime.over_windows import OverAggregateState

    proctime = time_ordered(node) == "proctime"
    processor = OverAggregateState(over, carried, time_field, output, proctime=proctime)
    if ctx.compiler is not None:
        processor = ctx.compiler.ship(processor)
    metadata = df.schema[time_field].metadata
    df = df.select(*columns).withColumn(time_field, F.col(time_field).alias(time_field,
                                                                            metadata={}))
    df = df.groupBy(*df.columns[:n_keys]).transformWithState(
        processor, _output_type(node), "Append", "ProcessingTime" if proctime else "EventTime")
    return df.withColumn(time_field, F.col(time_field).alias(time_field, metadata=metadata))


def _replay(node, df: DataFrame, over, carried: List[str], time_field: str,
            output: List[str], n_keys: int) -> DataFrame:
    from pystream.runtime.over_windows import OverAggregateReplay

    run = OverAggregateReplay(over, carried, time_field, output + [SEQ], SEQ, WATERMARK)
    schema = st.StructType(_output_type(node).fields +
                           [st.StructField(SEQ, st.LongType(), False)])
    return df.groupBy(*df.columns[:n_keys]).applyInPandas(lambda rows: run(rows), schema)


def _arrival_watermarks(node: ops.Over, time_field: str, ctx, translate) -> Optional[DataFrame]:
    """Per record of the source whose ``WATERMARK`` is on ``time_field``: the watermark when
    it arrived (``__wm``, epoch milliseconds; null before the first record), by ``__seq``.
    None without such a source (no row is late then)."""
    scan = next((n for n in ops.walk(node.input) if isinstance(n, ops.ConnectorScan)
                 and n.watermark is not None and n.watermark[0] == time_field), None)
    if scan is None:
        return None
    source = translate(scan, ctx).df
    watermark = F.unix_millis(to_column(scan.watermark[1], scan.schema).cast("timestamp"))
    before = Window.orderBy(SEQ).rowsBetween(Window.unboundedPreceding, -1)
    return source.select(F.col(SEQ), F.max(watermark).over(before).cast("double")
                         .alias(WATERMARK))
