"""How ``print()`` shows records: like Flink's Java ``toString`` for typed streams
(``+I[1,aaa]`` for rows, ``(1,aaa)`` for tuples, ``{k=1}`` for maps), ``str(value)`` for
untyped (pickled) streams, as PyFlink does."""
from __future__ import annotations

import datetime
import decimal
import json
import math
import struct
from typing import Callable, Optional

from pystream.common.time import Instant
from pystream.common.typeinfo import (
    BasicType,
    BasicTypeInfo,
    MapTypeInfo,
    PickledBytesTypeInfo,
    RowTypeInfo,
    TupleTypeInfo,
    TypeInformation,
    Types,
    _ElementTypeInfo,
)
from pystream.common.types import Row


def java_double(x: float, single: bool = False) -> str:
    """Java's Double.toString (or Float.toString when ``single``) of ``x``."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0.0" if math.copysign(1, x) < 0 else "0.0"
    d = decimal.Decimal(_shortest_float32(x) if single else repr(x))
    if 1e-3 <= abs(x) < 1e7:
        text = format(d, "f")
        return text if "." in text else text + ".0"
    sign, digits, exponent = d.normalize().as_tuple()
    digits = "".join(map(str, digits))
    return "%s%s.%sE%d" % ("-" if sign else "", digits[0], digits[1:] or "0",
                           exponent + len(digits) - 1)


def _shortest_float32(x: float) -> str:
    """Java's text of the 32-bit float of ``x``: ``x``'s own digits when it was read from
    that text (a job's client gets Java's text, see ``records.column_decoder``), else the
    shortest decimal text that reads back as the same 32-bit float."""
    as32 = struct.unpack("f", struct.pack("f", x))[0]
    own = repr(x)
    if len(own.lstrip("-0.").replace(".", "").split("e")[0].rstrip("0")) <= 9 and \
            struct.unpack("f", struct.pack("f", float(own)))[0] == as32:
        return own
    for precision in range(1, 10):
        text = "%.*g" % (precision, as32)
        if struct.unpack("f", struct.pack("f", float(text)))[0] == as32:
            return text
    return repr(as32)


def _big_decimal(d: decimal.Decimal) -> str:
    """Java's BigDecimal.toString: Python's text of a Decimal (same notation rules), with no
    negative zero."""
    return str(d.copy_abs() if d.is_zero() else d)


def _timestamp(dt: datetime.datetime) -> str:
    base = dt.strftime("%Y-%m-%d %H:%M:%S")
    frac = ("%06d" % dt.microsecond).rstrip("0") or "0"
    return "%s.%s" % (base, frac)


def python_row_string(row: Row) -> str:
    """How PyFlink prints a ROW record: its kind and ``str()`` of each field."""
    return "%s[%s]" % (row.get_row_kind(), ",".join(str(v) for v in row._values))


def java_string(value, type_info: TypeInformation) -> str:
    """The string Flink's print sink shows for ``value`` of ``type_info``."""
    if isinstance(type_info, PickledBytesTypeInfo):
        return value if isinstance(value, str) else str(value)
    return _java(value, type_info)


