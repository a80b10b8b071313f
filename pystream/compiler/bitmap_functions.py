"""Flink's BITMAP functions -> Spark columns. A bitmap is kept as the sorted array of its
values read as unsigned 32-bit integers (``array<bigint>``, see ``BitmapType``), so that
Spark's own array functions do the set algebra: AND is ``array_intersect``, OR a sorted
``array_union``, and so on. Only BITMAP_TO_BYTES and BITMAP_FROM_BYTES, the RoaringBitmap
format, run in Python (``pystream.runtime.roaring``).

``BITMAP_FUNCTIONS`` is part of ``compiler.expressions.SPARK_FUNCTIONS`` (argument columns,
their Flink types, the result's type); ``BITMAP_AGGREGATES`` of its ``FINISHED_AGGREGATES``
(the aggregate of the arguments, the result of it).
"""
from __future__ import annotations

import re
from typing import Callable, Dict, List, Tuple

from pyspark.sql import Column
from pyspark.sql import functions as F
from pyspark.sql import types as st

from pystream.common.bitmap import TEXT_LIMIT
from pystream.runtime import roaring

UNSIGNED = 0xFFFFFFFF


def _build(values: Column) -> Column:
    """The bitmap of an array of INTs: its values but NULLs, unsigned, distinct, sorted."""
    present = F.filter(values, lambda v: v.isNotNull())
    return F.array_sort(F.array_distinct(F.transform(
        present, lambda v: v.cast("bigint").bitwiseAND(F.lit(UNSIGNED)))))


def _xor(a: Column, b: Column) -> Column:
    return F.array_sort(F.concat(F.array_except(a, b), F.array_except(b, a)))


def _cardinality(bitmap: Column) -> Column:
    return F.when(bitmap.isNotNull(), F.size(bitmap).cast("bigint"))


def _to_string(bitmap: Column) -> Column:
    """``{1,2,3}``; past TEXT_LIMIT characters cut after a comma and ended with ``...}``,
    as RoaringBitmap's toString does."""
    text = F.concat(F.lit("{"), F.array_join(F.transform(bitmap, lambda v: v.cast("string")),
                                             ","))
    cut = F.locate(",", text, TEXT_LIMIT + 1)
    return F.when(cut > 0, F.concat(F.substring(text, 1, cut), F.lit("...}"))) \
        .otherwise(F.concat(text, F.lit("}")))


def _to_array(bitmap: Column) -> Column:
    """The values as INTs (above 2^31 - 1 negative), in the bitmap's unsigned order."""
    return F.transform(bitmap, lambda v: F.when(v > 0x7FFFFFFF, v - (UNSIGNED + 1))
                       .otherwise(v).cast("int"))


def _to_bytes(bitmap: Column) -> Column:
    return F.udf(lambda values: roaring.serialize(values), st.BinaryType())(bitmap)


def _from_bytes(data: Column) -> Column:
    return F.udf(lambda data: roaring.deserialize(data),
                 st.ArrayType(st.LongType(), True))(data)


BITMAP_FUNCTIONS: Dict[str, Callable] = {
    "bitmap_build": lambda args, types, result: _build(args[0]),
    "bitmap_and": lambda args, types, result: F.array_intersect(args[0], args[1]),
    "bitmap_or": lambda args, types, result: F.array_sort(F.array_union(args[0], args[1])),
    "bitmap_xor": lambda args, types, result: _xor(args[0], args[1]),
    "bitmap_andnot": lambda args, types, result: F.array_except(args[0], args[1]),
    "bitmap_cardinality": lambda args, types, result: _cardinality(args[0]),
    "bitmap_to_string": lambda args, types, result: _to_string(args[0]),
    "bitmap_to_array": lambda args, types, result: _to_array(args[0]),
    "bitmap_to_bytes": lambda args, types, result: _to_bytes(args[0]),
    "bitmap_from_bytes": lambda args, types, result: _from_bytes(args[0]),
}


def _some(bitmaps: Column, finish: Callable[[Column], Column]) -> Column:
    """``finish`` of a group's bitmaps; NULL for a group without any (as Flink)."""
    return F.when(F.size(bitmaps) > 0, finish(bitmaps))


def _and_all(bitmaps: Column) -> Column:
    return F.aggregate(bitmaps, F.element_at(bitmaps, 1), F.array_intersect)


def _xor_all(bitmaps: Column) -> Column:
    return F.aggregate(bitmaps, F.array().cast("array<bigint>"), _xor)


_OF_BITMAPS: Dict[str, Callable[[Column], Column]] = {
    "or": lambda bitmaps: F.array_sort(F.array_distinct(F.flatten(bitmaps))),
    "and": _and_all,
    "xor": _xor_all,
}


def _aggregate(op: str) -> Tuple[Callable, Callable]:
    if op == "build":
        return (lambda args: F.collect_set(args[0].cast("bigint").bitwiseAND(F.lit(UNSIGNED))),
                lambda c, args: _some(c, F.array_sort))
    return (lambda args: F.collect_list(args[0]),
            lambda c, args: _some(c, _OF_BITMAPS[op]))


def _cardinality_of(op: str) -> Tuple[Callable, Callable]:
    aggregate, finish = _aggregate(op)
    return aggregate, lambda c, args: _cardinality(finish(c, args))


BITMAP_AGGREGATES: Dict[str, Tuple[Callable, Callable]] = {
    **{"bitmap_%s_agg" % op: _aggregate(op) for op in ("build", "and", "or", "xor")},
    **{"bitmap_%s_cardinality_agg" % op: _cardinality_of(op)
       for op in ("build", "and", "or", "xor")},
}


def typeof(args: List[Column], types, result) -> Column:
    """TYPEOF(x [, force]): x's type as Flink writes it; with force TRUE, in full, as
    Flink's serializable form writes it (VARCHAR(2147483647) for STRING)."""
    summary = types[0].summary_string()
    if len(args) == 1:
        return F.lit(summary)
    return F.when(args[1], F.lit(serializable(summary))).otherwise(F.lit(summary))


_SERIALIZABLE = [(re.compile(r"\bSTRING\b"), "VARCHAR(2147483647)"),
                 (re.compile(r"\bBYTES\b"), "VARBINARY(2147483647)"),
                 (re.compile(r"\bTIMESTAMP_LTZ\((\d)\)"), r"TIMESTAMP(\1) WITH LOCAL TIME ZONE")]


def serializable(summary: str) -> str:
    """A type's summary string as Flink's serializable string writes it: STRING, BYTES and
    TIMESTAMP_LTZ(p) in full (field names, in backquotes, kept)."""
    parts = re.split(r"(`(?:[^`]|``)*`)", summary)
    for i in range(0, len(parts), 2):
        for pattern, text in _SERIALIZABLE:
            parts[i] = pattern.sub(text, parts[i])
    return "".join(parts)
