"""Type information: what a stream's records look like, and how they map to Spark columns.

Every ``TypeInformation`` knows its Spark type (``spark_type()``); a typed stream travels as
Spark columns, an untyped one (``Types.PICKLED_BYTE_ARRAY()``) as one binary column of pickles.
"""
from __future__ import annotations

import calendar
import datetime
import time
from enum import Enum
from typing import TYPE_CHECKING, List, Optional

from pystream.common.time import Instant

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import types as st

__all__ = [
    "TypeInformation", "Types", "BasicType", "BasicTypeInfo", "SqlTimeTypeInfo", "DateTypeInfo",
    "TimeTypeInfo", "TimestampTypeInfo", "LocalTimeTypeInfo", "InstantTypeInfo",
    "PrimitiveArrayTypeInfo", "BasicArrayTypeInfo", "ObjectArrayTypeInfo", "PickledBytesTypeInfo",
    "RowTypeInfo", "TupleTypeInfo", "ListTypeInfo", "MapTypeInfo", "ExternalTypeInfo",
]


class TypeInformation:
    """The type of the values of a stream, a field or a piece of state."""

    def spark_type(self) -> "st.DataType":
        """The Spark SQL type that holds values of this type."""
        raise NotImplementedError

    def __eq__(self, other) -> bool:
        return type(self) is type(other) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._key()))

    def _key(self) -> tuple:
        return ()

    def need_conversion(self) -> bool:
        """Does this type need conversion between Python object and internal object."""
        return False

    def to_internal_type(self, obj):
        """Converts a Python object into an internal object."""
        return obj

    def from_internal_type(self, obj):
        """Converts an internal object into a native Python object."""
        return obj


class BasicType(Enum):
    STRING = "String"
    BYTE = "Byte"
    BOOLEAN = "Boolean"
    SHORT = "Short"
    INT = "Integer"
    LONG = "Long"
    FLOAT = "Float"
    DOUBLE = "Double"
    CHAR = "Char"
    BIG_INT = "BigInteger"
    BIG_DEC = "BigDecimal"
    INSTANT = "Instant"


def _basic_spark_type(basic_type: BasicType):
    from pyspark.sql import types as st

    return {
        BasicType.STRING: st.StringType(),
        BasicType.BYTE: st.ByteType(),
        BasicType.BOOLEAN: st.BooleanType(),
        BasicType.SHORT: st.ShortType(),
        BasicType.INT: st.IntegerType(),
        BasicType.LONG: st.LongType(),
        BasicType.FLOAT: st.FloatType(),
        BasicType.DOUBLE: st.DoubleType(),
        BasicType.CHAR: st.StringType(),
        BasicType.BIG_INT: st.DecimalType(38, 0),
        BasicType.BIG_DEC: st.StringType(),  # its text: Spark's decimals lose the scale
        BasicType.INSTANT: st.TimestampType(),
    }[basic_type]


class BasicTypeInfo(TypeInformation):
    """Primitive types (int, long, double, ...), String, BigInteger and BigDecimal."""

    def __init__(self, basic_type: BasicType):
        self._basic_type = basic_type

    def spark_type(self):
        return _basic_spark_type(self._basic_type)

    def _key(self):
        return (self._basic_type,)

    def __repr__(self):
        return self._basic_type.value

    @staticmethod
    def STRING_TYPE_INFO() -> "BasicTypeInfo":
        return BasicTypeInfo(BasicType.STRING)

    @staticmethod
    def BOOLEAN_TYPE_INFO() -> "BasicTypeInfo":
        return BasicTypeInfo(BasicType.BOOLEAN)

    @staticmethod
    def BYTE_TYPE_INFO() -> "BasicTypeInfo":
        return BasicTypeInfo(BasicType.BYTE)

    @staticmethod
    def SHORT_TYPE_INFO() -> "BasicTypeInfo":
        return BasicTypeInfo(BasicType.SHORT)

    @staticmethod
    def INT_TYPE_INFO() -> "BasicTypeInfo":
        return BasicTypeInfo(BasicType.INT)

    @staticmethod
    def LONG_TYPE_INFO() -> "BasicTypeInfo":
        return BasicTypeInfo(BasicType.LONG)

    @staticmethod
    def FLOAT_TYPE_INFO() -> "BasicTypeInfo":
        return BasicTypeInfo(BasicType.FLOAT)

    @staticmethod
    def DOUBLE_TYPE_INFO() -> "BasicTypeInfo":
        return BasicTypeInfo(BasicType.DOUBLE)

    @staticmethod
    def CHAR_TYPE_INFO() -> "BasicTypeInfo":
        return BasicTypeInfo(BasicType.CHAR)

    @staticmethod
    def BIG_INT_TYPE_INFO() -> "BasicTypeInfo":
        return BasicTypeInfo(BasicType.BIG_INT)

    @staticmethod
    def BIG_DEC_TYPE_INFO() -> "BasicTypeInfo":
        return BasicTypeInfo(BasicType.BIG_DEC)

    @staticmethod
    def INSTANT_TYPE_INFO() -> "InstantTypeInfo":
        return InstantTypeInfo(BasicType.INSTANT)


