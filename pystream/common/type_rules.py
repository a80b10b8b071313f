"""Flink's type rules: the type of a literal, of arithmetic, of an aggregate, and the common
type of several (IF, CASE, UNION, VALUES). They follow Flink's ``LogicalTypeMerging``, not
Spark: INT / INT is INT, AVG of INT is INT, ``1.5`` is DECIMAL(2, 1)."""
from __future__ import annotations

import datetime
import decimal
from typing import Any, Optional, Sequence

from pystream.common.data_types import (
    ArrayType,
    BigIntType,
    BinaryType,
    BooleanType,
    CharType,
    DataType,
    DataTypes,
    DateType,
    DayTimeIntervalType,
    DecimalType,
    DoubleType,
    FloatType,
    IntType,
    LocalZonedTimestampType,
    MapType,
    NullType,
    SmallIntType,
    TimestampType,
    TimeType,
    TinyIntType,
    VarBinaryType,
    VarCharType,
    YearMonthIntervalType,
    infer_data_type,
)
from pystream.util.exceptions import ValidationException

__all__ = ["arithmetic_type", "aggregate_type", "common_type", "literal_type",
           "sql_literal_type", "is_numeric", "is_integral"]

MAX_PRECISION = 38
INTEGRAL = (TinyIntType, SmallIntType, IntType, BigIntType)
INTEGRAL_DIGITS = {TinyIntType: 3, SmallIntType: 5, IntType: 10, BigIntType: 19}
STRINGS = (CharType, VarCharType)
BINARIES = (BinaryType, VarBinaryType)
INTERVALS = (YearMonthIntervalType, DayTimeIntervalType)
DATETIMES = (DateType, TimeType, TimestampType, LocalZonedTimestampType)


def is_integral(t: DataType) -> bool:
    return isinstance(t, INTEGRAL)


def is_numeric(t: DataType) -> bool:
    return isinstance(t, INTEGRAL + (FloatType, DoubleType, DecimalType))


def _nullable(result: DataType, *inputs: DataType) -> DataType:
    return result.nullable() if any(t.is_nullable for t in inputs) else result.not_null()


def _as_decimal(t: DataType) -> DecimalType:
    if isinstance(t, DecimalType):
        return t
    return DecimalType(INTEGRAL_DIGITS[type(t)], 0)


def _adjusted(precision: int, scale: int, min_scale: int = 6) -> DecimalType:
    """Flink's adjustPrecisionScale: keep the integer digits, give up scale down to 6."""
    if precision <= MAX_PRECISION:
        return DecimalType(precision, scale)
    integer_digits = precision - scale
    scale = max(MAX_PRECISION - integer_digits, min(scale, min_scale))
    return DecimalType(MAX_PRECISION, scale)


def _decimal_arithmetic(op: str, a: DecimalType, b: DecimalType) -> DecimalType:
    p1, s1, p2, s2 = a.precision, a.scale, b.precision, b.scale
    if op in "+-":
        scale = max(s1, s2)
        return _adjusted(max(p1 - s1, p2 - s2) + scale + 1, scale)
    if op == "*":
        return _adjusted(p1 + p2 + 1, s1 + s2)
    if op == "/":
        scale = max(6, s1 + p2 + 1)
        return _adjusted(p1 - s1 + s2 + scale, scale)
    scale = max(s1, s2)  # %
    return _adjusted(min(p1 - s1, p2 - s2) + scale, scale)


def _wider_integral(a: DataType, b: DataType) -> DataType:
    return a if INTEGRAL.index(type(a)) >= INTEGRAL.index(type(b)) else b


def arithmetic_type(op: str, left: DataType, right: DataType) -> DataType:
    """The result of ``left op right`` for op in + - * / %."""
    if isinstance(left, NullType) or isinstance(right, NullType):
        other = right if isinstance(left, NullType) else left
        return other.nullable()
    if is_numeric(left) and is_numeric(right):
        if isinstance(left, (FloatType, DoubleType)) or isinstance(right, (FloatType, DoubleType)):
            result = DoubleType() if DoubleType in (type(left), type(right)) else FloatType()
        elif isinstance(left, DecimalType) or isinstance(right, DecimalType):
            result = _decimal_arithmetic(op, _as_decimal(left), _as_decimal(right))
        elif op == "%":
            result = right
        else:
            result = _wider_integral(left, right)
        return _nullable(result, left, right)
    if op == "+" and (isinstance(left, STRINGS) or isinstance(right, STRINGS)):
        return _nullable(DataTypes.STRING(), left, right)  # concatenation
    if op in "+-":
        if isinstance(left, DATETIMES) and isinstance(right, INTERVALS):
            return _nullable(left, left, right)
        if op == "+" and isinstance(right, DATETIMES) and isinstance(left, INTERVALS):
            return _nullable(right, left, right)
        if isinstance(left, INTERVALS) and type(left) is type(right):
            return _nullable(left, left, right)
    if op in "*/" and isinstance(left, INTERVALS) and is_numeric(right):
        return _nullable(left, left, right)
    if op == "*" and isinstance(right, INTERVALS) and is_numeric(left):
        return _nullable(right, left, right)
    raise ValidationException(
        "Cannot apply '%s' to arguments of type '<%s> %s <%s>'." % (
            op, left.summary_string(), op, right.summary_string()))


