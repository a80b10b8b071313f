"""A group-by aggregate over an unbounded stream -> ``transformWithState`` emitting Flink's
per-record changelog (``pystream.runtime.changelog``).

Spark's own streaming aggregation gives one result per key per micro-batch (its update mode);
Flink's gives one per record. The keys and the aggregates' arguments are computed by Spark
expressions; only the accumulation runs in Python, per key, in Spark's state store.
"""
from __future__ import annotations

from dataclasses import replace

from pyspark.sql import functions as F
from pyspark.sql import types as st

from pystream.compiler.expressions import quoted, to_column
from pystream.errors import UnsupportedFeatureError
from pystream.relational import expressions as ex
from pystream.relational import operations as ops
from pystream.relational.resolve import type_of
from pystream.table import types as T

__all__ = ["unbounded_aggregate"]

OP = "__op"


def _spec(call: ex.Call, columns, result: T.DataType):
    from pystream.runtime.changelog import ACCUMULATORS, AggregateSpec

    name = "count_star" if call.name == "count" and not call.args else call.name
    if name not in ACCUMULATORS or len(call.args) > 1:
        raise UnsupportedFeatureError(
            "the aggregate function %s() over an unbounded stream (there: %s)"
            % (call.name.upper(), ", ".join(sorted(n for n in ACCUMULATORS if n != "count_star"))))
    integral = isinstance(result, (T.TinyIntType, T.SmallIntType, T.IntType, T.BigIntType))
    scale = result.scale if isinstance(result, T.DecimalType) else None
    return AggregateSpec(name, tuple(columns), call.distinct, integral, scale)


def unbounded_aggregate(node: ops.Aggregate, frame, ctx):
    """``GROUP BY keys`` over an append-only stream: rows of the keys, the results and
    ``__op`` (0 +I, 1 -U, 2 +U), record by record."""
    from pystream.runtime.changelog import AggregateChangelog

    if frame.updating:
        raise UnsupportedFeatureError(
            "an aggregate over an updating table in STREAMING mode (retractions)")
    schema = node.input.schema
    key_fields = node.schema.fields[:len(node.keys)]
    keys = [to_column(k, schema).alias(f.name) for k, f in zip(node.keys, key_fields)]
    args, specs = [], []
    for i, a in enumerate(node.aggregates):
        call: ex.Call = a.expr
        names = ["__arg%d_%d" % (i, j) for j in range(len(call.args))]
        args += [to_column(e, schema).alias(n) for e, n in zip(call.args, names)]
        specs.append(_spec(call, names, type_of(call, schema)))
    names = list(node.schema.names)
    processor = AggregateChangelog(names, specs, keyed=bool(keys))
    if ctx.compiler is not None:
        processor = ctx.compiler.ship(processor)
    output = st.StructType([st.StructField(f.name, f.data_type.spark_type(), True)
                            for f in node.schema] + [st.StructField(OP, st.ByteType(), False)])
    # Spark's state store names its key columns: plain names (``EXPR$0`` is refused)
    keys = [k.alias("__key%d" % i) for i, k in enumerate(keys)] or [F.lit(0).alias("__all")]
    df = frame.df.select(*keys, *args)
    grouped = df.groupBy(*df.columns[:len(keys)])
    df = grouped.transformWithState(processor, output, "Append", "None")
    columns = [quoted(f.name).cast(f.data_type.spark_type()).alias(f.name) for f in node.schema]
    return replace(frame, df=df.select(*columns, F.col(OP).cast("int").alias(OP)),
                   updating=True)