def _java(value, t) -> str:
    if value is None:
        return "null"
    if isinstance(t, RowTypeInfo):
        fields = value._values if isinstance(value, Row) else list(value)
        kind = str(value.get_row_kind()) if isinstance(value, Row) else "+I"
        return "%s[%s]" % (kind, ", ".join(_java(v, ft) for v, ft in
                                           zip(fields, t.get_field_types())))
    if isinstance(t, TupleTypeInfo):
        return "(%s)" % ",".join(_java(v, ft) for v, ft in zip(value, t.get_field_types()))
    if isinstance(t, MapTypeInfo):
        return "{%s}" % ", ".join("%s=%s" % (_java(k, t._key_type_info),
                                             _java(v, t._value_type_info))
                                  for k, v in value.items())
    if isinstance(t, _ElementTypeInfo):
        if isinstance(value, (bytes, bytearray)):
            return "[%s]" % ", ".join(str(b if b < 128 else b - 256) for b in value)
        return "[%s]" % ", ".join(_java(v, t.element_type) for v in value)
    if isinstance(t, BasicTypeInfo):
        kind = t._basic_type
        if kind is BasicType.BOOLEAN:
            return "true" if value else "false"
        if kind is BasicType.DOUBLE:
            return java_double(float(value))
        if kind is BasicType.FLOAT:
            return java_double(float(value), single=True)
        if kind in (BasicType.BIG_DEC, BasicType.BIG_INT):
            return _big_decimal(decimal.Decimal(value))
        if kind is BasicType.INSTANT and isinstance(value, Instant):
            dt = datetime.datetime.fromtimestamp(value.seconds, datetime.timezone.utc)
            frac = ("%09d" % value.nanos).rstrip("0")
            return dt.strftime("%Y-%m-%dT%H:%M:%S") + ("." + frac if frac else "") + "Z"
    if isinstance(value, datetime.datetime):
        return _timestamp(value)
    if isinstance(value, datetime.time):
        return value.strftime("%H:%M:%S")
    if isinstance(value, datetime.date):
        return value.isoformat()
    return str(value)


def java_formatter(type_info: TypeInformation) -> Callable[[object], str]:
    """Java's ``toString`` of records of one type, as Flink's SimpleStringEncoder writes them
    (``+I[1, a]`` for a row, ``(1,a)`` for a tuple, ``[1, 2]`` for an array, ``{k=v}``), with
    the type's dispatch done once."""
    if isinstance(type_info, PickledBytesTypeInfo):
        return lambda v: v if isinstance(v, str) else str(v)
    if isinstance(type_info, RowTypeInfo):
        fields = [java_formatter(t) for t in type_info.get_field_types()]

        def row(v):
            if v is None:
                return "null"
            values = v._values if isinstance(v, Row) else v
            kind = str(v.get_row_kind()) if isinstance(v, Row) else "+I"
            return "%s[%s]" % (kind, ", ".join([f(x) for f, x in zip(fields, values)]))
        return row
    if isinstance(type_info, TupleTypeInfo):
        fields = [java_formatter(t) for t in type_info.get_field_types()]
        return lambda v: "null" if v is None else "(%s)" % ",".join(
            [f(x) for f, x in zip(fields, v)])
    if isinstance(type_info, MapTypeInfo):
        key = java_formatter(type_info._key_type_info)
        value = java_formatter(type_info._value_type_info)
        return lambda v: "null" if v is None else "{%s}" % ", ".join(
            ["%s=%s" % (key(k), value(x)) for k, x in v.items()])
    if isinstance(type_info, _ElementTypeInfo):
        element = java_formatter(type_info.element_type)
        return lambda v: ("null" if v is None else java_string(v, type_info)
                          if isinstance(v, (bytes, bytearray))
                          else "[%s]" % ", ".join([element(x) for x in v]))
    if type_info == Types.STRING():
        return lambda v: "null" if v is None else v
    if type_info in (Types.LONG(), Types.INT(), Types.SHORT(), Types.BYTE()):
        return lambda v: "null" if v is None else str(v)
    return lambda v: java_string(v, type_info)


def compact_json(value, scalar: Callable[[object], Optional[str]] = lambda v: None) -> str:
    """``value`` (dicts, lists, scalars) as JSON without spaces, keys in their order, text
    as it is (not escaped to ASCII); ``scalar`` writes the values it returns text for."""
    if isinstance(value, dict):
        return "{%s}" % ",".join("%s:%s" % (json.dumps(k, ensure_ascii=False),
                                            compact_json(v, scalar)) for k, v in value.items())
    if isinstance(value, list):
        return "[%s]" % ",".join(compact_json(v, scalar) for v in value)
    text = scalar(value)
    return text if text is not None else json.dumps(value, ensure_ascii=False, default=str)
