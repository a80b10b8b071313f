"""Type information: what a stream's records look like, and how they map to Spark columns.

Every ``TypeInformation`` knows its Spark type (``spark_type()``); a typed stream travels as
Spark columns, an untyped one (``Types.PICKLED_BYTE_ARRAY()``) as one binary column of pickles.
"""
from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, List, Optional

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import types as st

__all__ = [
    "TypeInformation", "Types", "BasicType", "BasicTypeInfo", "SqlTimeTypeInfo", "DateTypeInfo",
    "TimeTypeInfo", "TimestampTypeInfo", "LocalTimeTypeInfo", "InstantTypeInfo",
    "PrimitiveArrayTypeInfo", "BasicArrayTypeInfo", "ObjectArrayTypeInfo", "PickledBytesTypeInfo",
    "RowTypeInfo", "TupleTypeInfo", "ListTypeInfo", "MapTypeInfo",
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
        BasicType.BIG_DEC: st.DecimalType(38, 18),
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


class InstantTypeInfo(BasicTypeInfo):
    """A point in time (``pystream.common.Instant``), stored as a Spark TIMESTAMP."""


class DateTypeInfo(TypeInformation):
    """``datetime.date`` values (java.sql.Date)."""

    def spark_type(self):
        from pyspark.sql import types as st

        return st.DateType()

    def __repr__(self):
        return "DateTypeInfo"


class TimeTypeInfo(TypeInformation):
    """``datetime.time`` values (java.sql.Time)."""

    def spark_type(self):
        from pyspark.sql import types as st

        return st.TimeType(6)

    def __repr__(self):
        return "TimeTypeInfo"


class TimestampTypeInfo(TypeInformation):
    """Naive ``datetime.datetime`` values (java.sql.Timestamp), a Spark TIMESTAMP_NTZ."""

    def spark_type(self):
        from pyspark.sql import types as st

        return st.TimestampNTZType()

    def __repr__(self):
        return "TimestampTypeInfo"


class SqlTimeTypeInfo:
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
        return "RowTypeInfo(%s)" % ", ".join(
            "%s: %s" % (n, t) for n, t in zip(self.get_field_names(), self._field_types))


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