class InstantTypeInfo(BasicTypeInfo):
    """A point in time (``pystream.common.Instant``), stored as a Spark TIMESTAMP."""

    def need_conversion(self) -> bool:
        return True

    def to_internal_type(self, obj):
        return obj.to_epoch_milli() * 1000

    def from_internal_type(self, obj):
        return Instant.of_epoch_milli(obj // 1000)


class DateTypeInfo(TypeInformation):
    """``datetime.date`` values (java.sql.Date)."""

    EPOCH_ORDINAL = datetime.datetime(1970, 1, 1).toordinal()

    def need_conversion(self) -> bool:
        return True

    def to_internal_type(self, d):
        if d is not None:
            return d.toordinal() - self.EPOCH_ORDINAL

    def from_internal_type(self, v):
        if v is not None:
            return datetime.date.fromordinal(v + self.EPOCH_ORDINAL)

    def spark_type(self):
        from pyspark.sql import types as st

        return st.DateType()

    def __repr__(self):
        return "DateTypeInfo"


class TimeTypeInfo(TypeInformation):
    """``datetime.time`` values (java.sql.Time)."""

    EPOCH_ORDINAL = calendar.timegm(time.localtime(0)) * 10 ** 6

    def need_conversion(self) -> bool:
        return True

    def to_internal_type(self, t):
        if t is not None:
            if t.tzinfo is not None:
                offset = t.utcoffset() or datetime.timedelta()
                offset_micros = (offset.days * 86400 + offset.seconds) * 10 ** 6 \
                    + offset.microseconds
            else:
                offset_micros = self.EPOCH_ORDINAL
            seconds = (t.hour * 60 + t.minute) * 60 + t.second
            return seconds * 10 ** 6 + t.microsecond - offset_micros

    def from_internal_type(self, t):
        if t is not None:
            seconds, micros = divmod(t + self.EPOCH_ORDINAL, 10 ** 6)
            minutes, seconds = divmod(seconds, 60)
            hours, minutes = divmod(minutes, 60)
            return datetime.time(hours, minutes, seconds, micros)

    def spark_type(self):
        from pyspark.sql import types as st

        return st.TimeType(6)

    def __repr__(self):
        return "TimeTypeInfo"


class TimestampTypeInfo(TypeInformation):
    """Naive ``datetime.datetime`` values (java.sql.Timestamp), a Spark TIMESTAMP_NTZ."""

    def need_conversion(self) -> bool:
        return True

    def to_internal_type(self, dt):
        if dt is not None:
            seconds = (calendar.timegm(dt.utctimetuple()) if dt.tzinfo
                       else time.mktime(dt.timetuple()))
            return int(seconds) * 10 ** 6 + dt.microsecond

    def from_internal_type(self, ts):
        if ts is not None:
            return datetime.datetime.fromtimestamp(ts // 10 ** 6).replace(
                microsecond=ts % 10 ** 6)

    def spark_type(self):
        from pyspark.sql import types as st

        return st.TimestampNTZType()

    def __repr__(self):
        return "TimestampTypeInfo"


class SqlTimeTypeInfo(TypeInformation):
    """Factory for the java.sql time types."""

    @staticmethod
    def DATE() -> TypeInformation:
        return DateTypeInfo()

    @staticmethod
    def TIME() -> TypeInformation:
        return TimeTypeInfo()

    @staticmethod
    def TIMESTAMP() -> TypeInformation:
        return TimestampTypeInfo()


class LocalTimeTypeInfo(TypeInformation):
    """java.time LocalDate / LocalTime / LocalDateTime: date, time and naive datetime."""

    class TimeType(Enum):
        LOCAL_DATE = 0
        LOCAL_TIME = 1
        LOCAL_DATE_TIME = 2

    def __init__(self, time_type: "LocalTimeTypeInfo.TimeType"):
        self._time_type = time_type

    def spark_type(self):
        return {
            self.TimeType.LOCAL_DATE: DateTypeInfo,
            self.TimeType.LOCAL_TIME: TimeTypeInfo,
            self.TimeType.LOCAL_DATE_TIME: TimestampTypeInfo,
        }[self._time_type]().spark_type()

    def _key(self):
        return (self._time_type,)

    def __repr__(self):
        return "LocalTimeTypeInfo<%s>" % self._time_type.name


class _ElementTypeInfo(TypeInformation):
    def __init__(self, element_type: TypeInformation):
        self._element_type = element_type

    @property
    def element_type(self) -> TypeInformation:
        return self._element_type

    def spark_type(self):
        from pyspark.sql import types as st

        return st.ArrayType(self._element_type.spark_type(), containsNull=True)

    def _key(self):
        return (self._element_type,)

    def __repr__(self):
        return "%s<%s>" % (type(self).__name__, self._element_type)


class PrimitiveArrayTypeInfo(_ElementTypeInfo):
    """Arrays of primitive types; ``PRIMITIVE_ARRAY(BYTE())`` holds ``bytes``."""

    def spark_type(self):
        from pyspark.sql import types as st

        if self._element_type == Types.BYTE():
            return st.BinaryType()
        return st.ArrayType(self._element_type.spark_type(), containsNull=False)


class BasicArrayTypeInfo(_ElementTypeInfo):
    """Arrays of boxed basic types (elements may be None)."""


class ObjectArrayTypeInfo(_ElementTypeInfo):
    """Arrays of any type."""


class ListTypeInfo(_ElementTypeInfo):
    """Python lists of one element type."""

    @property
    def elem_type(self) -> TypeInformation:
        return self._element_type

    def __repr__(self):
        return "ListTypeInfo<%s>" % self._element_type


class MapTypeInfo(TypeInformation):
    """Python dicts with one key type and one value type."""

    def __init__(self, key_type_info: TypeInformation, value_type_info: TypeInformation):
        self._key_type_info = key_type_info
        self._value_type_info = value_type_info

    def spark_type(self):
        from pyspark.sql import types as st

        return st.MapType(self._key_type_info.spark_type(), self._value_type_info.spark_type())

    def _key(self):
        return (self._key_type_info, self._value_type_info)

    def __repr__(self):
        return "MapTypeInfo<{}, {}>".format(self._key_type_info, self._value_type_info)


class PickledBytesTypeInfo(TypeInformation):
    """Any picklable Python value, carried as pickled bytes (the default when no type is given)."""

    def spark_type(self):
        from pyspark.sql import types as st

        return st.BinaryType()

    def __repr__(self):
        return "PickledByteArrayTypeInfo"


class ExternalTypeInfo(TypeInformation):
    """A Table API data type seen from the DataStream API: values of ``type_info``."""

    def __init__(self, type_info: TypeInformation):
        self._type_info = type_info

    def spark_type(self):
        return self._type_info.spark_type()

    def _key(self):
        return (self._type_info,)

    def __repr__(self):
        return "ExternalTypeInfo<{}>".format(self._type_info)


class _CompositeTypeInfo(TypeInformation):
    def __init__(self, field_types: List[TypeInformation], field_names: Optional[List[str]] = None):
        self._field_types = list(field_types)
        self._field_names = list(field_names) if field_names else None
        if self._field_names is not None and len(self._field_names) != len(self._field_types):
            raise ValueError("%d field names for %d field types"
                             % (len(self._field_names), len(self._field_types)))

    def get_field_types(self) -> List[TypeInformation]:
        return list(self._field_types)

    def get_field_names(self) -> List[str]:
        return self._field_names or ["f%d" % i for i in range(len(self._field_types))]

    def get_field_index(self, field_name: str) -> int:
        names = self.get_field_names()
        return names.index(field_name) if field_name in names else -1

    def get_arity(self) -> int:
        return len(self._field_types)

    def spark_type(self):
        from pyspark.sql import types as st

        return st.StructType([st.StructField(name, t.spark_type(), True)
                              for name, t in zip(self.get_field_names(), self._field_types)])

    def _key(self):
        return tuple(self._field_types)


class RowTypeInfo(_CompositeTypeInfo):
    """Records of type ``Row``; fields are named ``f0, f1, ...`` unless names are given."""

    def __repr__(self):
        if self._field_names is None:  # as PyFlink: names only where they were given
            return "RowTypeInfo(%s)" % ", ".join(str(t) for t in self._field_types)
        return "RowTypeInfo(%s)" % ", ".join(
            "%s: %s" % (n, t) for n, t in zip(self._field_names, self._field_types))


class TupleTypeInfo(_CompositeTypeInfo):
    """Records that are Python tuples."""

    def __init__(self, field_types: List[TypeInformation]):
        super().__init__(field_types)

    def __repr__(self):
        return "TupleTypeInfo(%s)" % ", ".join(str(t) for t in self._field_types)


class Types:
    """Type information for the types a stream, a field or a state value can have.

    >>> from pystream.common import Types
    >>> Types.ROW_NAMED(['word', 'count'], [Types.STRING(), Types.LONG()])
    RowTypeInfo(word: String, count: Long)
    """

    @staticmethod
    def STRING() -> TypeInformation:
        return BasicTypeInfo(BasicType.STRING)

    @staticmethod
    def BYTE() -> TypeInformation:
        return BasicTypeInfo(BasicType.BYTE)

    @staticmethod
    def BOOLEAN() -> TypeInformation:
        return BasicTypeInfo(BasicType.BOOLEAN)

    @staticmethod
    def SHORT() -> TypeInformation:
        return BasicTypeInfo(BasicType.SHORT)

    @staticmethod
    def INT() -> TypeInformation:
        return BasicTypeInfo(BasicType.INT)

    @staticmethod
    def LONG() -> TypeInformation:
        return BasicTypeInfo(BasicType.LONG)

    @staticmethod
    def FLOAT() -> TypeInformation:
        return BasicTypeInfo(BasicType.FLOAT)

    @staticmethod
    def DOUBLE() -> TypeInformation:
        return BasicTypeInfo(BasicType.DOUBLE)

    @staticmethod
    def CHAR() -> TypeInformation:
        return BasicTypeInfo(BasicType.CHAR)

    @staticmethod
    def BIG_INT() -> TypeInformation:
        return BasicTypeInfo(BasicType.BIG_INT)

    @staticmethod
    def BIG_DEC() -> TypeInformation:
        return BasicTypeInfo(BasicType.BIG_DEC)

    @staticmethod
    def INSTANT() -> TypeInformation:
        return InstantTypeInfo(BasicType.INSTANT)

    @staticmethod
    def SQL_DATE() -> TypeInformation:
        return DateTypeInfo()

    @staticmethod
    def SQL_TIME() -> TypeInformation:
        return TimeTypeInfo()

    @staticmethod
    def SQL_TIMESTAMP() -> TypeInformation:
        return TimestampTypeInfo()

    @staticmethod
    def LOCAL_DATE() -> TypeInformation:
        return LocalTimeTypeInfo(LocalTimeTypeInfo.TimeType.LOCAL_DATE)

    @staticmethod
    def LOCAL_TIME() -> TypeInformation:
        return LocalTimeTypeInfo(LocalTimeTypeInfo.TimeType.LOCAL_TIME)

    @staticmethod
    def LOCAL_DATE_TIME() -> TypeInformation:
        return LocalTimeTypeInfo(LocalTimeTypeInfo.TimeType.LOCAL_DATE_TIME)

    @staticmethod
    def PICKLED_BYTE_ARRAY() -> TypeInformation:
        return PickledBytesTypeInfo()

    @staticmethod
    def ROW(field_types: List[TypeInformation]) -> TypeInformation:
        return RowTypeInfo(field_types)

    @staticmethod
    def ROW_NAMED(field_names: List[str], field_types: List[TypeInformation]) -> TypeInformation:
        return RowTypeInfo(field_types, field_names)

    @staticmethod
    def TUPLE(field_types: List[TypeInformation]) -> TypeInformation:
        return TupleTypeInfo(field_types)

    @staticmethod
    def PRIMITIVE_ARRAY(element_type: TypeInformation) -> TypeInformation:
        return PrimitiveArrayTypeInfo(element_type)

    @staticmethod
    def BASIC_ARRAY(element_type: TypeInformation) -> TypeInformation:
        return BasicArrayTypeInfo(element_type)

    @staticmethod
    def OBJECT_ARRAY(element_type: TypeInformation) -> TypeInformation:
        return ObjectArrayTypeInfo(element_type)

    @staticmethod
    def MAP(key_type_info: TypeInformation, value_type_info: TypeInformation) -> TypeInformation:
        return MapTypeInfo(key_type_info, value_type_info)

    @staticmethod
    def LIST(element_type_info: TypeInformation) -> TypeInformation:
        return ListTypeInfo(element_type_info)
