"""Constants written as expressions, as the literals they are.

SQL writes many constants as expressions: ``TIMESTAMP '2024-01-01 00:00:01'``, ``-3``,
``CAST(NULL AS STRING)``, ``CAST(1.5 AS DOUBLE)``. ``as_literal`` turns those whose value
is exact (no rounding, truncation, overflow or parsing choice) into a ``Literal`` of the
expression's type, so that a VALUES of them is one table of rows; anything else stays the
expression it is, and Spark evaluates it as before.
"""
from __future__ import annotations

import datetime
import re
from decimal import Decimal
from typing import Any, Callable, Dict, Optional

from pystream.common import data_types as t
from pystream.relational import expressions as ex

_INTEGER_RANGES = {t.TinyIntType: 8, t.SmallIntType: 16, t.IntType: 32, t.BigIntType: 64}
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.(\d{1,9}))?")
_TIME = re.compile(r"\d{2}:\d{2}:\d{2}")


def as_literal(expr: ex.Expr) -> ex.Expr:
    """``expr`` as a Literal of its type when it is an exact constant, else ``expr``."""
    if isinstance(expr, ex.Call) and expr.name == "negate" and len(expr.args) == 1:
        inner = as_literal(expr.args[0])
        if isinstance(inner, ex.Literal) and _is_number(inner.value):
            # (Decimal's -0 is 0, as for Java's BigDecimal; a double keeps its -0.0)
            value = 0 - inner.value if isinstance(inner.value, Decimal) else -inner.value
            if _cast_value(value, inner.data_type) is not _INEXACT:
                return ex.Literal(value, inner.data_type)
        return expr
    if isinstance(expr, ex.Cast):
        inner = as_literal(expr.expr)
        if isinstance(inner, ex.Literal):
            value = _cast_value(inner.value, expr.to)
            if value is not _INEXACT:
                return ex.Literal(value, expr.to)
    return expr


def converted(literal: ex.Literal, to: t.DataType) -> Optional[ex.Literal]:
    """``literal`` as a value of ``to`` (a VALUES column's common type), None unless exact."""
    if literal.data_type.nullable() == to.nullable():
        return ex.Literal(literal.value, to)
    value = _cast_value(literal.value, to)
    return None if value is _INEXACT else ex.Literal(value, to)


_INEXACT = object()


def _cast_value(value: Any, to: t.DataType) -> Any:
    """``value`` as a value of ``to`` when the cast is exact, else ``_INEXACT``."""
    if value is None:
        return None
    cast = _CASTS.get(type(to))
    return _INEXACT if cast is None else cast(value, to)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)


def _to_integer(value: Any, to: t.DataType) -> Any:
    bits = _INTEGER_RANGES[type(to)]
    if isinstance(value, int) and not isinstance(value, bool) \
            and -(1 << (bits - 1)) <= value < (1 << (bits - 1)):
        return value
    return _INEXACT


def _to_decimal(value: Any, to: t.DecimalType) -> Any:
    if not (isinstance(value, (int, Decimal)) and not isinstance(value, bool)):
        return _INEXACT
    exact = Decimal(value)
    scaled = exact.quantize(Decimal(1).scaleb(-to.scale))
    if scaled != exact or len(scaled.as_tuple().digits) > to.precision:
        return _INEXACT
    return scaled


def _to_double(value: Any, to: t.DataType) -> Any:
    return float(value) if _is_number(value) else _INEXACT


def _to_string(value: Any, to: t.DataType) -> Any:  # (CHAR pads as its values are made)
    return value if isinstance(value, str) and len(value) <= to.length else _INEXACT


def _to_boolean(value: Any, to: t.DataType) -> Any:
    return value if isinstance(value, bool) else _INEXACT


def _to_date(value: Any, to: t.DataType) -> Any:
    if isinstance(value, str) and _DATE.fullmatch(value):
        return _parsed(datetime.date.fromisoformat, value)
    return _INEXACT


def _to_time(value: Any, to: t.DataType) -> Any:
    if isinstance(value, str) and _TIME.fullmatch(value):  # a fraction: precision rules
        return _parsed(datetime.time.fromisoformat, value)
    return _INEXACT


def _to_timestamp(value: Any, to: t.TimestampType) -> Any:
    match = _TIMESTAMP.fullmatch(value) if isinstance(value, str) else None
    if match is None or len(match.group(1) or "") > min(to.precision, 6):
        return _INEXACT
    return _parsed(datetime.datetime.fromisoformat, value)


def _parsed(parse: Callable[[str], Any], text: str) -> Any:
    try:
        return parse(text)
    except ValueError:  # out of range (a 13th month...): the cast says so
        return _INEXACT


_CASTS: Dict[type, Callable[[Any, Any], Any]] = {
    **{kind: _to_integer for kind in _INTEGER_RANGES},
    t.DecimalType: _to_decimal,
    t.DoubleType: _to_double,
    t.CharType: _to_string,
    t.VarCharType: _to_string,
    t.BooleanType: _to_boolean,
    t.DateType: _to_date,
    t.TimeType: _to_time,
    t.TimestampType: _to_timestamp,
}