def aggregate_type(name: str, arg: Optional[DataType]) -> DataType:
    """The result type of an aggregate function over an argument of type ``arg``."""
    if name == "count":
        return DataTypes.BIGINT(False)
    if name == "listagg":
        return DataTypes.STRING()
    if name == "collect":
        return DataTypes.MULTISET(arg).not_null()
    if name in ("array_agg", "array_agg_ignore_nulls"):
        return DataTypes.ARRAY(arg)
    if arg is None:
        raise ValidationException("%s needs an argument." % name.upper())
    if name in ("min", "max", "first_value", "last_value"):
        return arg.nullable()
    if not is_numeric(arg):
        raise ValidationException("%s does not take an argument of type %s." % (
            name.upper(), arg.summary_string()))
    if isinstance(arg, DecimalType):
        if name in ("sum", "sum0"):
            result = DecimalType(MAX_PRECISION, arg.scale)
        else:
            result = DecimalType(MAX_PRECISION, max(6, arg.scale))
    else:
        result = arg
    return result.not_null() if name == "sum0" else result.nullable()


def common_type(types: Sequence[DataType]) -> Optional[DataType]:
    """The least type all ``types`` convert to, or None; NULL is absorbed by any type."""
    known = [t for t in types if not isinstance(t, NullType)]
    if not known:
        return NullType()
    nullable = len(known) < len(types) or any(t.is_nullable for t in known)
    result = known[0]
    for t in known[1:]:
        result = _common_pair(result, t)
        if result is None:
            return None
    return result.nullable() if nullable else result.not_null()


def _common_pair(a: DataType, b: DataType) -> Optional[DataType]:
    if is_numeric(a) and is_numeric(b):
        if isinstance(a, DoubleType) or isinstance(b, DoubleType):
            return DoubleType()
        if isinstance(a, FloatType) or isinstance(b, FloatType):
            return FloatType() if not (isinstance(a, DecimalType) or isinstance(b, DecimalType)) \
                else DoubleType()
        if isinstance(a, DecimalType) or isinstance(b, DecimalType):
            x, y = _as_decimal(a), _as_decimal(b)
            scale = max(x.scale, y.scale)
            return _adjusted(max(x.precision - x.scale, y.precision - y.scale) + scale, scale)
        return _wider_integral(a, b)
    if isinstance(a, STRINGS) and isinstance(b, STRINGS):
        length = max(a.length, b.length)
        if isinstance(a, CharType) and isinstance(b, CharType) and a.length == b.length:
            return CharType(length)
        return VarCharType(length)  # CHAR(5) and CHAR(4) meet in VARCHAR(5), as in Flink
    if isinstance(a, BINARIES) and isinstance(b, BINARIES):
        if isinstance(a, BinaryType) and isinstance(b, BinaryType) and a.length == b.length:
            return BinaryType(a.length)
        return VarBinaryType(max(a.length, b.length))
    if isinstance(a, (TimestampType, LocalZonedTimestampType)) and type(a) is type(b):
        return type(a)(max(a.precision, b.precision))
    if isinstance(a, ArrayType) and isinstance(b, ArrayType):
        element = common_type([a.element_type, b.element_type])
        return None if element is None else ArrayType(element)
    if isinstance(a, MapType) and isinstance(b, MapType):
        key = common_type([a.key_type, b.key_type])
        value = common_type([a.value_type, b.value_type])
        return None if key is None or value is None else MapType(key, value)
    if type(a) is type(b):
        return a
    return None


def literal_type(value: Any) -> DataType:
    """The type of ``lit(value)`` in the Table API (a Python value handed to Java)."""
    if value is None:
        return NullType()
    if isinstance(value, bool):
        return BooleanType(False)
    if isinstance(value, int):
        return (IntType(False) if -2 ** 31 <= value < 2 ** 31 else BigIntType(False))
    if isinstance(value, float):
        return DoubleType(False)
    if isinstance(value, str):
        return CharType(len(value), False)
    if isinstance(value, decimal.Decimal):
        return _decimal_of(value).not_null()
    if isinstance(value, (bytes, bytearray)):
        return BinaryType(len(value), False)
    if isinstance(value, datetime.datetime):
        return TimestampType(6 if value.microsecond else 0, False)
    if isinstance(value, datetime.date):
        return DateType(False)
    if isinstance(value, datetime.time):
        return TimeType(0, False)
    if isinstance(value, list):
        element = common_type([literal_type(v) for v in value]) if value else NullType()
        return ArrayType(element, False)
    return infer_data_type(value).not_null()


def _decimal_of(value: decimal.Decimal) -> DecimalType:
    _sign, digits, exponent = value.as_tuple()
    scale = max(0, -exponent)
    precision = max(len(digits), scale, 1)
    return DecimalType(min(precision, MAX_PRECISION), scale)


def sql_literal_type(text: str) -> DataType:
    """The type of a numeric literal in Flink SQL: ``1`` INT, ``1.5`` DECIMAL(2, 1), ``1e2``
    DOUBLE, all NOT NULL."""
    if "e" in text.lower():
        return DoubleType(False)
    if "." in text:
        return _decimal_of(decimal.Decimal(text)).not_null()
    value = int(text)
    if -2 ** 31 <= value < 2 ** 31:
        return IntType(False)
    if -2 ** 63 <= value < 2 ** 63:
        return BigIntType(False)
    return DecimalType(min(len(text.lstrip("-")), MAX_PRECISION), 0, False)
