"""The shape PyFlink's serializers give values of a declared type.

In PyFlink a value returned by a function with a declared output type is written by Java's
serializers and read back by the next Python function: a Row gets the type's field names (a
tuple given for a ROW becomes a Row), and a dict becomes a Java ``HashMap`` whose iteration
order, not the insertion order, is what the next function and the print sink see; a FLOAT
output is 32 bits (``1 / 3`` reads back as ``0.3333333432674408``).
``shaper(type_info)`` gives a function that reshapes a value in this way (None when values
of the type need nothing), so chained operators and records read back from Spark agree
with PyFlink.
"""
from __future__ import annotations

import struct
from typing import Any, Callable, List, Optional

from pystream.common.typeinfo import (
    BasicType,
    BasicTypeInfo,
    MapTypeInfo,
    RowTypeInfo,
    TupleTypeInfo,
    TypeInformation,
    _ElementTypeInfo,
)
from pystream.common.types import Row
from pystream.runtime.java_hashes import java_hash_of

__all__ = ["shaper", "output_shaper", "java_hashmap_order"]

Shaper = Callable[[Any], Any]


def float32(value):
    """A number as the 32-bit float Java's FLOAT serializer keeps of it."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return struct.unpack("f", struct.pack("f", value))[0]
    return value


def output_shaper(type_info: TypeInformation) -> Optional[Shaper]:
    """``shaper`` of a function's declared output type; a FLOAT output is 32 bits (a FLOAT
    field of a tuple or row output keeps its 64 bits on PyFlink 2.3: recorded in
    ``float_outputs_are_32_bit``)."""
    return float32 if type_info == BasicTypeInfo(BasicType.FLOAT) else shaper(type_info)


def shaper(type_info: TypeInformation) -> Optional[Shaper]:
    """A function giving a value of ``type_info`` its PyFlink shape, or None."""
    if isinstance(type_info, RowTypeInfo):
        names = list(type_info.get_field_names())
        fields = [shaper(t) for t in type_info.get_field_types()]

        def row(value):
            if value is None:
                return None
            if type(value) is not Row:
                value = Row._make(list(value), names) if isinstance(value, tuple) else value
            elif value._fields is None:
                value._fields = names
            if isinstance(value, Row) and any(fields):
                value._values = [v if f is None else f(v)
                                 for f, v in zip(fields, value._values)]
            return value
        return row
    if isinstance(type_info, TupleTypeInfo):
        fields = [shaper(t) for t in type_info.get_field_types()]
        if not any(fields):
            return None
        return lambda value: None if value is None else tuple(
            v if f is None else f(v) for f, v in zip(fields, value))
    if isinstance(type_info, MapTypeInfo):
        key_hash = java_hash_of(type_info._key_type_info)
        values = shaper(type_info._value_type_info)

        def mapping(value):
            if not isinstance(value, dict):
                return value
            keys = java_hashmap_order(list(value), key_hash) if key_hash else list(value)
            return {k: value[k] if values is None else values(value[k]) for k in keys}
        return mapping
    if isinstance(type_info, _ElementTypeInfo):
        element = shaper(type_info.element_type)
        if element is None:
            return None
        return lambda value: value if not isinstance(value, list) else [element(v) for v in value]
    return None


# -- Java's HashMap iteration order


def java_hashmap_order(keys: List[Any], java_hash: Callable[[Any], int]) -> List[Any]:
    """``keys`` (in insertion order) in the order a Java ``HashMap`` sized for them, as
    Flink's MapSerializer creates it, iterates them: by bucket, then insertion order."""
    if len(keys) < 2:
        return keys
    capacity = _power_of_two_at_least(len(keys))
    while len(keys) > capacity * 0.75:
        capacity *= 2

    def bucket(key) -> int:
        h = 0 if key is None else java_hash(key) & 0xFFFFFFFF
        return (h ^ (h >> 16)) & (capacity - 1)
    return sorted(keys, key=bucket)  # stable: insertion order within a bucket


def _power_of_two_at_least(n: int) -> int:
    capacity = 1
    while capacity < n:
        capacity *= 2
    return capacity
