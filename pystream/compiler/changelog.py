"""Group-by aggregates emitting Flink's changelog where Spark's own operators cannot:

* over an unbounded stream: ``transformWithState`` (``runtime.changelog.AggregateChangelog``),
  record by record (Spark's update mode gives one result per key per micro-batch, Flink one
  per record);
* over a bounded input in STREAMING mode with a Python aggregate function:
  ``applyInPandas`` (``runtime.changelog.BundledAggregate``), one result per key and bundle of
  records, as PyFlink's Python operator emits them.

The keys and the aggregates' arguments are computed by Spark expressions; only the
accumulation runs in Python, per key.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, List

from pyspark.sql import Column, Window
from pyspark.sql import functions as F
from pyspark.sql import types as st

from pystream.common import data_types as T
from pystream.compiler.expressions import quoted, to_column
from pystream.compiler.udfs import UserAggregate, shipped_evaluator
from pystream.errors import UnsupportedFeatureError
from pystream.relational import expressions as ex
from pystream.relational import operations as ops
from pystream.relational.resolve import type_of
from pystream.runtime.changelog import (
    ACCUMULATORS,
    RETRACTING_FORMS,
    AggregateChangelog,
    AggregateSpec,
    BundledAggregate,
    Lag,
    retracts,
)

__all__ = ["unbounded_aggregate", "bundled_aggregate", "aggregate_spec"]

OP, SEQ, SUB = "__op", "__seq", "__sub"


def aggregate_spec(call, columns, result: T.DataType, arg_types):
    """The ``runtime.changelog.AggregateSpec`` of an aggregate call whose arguments are
    ``columns``: built-in aggregates by name, a user-defined one as its function."""
    if isinstance(call, ex.UserCall):
        function = shipped_evaluator(UserAggregate(call.function, list(arg_types), result))
        return AggregateSpec("user", tuple(columns), function=function)
    if call.name == "lag":  # OVER windows' LAG(value [, offset [, default]])
        return AggregateSpec("user", tuple(columns[:1]), function=Lag(
            *[_constant(call, a) for a in call.args[1:]]))
    name = "count_star" if call.name == "count" and not call.args else call.name
    if name not in ACCUMULATORS or len(call.args) > 1:
        raise UnsupportedFeatureError(
            "the aggregate function %s() over an unbounded stream (there: %s)"
            % (call.name.upper(), ", ".join(sorted(n for n in ACCUMULATORS if n != "count_star"))))
    integral = isinstance(result, (T.TinyIntType, T.SmallIntType, T.IntType, T.BigIntType))
    scale = result.scale if isinstance(result, T.DecimalType) else None
    return AggregateSpec(name, tuple(columns), call.distinct, integral, scale)


def _constant(call, arg) -> Any:
    """The value of a literal argument of ``call``."""
    if not isinstance(arg, ex.Literal):
        raise UnsupportedFeatureError("%s() with an argument other than a literal after the "
                                      "first (there: %s)" % (call.name.upper(), arg))
    return arg.value


@dataclass
class _Inputs:
    """What a Python aggregation reads: the key columns (``__key<i>``: Spark's state store
    refuses names such as ``EXPR$0``; a global aggregate groups by one constant, ``__all``),
    the arguments (``__arg<i>_<j>``) and a spec per aggregate call."""

    keys: List[Column]
    args: List[Column]
    specs: list
    keyed: bool


def _inputs(node: ops.Aggregate) -> _Inputs:
    schema = node.input.schema
    keys = [to_column(k, schema).alias("__key%d" % i) for i, k in enumerate(node.keys)]
    args, specs = [], []
    for i, a in enumerate(node.aggregates):
        call = a.expr
        names = ["__arg%d_%d" % (i, j) for j in range(len(call.args))]
        args += [to_column(e, schema).alias(n) for e, n in zip(call.args, names)]
        specs.append(aggregate_spec(call, names, type_of(call, schema),
                           [type_of(e, schema) for e in call.args]))
    return _Inputs(keys or [F.lit(0).alias("__all")], args, specs, bool(keys))


def _fields(node: ops.Aggregate) -> List[st.StructField]:
    return [st.StructField(f.name, f.data_type.spark_type(), True) for f in node.schema]


def _typed(node: ops.Aggregate) -> List[Column]:
    return [quoted(f.name).cast(f.data_type.spark_type()).alias(f.name) for f in node.schema]


def _refuse_unretractable(specs) -> None:
    refused = [s for s in specs if s.distinct or (
        not s.function.retracts if s.function is not None else not retracts(s.name))]
    if refused:
        raise UnsupportedFeatureError(
            "%s over an updating table in STREAMING mode (retraction: COUNT, SUM, SUM0, AVG "
            "and Python aggregate functions with retract)" % (
                refused[0].function.label if refused[0].function is not None
                else refused[0].name.upper()))


def unbounded_aggregate(node: ops.Aggregate, frame, ctx):
    """``GROUP BY keys`` over an append-only stream: rows of the keys, the results and
    ``__op`` (0 +I, 1 -U, 2 +U)."""
    inputs = _inputs(node)
    if frame.updating:
        _refuse_unretractable(inputs.specs)
    processor = AggregateChangelog(list(node.schema.names), inputs.specs, keyed=inputs.keyed,
                                   ttl_ms=ctx.state_ttl_ms, retracting=frame.updating)
    if ctx.compiler is not None:
        processor = ctx.compiler.ship(processor)
    output = st.StructType(_fields(node) + [st.StructField(OP, st.ByteType(), False)])
    df = frame.df.select(*inputs.keys, *inputs.args, *([F.col(OP)] if frame.updating else []))
    time_mode = "ProcessingTime" if ctx.state_ttl_ms else "None"  # Spark's TTL needs it
    df = df.groupBy(*df.columns[:len(inputs.keys)]).transformWithState(
        processor, output, "Append", time_mode)
    return replace(frame, df=df.select(*_typed(node), F.col(OP).cast("int").alias(OP)),
                   updating=True)


def bundled_aggregate(node: ops.Aggregate, frame, ctx):
    """``GROUP BY keys`` with a Python aggregate function over a bounded input in STREAMING
    mode: per key, the changelog of its results at the end of each bundle of
    ``ctx.bundle_size`` records (``__seq``, ``__op``, ``__sub`` give its order)."""
    inputs = _inputs(node)
    key_columns = ["__key%d" % i for i in range(len(node.keys))]
    names = list(node.schema.names) + [SEQ, OP, SUB]
    output = st.StructType(_fields(node) + [st.StructField(SEQ, st.LongType(), False),
                                            st.StructField(OP, st.IntegerType(), False),
                                            st.StructField(SUB, st.IntegerType(), False)])
    specs = inputs.specs
    if frame.updating:  # each change is a record: its place among all of them cuts bundles
        _refuse_unretractable(specs)
        specs = [replace(s, name=RETRACTING_FORMS.get(s.name, s.name)) for s in specs]
        place = (F.row_number().over(Window.orderBy(SEQ, SUB)) - 1).alias(SEQ)
        df = frame.df.select(*inputs.keys, *inputs.args, place, F.col(OP))
    else:
        df = frame.df.select(*inputs.keys, *inputs.args, F.col(SEQ))
    run = BundledAggregate(key_columns, specs, SEQ, ctx.bundle_size, names,
                           op=OP if frame.updating else None)
    df = df.groupBy(*df.columns[:len(inputs.keys)]).applyInPandas(
        lambda frame: run(frame), output)  # a function of one argument: the group's rows
    return replace(frame, df=df.select(*_typed(node), F.col(SEQ), F.col(OP), F.col(SUB)),
                   updating=True)
