"""Java's ``hashCode()`` of the values PyFlink hands to Flink, computed in Python.

Flink decides with these hashes where a value goes: the iteration order of a ``HashMap``
(see ``pystream.runtime.shapes``) and the subtask a key belongs to (see
``pystream.runtime.key_groups``).
"""
from __future__ import annotations

import struct
from typing import Any, Callable, Optional

from pystream.common.typeinfo import BasicType, TupleTypeInfo, TypeInformation

JavaHash = Callable[[Any], int]


def int32(x: int) -> int:
    """``x`` wrapped to a signed 32-bit int, as Java's int arithmetic leaves it."""
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x >= 1 << 31 else x


def string_hash(s: str) -> int:
    """``String.hashCode()``: over UTF-16 code units."""
    h = 0
    data = s.encode("utf-16-be")
    for i in range(0, len(data), 2):
        h = (31 * h + (data[i] << 8 | data[i + 1])) & 0xFFFFFFFF
    return int32(h)


def long_hash(v: int) -> int:
    """``Long.hashCode()``."""
    v &= 0xFFFFFFFFFFFFFFFF
    return int32(v ^ (v >> 32))


def double_hash(v: float) -> int:
    """``Double.hashCode()``."""
    return long_hash(struct.unpack(">q", struct.pack(">d", v))[0])


def float_hash(v: float) -> int:
    """``Float.hashCode()``."""
    return int32(struct.unpack(">i", struct.pack(">f", v))[0])


def boolean_hash(b: bool) -> int:
    """``Boolean.hashCode()``."""
    return 1231 if b else 1237


def bytes_hash(data: bytes) -> int:
    """``Arrays.hashCode(byte[])``: over signed bytes."""
    h = 1
    for b in data:
        h = (31 * h + (b - 256 if b > 127 else b)) & 0xFFFFFFFF
    return int32(h)


_BASIC = {
    BasicType.STRING: string_hash, BasicType.CHAR: string_hash,
    BasicType.INT: int32, BasicType.SHORT: int32, BasicType.BYTE: int32,
    BasicType.LONG: long_hash, BasicType.BOOLEAN: boolean_hash,
    BasicType.DOUBLE: double_hash, BasicType.FLOAT: float_hash,
}


def java_hash_of(type_info: TypeInformation) -> Optional[JavaHash]:
    """``hashCode()`` of the Java values of ``type_info`` (nulls hash to 0), or None for
    types whose Java hash is not known here."""
    basic = _BASIC.get(getattr(type_info, "_basic_type", None))
    if basic is not None:
        return basic
    if isinstance(type_info, TupleTypeInfo):  # Flink's TupleN: 31 * h + h(field), from 0
        fields = [java_hash_of(t) for t in type_info.get_field_types()]
        if any(f is None for f in fields):
            return None

        def tuple_hash(value) -> int:
            h = 0
            for f, v in zip(fields, value):
                h = 31 * h + (0 if v is None else f(v))
            return int32(h)
        return tuple_hash
    return None
