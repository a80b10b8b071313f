"""PyFlink's SQL data types (``pyflink.table.types``) and how their values live in Spark.

Each type knows three things:

* how PyFlink shows it: ``repr()`` as PyFlink's classes do (``IntType(true)``), ``str()`` the
  bare type name (``INT``), and ``summary_string()`` as Flink's ``print_schema`` does
  (``DECIMAL(10, 2) NOT NULL``);
* its Spark type (``spark_type()``) and how a Python value goes in and comes out
  (``spark_value``, ``python_value``);
* its DataStream type (``to_type_info()``), so a ``DataTypes.ROW`` describes the records a CSV
  reader produces or a Parquet writer expects;
* PyFlink's conversion between a Python value and its internal SQL value
  (``to_sql_type``/``from_sql_type``, ``need_conversion``: a DATE as days since 1970-01-01, a
  TIMESTAMP as microseconds, a ROW as a tuple led by its row kind, ...), for user-defined
  types built on them (``UserDefinedType``).

>>> DataTypes.ROW([DataTypes.FIELD('id', DataTypes.INT()),
...                DataTypes.FIELD('name', DataTypes.STRING())]).summary_string()
'ROW<`id` INT, `name` STRING>'
"""
from __future__ import annotations

import calendar
import datetime
import decimal
import pickle
import time
from copy import copy
from enum import Enum
from typing import TYPE_CHECKING, Any, Iterator, List, Optional, Sequence

from pystream.common import typeinfo as ti
from pystream.common.bitmap import Bitmap
from pystream.common.typeinfo import TypeInformation, Types
from pystream.common.types import Row, RowKind, _create_row

if TYPE_CHECKING:
    from pyspark.sql import types as st

__all__ = [
    "DataType", "DataTypes", "RowField", "RowType", "NullType", "CharType", "VarCharType",
    "BinaryType", "VarBinaryType", "BooleanType", "TinyIntType", "SmallIntType", "IntType",
    "BigIntType", "FloatType", "DoubleType", "DecimalType", "DateType", "TimeType",
    "TimestampType", "LocalZonedTimestampType", "YearMonthIntervalType", "DayTimeIntervalType",
    "ArrayType", "MapType", "MultisetType", "ListViewType", "MapViewType", "Resolution",
    "AtomicType", "NumericType", "IntegralType", "FractionalType", "ZonedTimestampType",
    "RawType", "UserDefinedType", "BitmapType", "VariantType", "StructuredType", "infer_data_type",
]

MAX_LENGTH = 0x7FFFFFFF


def _spark_types():
    """pyspark's type classes, imported when a Spark type is first asked for (importing this
    module does not import pyspark: the shell's prompt comes up without it)."""
    from pyspark.sql import types

    return types


def _flag(nullable: bool) -> str:
    return str(nullable).lower()


class DataType:
    """A SQL data type: a logical type and whether it admits NULL."""

    def __init__(self, nullable: bool = True):
        self._nullable = nullable

    # -- PyFlink's surface ---------------------------------------------------------------
    def not_null(self) -> "DataType":
        result = copy(self)
        result._nullable = False
        return result

    def nullable(self) -> "DataType":
        result = copy(self)
        result._nullable = True
        return result

    @property
    def is_nullable(self) -> bool:
        return self._nullable

    @classmethod
    def type_name(cls) -> str:
        return cls.__name__[:-4].upper()

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, _flag(self._nullable))

    def __str__(self):
        return type(self).type_name()

    def __eq__(self, other):
        return type(self) is type(other) and _compared(self) == _compared(other)

    def __hash__(self):
        return hash(repr(self))

    def bridged_to(self, conversion_cls) -> "DataType":
        """A hint of the Java class values take entering or leaving Flink's tables (kept;
        pystream's values are Python's either way). Returns this type."""
        self._conversion_cls = conversion_cls
        return self

    # -- PyFlink's Python values and internal SQL values ---------------------------------
    def need_conversion(self) -> bool:
        """Whether a Python value of this type differs from its internal SQL value."""
        return False

    def to_sql_type(self, obj):
        """A Python value as its internal SQL value."""
        return obj

    def from_sql_type(self, obj):
        """An internal SQL value as its Python value."""
        return obj

    # -- Flink's text --------------------------------------------------------------------
    def sql_text(self) -> str:
        """The type as Flink's ``asSummaryString`` writes it, without NOT NULL."""
        return type(self).type_name()

    def summary_string(self) -> str:
        return self.sql_text() + ("" if self._nullable else " NOT NULL")

    # -- Spark ---------------------------------------------------------------------------
    def spark_type(self) -> st.DataType:
        raise NotImplementedError(type(self).__name__)

    def spark_value(self, value: Any) -> Any:
        """A Python value of this type as Spark takes it (``createDataFrame``, ``lit``)."""
        return value

    def python_value(self, value: Any) -> Any:
        """A value Spark returned, as PyFlink hands it to Python."""
        return value

    # -- DataStream ----------------------------------------------------------------------
    def to_type_info(self) -> TypeInformation:
        raise NotImplementedError("%s has no DataStream type" % self.summary_string())


def _compared(data_type: DataType) -> dict:
    """What equality of types compares: all but the ``bridged_to`` hint."""
    return {k: v for k, v in data_type.__dict__.items() if k != "_conversion_cls"}


class AtomicType(DataType):
    """Every type but ARRAY, MAP, MULTISET and ROW."""


class NumericType(AtomicType):
    """The numeric types."""


class IntegralType(NumericType):
    """TINYINT, SMALLINT, INT, BIGINT."""


class FractionalType(NumericType):
    """FLOAT, DOUBLE, DECIMAL."""


class _Simple(AtomicType):
    """A type without parameters: its Spark type and DataStream type are class attributes."""

    _spark = "NullType"  # the name of its pyspark type class
    _type_info = None

    def spark_type(self) -> st.DataType:
        return getattr(_spark_types(), self._spark)()

    def to_type_info(self) -> TypeInformation:
        return getattr(Types, self._type_info)()


class NullType(_Simple):
    _spark = "NullType"

    def sql_text(self) -> str:
        return "NULL"


class BooleanType(_Simple):
    _spark, _type_info = "BooleanType", "BOOLEAN"


class TinyIntType(_Simple, IntegralType):
    _spark, _type_info = "ByteType", "BYTE"


class SmallIntType(_Simple, IntegralType):
    _spark, _type_info = "ShortType", "SHORT"


class IntType(_Simple, IntegralType):
    _spark, _type_info = "IntegerType", "INT"


class BigIntType(_Simple, IntegralType):
    _spark, _type_info = "LongType", "LONG"


class FloatType(_Simple, FractionalType):
    _spark, _type_info = "FloatType", "FLOAT"


class DoubleType(_Simple, FractionalType):
    _spark, _type_info = "DoubleType", "DOUBLE"


class DateType(_Simple):
    _spark, _type_info = "DateType", "SQL_DATE"

    EPOCH_ORDINAL = datetime.datetime(1970, 1, 1).toordinal()

    def need_conversion(self) -> bool:
        return True

    def to_sql_type(self, d):
        """Days since 1970-01-01."""
        if d is not None:
            return d.toordinal() - self.EPOCH_ORDINAL

    def from_sql_type(self, v):
        if v is not None:
            return datetime.date.fromordinal(v + self.EPOCH_ORDINAL)


class _Sized(AtomicType):
    """CHAR, VARCHAR, BINARY, VARBINARY: a length."""

    def __init__(self, length: int = 1, nullable: bool = True):
        super().__init__(nullable)
        self.length = length

    def __repr__(self):
        return "%s(%d, %s)" % (type(self).__name__, self.length, _flag(self._nullable))

    def sql_text(self) -> str:
        return "%s(%d)" % (type(self).type_name(), self.length)


class CharType(_Sized):
    def spark_type(self) -> st.DataType:
        st = _spark_types()
        return st.StringType()

    def spark_value(self, value):
        return value if value is None else value.ljust(self.length)

    def to_type_info(self) -> TypeInformation:
        return Types.STRING()


class VarCharType(_Sized):
    def sql_text(self) -> str:
        return "STRING" if self.length == MAX_LENGTH else super().sql_text()

    def spark_type(self) -> st.DataType:
        st = _spark_types()
        return st.StringType()

    def to_type_info(self) -> TypeInformation:
        return Types.STRING()


class BinaryType(_Sized):
    def spark_type(self) -> st.DataType:
        st = _spark_types()
        return st.BinaryType()

    def spark_value(self, value):
        return value if value is None else bytearray(value).ljust(self.length, b"\0")

    def python_value(self, value):
        return value if value is None else bytes(value)

    def to_type_info(self) -> TypeInformation:
        return Types.PRIMITIVE_ARRAY(Types.BYTE())


class VarBinaryType(_Sized):
    def sql_text(self) -> str:
        return "BYTES" if self.length == MAX_LENGTH else super().sql_text()

    def spark_type(self) -> st.DataType:
        st = _spark_types()
        return st.BinaryType()

    def spark_value(self, value):
        return value if value is None else bytearray(value)

    def python_value(self, value):
        return value if value is None else bytes(value)

    def to_type_info(self) -> TypeInformation:
        return Types.PRIMITIVE_ARRAY(Types.BYTE())


class DecimalType(FractionalType):
    def __init__(self, precision: int = 10, scale: int = 0, nullable: bool = True):
        super().__init__(nullable)
        if not (1 <= precision <= 38 and 0 <= scale <= precision):
            raise ValueError("DECIMAL(%d, %d): precision must be 1..38 and scale 0..precision"
                             % (precision, scale))
        self.precision = precision
        self.scale = scale

    def __repr__(self):
        return "DecimalType(%d, %d, %s)" % (self.precision, self.scale, _flag(self._nullable))

    def sql_text(self) -> str:
        return "DECIMAL(%d, %d)" % (self.precision, self.scale)

    def spark_type(self) -> st.DataType:
        st = _spark_types()
        return st.DecimalType(self.precision, self.scale)

    def spark_value(self, value):
        if value is None:
            return None
        with decimal.localcontext() as context:  # all 38 digits (the default context has 28)
            context.prec = 38
            return decimal.Decimal(str(value)).quantize(
                decimal.Decimal(1).scaleb(-self.scale), rounding=decimal.ROUND_HALF_UP)

    def to_type_info(self) -> TypeInformation:
        return Types.BIG_DEC()


class _Precise(AtomicType):
    """TIME, TIMESTAMP, TIMESTAMP_LTZ: a fractional-second precision."""

    default_precision = 6

    def __init__(self, precision: Optional[int] = None, nullable: bool = True):
        super().__init__(nullable)
        self.precision = self.default_precision if precision is None else precision

    def __repr__(self):
        return "%s(%s, %s)" % (type(self).__name__, self.precision, _flag(self._nullable))

    def sql_text(self) -> str:
        return "%s(%d)" % (type(self).type_name(), self.precision)

    def truncate(self, value):
        if value is None or self.precision >= 6:
            return value
        unit = 10 ** (6 - self.precision)
        return value.replace(microsecond=value.microsecond // unit * unit)


# microseconds from 1970-01-01 00:00 UTC to that moment in the local time zone (PyFlink's
# internal TIME and TIMESTAMP_LTZ values are counted from it)
_LOCAL_EPOCH_MICROS = calendar.timegm(time.localtime(0)) * 10 ** 6


class TimeType(_Precise):
    """TIME(p): a time of day (Spark's TIME)."""

    default_precision = 0
    EPOCH_ORDINAL = _LOCAL_EPOCH_MICROS

    def need_conversion(self) -> bool:
        return True

    def to_sql_type(self, t):
        """Microseconds since midnight (of UTC for a time with a time zone)."""
        if t is not None:
            if t.tzinfo is not None:
                offset = t.utcoffset() or datetime.timedelta()
                shift = (offset.days * 86400 + offset.seconds) * 10 ** 6 + offset.microseconds
            else:
                shift = self.EPOCH_ORDINAL
            return ((t.hour * 60 + t.minute) * 60 + t.second) * 10 ** 6 + t.microsecond - shift

    def from_sql_type(self, t):
        if t is not None:
            seconds, microseconds = divmod(t + self.EPOCH_ORDINAL, 10 ** 6)
            minutes, seconds = divmod(seconds, 60)
            hours, minutes = divmod(minutes, 60)
            return datetime.time(hours, minutes, seconds, microseconds)

    def spark_type(self) -> st.DataType:
        st = _spark_types()
        return st.TimeType(6)

    def spark_value(self, value):
        return self.truncate(value)

    def to_type_info(self) -> TypeInformation:
        return Types.SQL_TIME()


def _epoch_micros(dt: datetime.datetime) -> int:
    """Microseconds since 1970-01-01 00:00 UTC of ``dt`` (in the local time zone when it has
    none)."""
    seconds = calendar.timegm(dt.utctimetuple()) if dt.tzinfo else time.mktime(dt.timetuple())
    return int(seconds) * 10 ** 6 + dt.microsecond


def _local_datetime(micros: int) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(micros // 10 ** 6).replace(
        microsecond=micros % 10 ** 6)


class TimestampType(_Precise):
    """TIMESTAMP(p): a date and time without time zone (Spark's TIMESTAMP_NTZ)."""

    def need_conversion(self) -> bool:
        return True

    def to_sql_type(self, dt):
        """Microseconds since 1970-01-01 00:00 UTC, reading a naive value as local time."""
        if dt is not None:
            return _epoch_micros(dt)

    def from_sql_type(self, ts):
        if ts is not None:
            return _local_datetime(ts)

    def spark_type(self) -> st.DataType:
        st = _spark_types()
        return st.TimestampNTZType()

    def spark_value(self, value):
        return self.truncate(value)

    def to_type_info(self) -> TypeInformation:
        return Types.SQL_TIMESTAMP()


class LocalZonedTimestampType(_Precise):
    """TIMESTAMP_LTZ(p): an instant, shown in the session time zone (Spark's TIMESTAMP)."""

    EPOCH_ORDINAL = _LOCAL_EPOCH_MICROS

    def need_conversion(self) -> bool:
        return True

    def to_sql_type(self, dt):
        if dt is not None:
            return _epoch_micros(dt) + self.EPOCH_ORDINAL

    def from_sql_type(self, ts):
        if ts is not None:
            return _local_datetime(ts - self.EPOCH_ORDINAL)

    def sql_text(self) -> str:
        return "TIMESTAMP_LTZ(%d)" % self.precision

    def spark_value(self, value):
        return self.truncate(value)

    def spark_type(self) -> st.DataType:
        st = _spark_types()
        return st.TimestampType()

    def to_type_info(self) -> TypeInformation:
        return Types.INSTANT()


class ZonedTimestampType(_Precise):
    """TIMESTAMP WITH TIME ZONE: PyFlink's class, which no table column can have (Flink's
    planner does not support the type); its values convert as PyFlink's do."""

    def need_conversion(self) -> bool:
        return True

    def to_sql_type(self, dt):
        """(microseconds of the local wall-clock time, the offset in seconds)."""
        if dt is not None:
            zone = dt.tzinfo or datetime.datetime.now(datetime.timezone.utc).astimezone().tzinfo
            offset = int(zone.utcoffset(dt).total_seconds())
            return _epoch_micros(dt) + offset * 10 ** 6, offset

    def from_sql_type(self, zoned_ts):
        if zoned_ts is not None:
            micros, offset = zoned_ts[0] - zoned_ts[1] * 10 ** 6, zoned_ts[1]
            zone = datetime.timezone(datetime.timedelta(seconds=offset))
            return datetime.datetime.fromtimestamp(micros // 10 ** 6, tz=zone).replace(
                microsecond=micros % 10 ** 6)


class Resolution:
    """The unit and precision of an interval bound (``DataTypes.SECOND(3)``)."""

    class IntervalUnit(Enum):
        SECOND = 0
        MINUTE = 1
        HOUR = 2
        DAY = 3
        MONTH = 4
        YEAR = 5

    def __init__(self, unit: "Resolution.IntervalUnit", precision: int = -1):
        self._unit = unit
        self._precision = precision

    @property
    def unit(self) -> "Resolution.IntervalUnit":
        return self._unit

    @property
    def precision(self) -> int:
        return self._precision

    def __str__(self):
        return "%s(%s)" % (self._unit, self._precision)


class YearMonthIntervalType(AtomicType):
    """INTERVAL YEAR / YEAR TO MONTH / MONTH; values are numbers of months."""

    class YearMonthResolution:
        YEAR = 1
        MONTH = 2
        YEAR_TO_MONTH = 3

    DEFAULT_PRECISION = 2

    def __init__(self, resolution: int = 2, precision: int = DEFAULT_PRECISION,
                 nullable: bool = True):
        super().__init__(nullable)
        self._resolution = resolution
        self._precision = precision

    @property
    def resolution(self) -> int:
        return self._resolution

    @property
    def precision(self) -> int:
        return self._precision

    def __repr__(self):
        return "YearMonthIntervalType(%s, %s, %s)" % (self.resolution, self.precision,
                                                       _flag(self._nullable))

    def sql_text(self) -> str:
        names = {1: "INTERVAL YEAR(%d)", 2: "INTERVAL MONTH", 3: "INTERVAL YEAR(%d) TO MONTH"}
        text = names[self.resolution]
        return text % self.precision if "%d" in text else text

    def spark_type(self) -> st.DataType:
        st = _spark_types()
        return st.YearMonthIntervalType(st.YearMonthIntervalType.YEAR,
                                        st.YearMonthIntervalType.MONTH)


class DayTimeIntervalType(AtomicType):
    """INTERVAL DAY ... SECOND; values are ``datetime.timedelta``."""

    class DayTimeResolution(Enum):
        DAY = 1
        DAY_TO_HOUR = 2
        DAY_TO_MINUTE = 3
        DAY_TO_SECOND = 4
        HOUR = 5
        HOUR_TO_MINUTE = 6
        HOUR_TO_SECOND = 7
        MINUTE = 8
        MINUTE_TO_SECOND = 9
        SECOND = 10

    DEFAULT_DAY_PRECISION = 2
    DEFAULT_FRACTIONAL_PRECISION = 6

    def __init__(self, resolution: "DayTimeIntervalType.DayTimeResolution" = None,
                 day_precision: int = DEFAULT_DAY_PRECISION,
                 fractional_precision: int = DEFAULT_FRACTIONAL_PRECISION, nullable: bool = True):
        super().__init__(nullable)
        self._resolution = resolution or DayTimeIntervalType.DayTimeResolution.SECOND
        self._day_precision = day_precision
        self._fractional_precision = fractional_precision

    @property
    def resolution(self) -> "DayTimeIntervalType.DayTimeResolution":
        return self._resolution

    @property
    def day_precision(self) -> int:
        return self._day_precision

    @property
    def fractional_precision(self) -> int:
        return self._fractional_precision

    def need_conversion(self) -> bool:
        return True

    def to_sql_type(self, timedelta):
        """Microseconds."""
        if timedelta is not None:
            return (timedelta.days * 86400 + timedelta.seconds) * 10 ** 6 + \
                timedelta.microseconds

    def from_sql_type(self, ts):
        if ts is not None:
            return datetime.timedelta(microseconds=ts)

    def __repr__(self):
        return "DayTimeIntervalType(%s, %s, %s, %s)" % (
            self.resolution, self.day_precision, self.fractional_precision,
            _flag(self._nullable))

    def sql_text(self) -> str:
        name = self.resolution.name
        start, _, end = name.partition("_TO_")
        parts = []
        for unit in (start, end) if end else (start,):
            if unit == "DAY":
                parts.append("DAY(%d)" % self.day_precision)
            elif unit == "SECOND":
                parts.append("SECOND(%d)" % self.fractional_precision)
            else:
                parts.append(unit)
        return "INTERVAL " + " TO ".join(parts)

    def spark_type(self) -> st.DataType:
        st = _spark_types()
        return st.DayTimeIntervalType(st.DayTimeIntervalType.DAY,
                                      st.DayTimeIntervalType.SECOND)


class _Elements(DataType):
    """ARRAY and MULTISET: their values convert element by element."""

    element_type: DataType

    def need_conversion(self) -> bool:
        return self.element_type.need_conversion()

    def to_sql_type(self, obj):
        if not self.need_conversion():
            return obj
        return obj and [self.element_type.to_sql_type(v) for v in obj]

    def from_sql_type(self, obj):
        if not self.need_conversion():
            return obj
        return obj and [self.element_type.from_sql_type(v) for v in obj]


class ArrayType(_Elements):
    def __init__(self, element_type: DataType, nullable: bool = True):
        super().__init__(nullable)
        self.element_type = element_type

    def __repr__(self):
        return "ArrayType(%r, %s)" % (self.element_type, _flag(self._nullable))

    def sql_text(self) -> str:
        return "ARRAY<%s>" % self.element_type.summary_string()

    def spark_type(self) -> st.DataType:
        st = _spark_types()
        return st.ArrayType(self.element_type.spark_type(), True)

    def spark_value(self, value):
        return None if value is None else [self.element_type.spark_value(v) for v in value]

    def python_value(self, value):
        return None if value is None else [self.element_type.python_value(v) for v in value]

    def to_type_info(self) -> TypeInformation:
        return Types.OBJECT_ARRAY(self.element_type.to_type_info())


class MultisetType(_Elements):
    """MULTISET<T>: kept in Spark as a map from element to its count, as PyFlink returns it."""

    def __init__(self, element_type: DataType, nullable: bool = True):
        super().__init__(nullable)
        self.element_type = element_type

    def __repr__(self):
        return "MultisetType(%r, %s)" % (self.element_type, _flag(self._nullable))

    def sql_text(self) -> str:
        return "MULTISET<%s>" % self.element_type.summary_string()

    def spark_type(self) -> st.DataType:
        st = _spark_types()
        return st.MapType(self.element_type.spark_type(), st.IntegerType(), True)

    def spark_value(self, value):
        if value is None:
            return None
        counts: dict = {}
        for v in value.elements() if hasattr(value, "elements") else value:
            key = self.element_type.spark_value(v)
            counts[key] = counts.get(key, 0) + 1
        return counts

    def python_value(self, value):
        if value is None:
            return None
        return {self.element_type.python_value(k): n for k, n in value.items()}


class MapType(DataType):
    def __init__(self, key_type: DataType, value_type: DataType, nullable: bool = True):
        super().__init__(nullable)
        self.key_type = key_type
        self.value_type = value_type

    def __repr__(self):
        return "MapType(%r, %r, %s)" % (self.key_type, self.value_type, _flag(self._nullable))

    def sql_text(self) -> str:
        return "MAP<%s, %s>" % (self.key_type.summary_string(),
                                self.value_type.summary_string())

    def spark_type(self) -> st.DataType:
        st = _spark_types()
        return st.MapType(self.key_type.spark_type(), self.value_type.spark_type(), True)

    def spark_value(self, value):
        if value is None:
            return None
        return {self.key_type.spark_value(k): self.value_type.spark_value(v)
                for k, v in value.items()}

    def python_value(self, value):
        if value is None:
            return None
        return {self.key_type.python_value(k): self.value_type.python_value(v)
                for k, v in value.items()}

    def to_type_info(self) -> TypeInformation:
        return Types.MAP(self.key_type.to_type_info(), self.value_type.to_type_info())

    def need_conversion(self) -> bool:
        return self.key_type.need_conversion() or self.value_type.need_conversion()

    def to_sql_type(self, obj):
        if not self.need_conversion():
            return obj
        return obj and {self.key_type.to_sql_type(k): self.value_type.to_sql_type(v)
                        for k, v in obj.items()}

    def from_sql_type(self, obj):
        if not self.need_conversion():
            return obj
        return obj and {self.key_type.from_sql_type(k): self.value_type.from_sql_type(v)
                        for k, v in obj.items()}


class ListViewType(DataType):
    """The type of a ``ListView`` in an aggregate function's accumulator (only there)."""

    def __init__(self, element_type: DataType):
        super().__init__(False)
        self.element_type = element_type

    def __repr__(self):
        return "ListViewType(%r)" % (self.element_type,)

    def sql_text(self) -> str:
        return "LIST_VIEW<%s>" % self.element_type.summary_string()

    def to_sql_type(self, obj):
        raise Exception("%s can only be used in accumulator type declaration of "
                        "AggregateFunction." % type(self).__name__)

    def from_sql_type(self, obj):
        raise Exception("%s can only be used in accumulator type declaration of "
                        "AggregateFunction." % type(self).__name__)


class MapViewType(DataType):
    """The type of a ``MapView`` in an aggregate function's accumulator (only there)."""

    def __init__(self, key_type: DataType, value_type: DataType):
        super().__init__(False)
        self.key_type = key_type
        self.value_type = value_type

    def __repr__(self):
        return "MapViewType(%r, %r)" % (self.key_type, self.value_type)

    def sql_text(self) -> str:
        return "MAP_VIEW<%s, %s>" % (self.key_type.summary_string(),
                                     self.value_type.summary_string())

    def to_sql_type(self, obj):
        raise Exception("%s can only be used in accumulator type declaration of "
                        "AggregateFunction." % type(self).__name__)

    def from_sql_type(self, obj):
        raise Exception("%s can only be used in accumulator type declaration of "
                        "AggregateFunction." % type(self).__name__)


class RowField:
    """A named field of a ROW type."""

    def __init__(self, name: str, data_type: DataType, description: Optional[str] = None):
        self.name = name
        self.data_type = data_type
        self.description = "..." if description is None else description

    def __repr__(self):
        return "RowField(%s, %r, %s)" % (self.name, self.data_type, self.description)

    def __str__(self):
        return "RowField(%s, %s)" % (self.name, self.data_type)

    def __eq__(self, other):
        return isinstance(other, RowField) and self.__dict__ == other.__dict__

    def __hash__(self):
        return hash((self.name, repr(self.data_type)))

    def need_conversion(self) -> bool:
        return self.data_type.need_conversion()

    def to_sql_type(self, obj):
        return self.data_type.to_sql_type(obj)

    def from_sql_type(self, obj):
        return self.data_type.from_sql_type(obj)


class RowType(DataType):
    """A ROW of named fields."""

    def __init__(self, fields: Sequence[RowField] = (), nullable: bool = True):
        super().__init__(nullable)
        self.fields = list(fields)

    def add(self, field, data_type: Optional[DataType] = None) -> "RowType":
        """This ROW with one more field: a RowField, or a name and its type."""
        self.fields.append(field if isinstance(field, RowField) else RowField(field, data_type))
        return self

    @property
    def names(self) -> List[str]:
        return [f.name for f in self.fields]

    def field_names(self) -> List[str]:
        return self.names

    def field_types(self) -> List[DataType]:
        return [f.data_type for f in self.fields]

    def __iter__(self) -> Iterator[RowField]:
        return iter(self.fields)

    def __len__(self):
        return len(self.fields)

    def __getitem__(self, key):
        if isinstance(key, str):
            for f in self.fields:
                if f.name == key:
                    return f
            raise KeyError("No RowField named %s" % key)
        if isinstance(key, int):
            return self.fields[key]
        return RowType(self.fields[key])

    def __repr__(self):
        return "RowType(%s)" % ",".join(repr(f) for f in self.fields)

    def sql_text(self) -> str:
        return "ROW<%s>" % ", ".join("`%s` %s" % (f.name, f.data_type.summary_string())
                                     for f in self.fields)

    def spark_type(self) -> st.DataType:
        st = _spark_types()
        return st.StructType([st.StructField(f.name, f.data_type.spark_type(), True)
                              for f in self.fields])

    def spark_value(self, value):
        if value is None:
            return None
        if isinstance(value, dict):
            value = [value.get(n) for n in self.names]
        return tuple(f.data_type.spark_value(v) for f, v in zip(self.fields, value))

    def python_value(self, value):
        """A ``Row`` without field names, as PyFlink's collect() gives nested rows (user
        functions get named rows: ``pystream.compiler.udfs``)."""
        if value is None:
            return None
        if isinstance(value, dict):  # a struct as pandas hands it over
            value = [value.get(f.name) for f in self.fields]
        return Row(*[f.data_type.python_value(v) for f, v in zip(self.fields, value)])

    def to_type_info(self) -> TypeInformation:
        return Types.ROW_NAMED(self.names, [f.data_type.to_type_info() for f in self.fields])

    def need_conversion(self) -> bool:
        return True  # a Row, a dict or an object becomes a tuple

    def to_sql_type(self, obj):
        """A tuple: the row kind's value, then the fields' SQL values (taken by name from a
        named Row, a dict or an object's attributes; else by position)."""
        if obj is None:
            return None
        kind = obj.get_row_kind() if isinstance(obj, Row) else RowKind.INSERT
        if isinstance(obj, dict):
            values = [obj.get(n) for n in self.names]
        elif isinstance(obj, Row) and obj.get_field_names() is not None:
            values = [obj[n] for n in self.names]
        elif isinstance(obj, (tuple, list, Row)):
            values = list(obj)
        elif hasattr(obj, "__dict__"):
            values = [obj.__dict__.get(n) for n in self.names]
        else:
            raise ValueError("Unexpected tuple %r with RowType" % (obj,))
        return (kind.value,) + tuple(f.to_sql_type(v) for f, v in zip(self.fields, values))

    def from_sql_type(self, obj):
        """A named Row of the fields' Python values (a Row already is one)."""
        if obj is None or isinstance(obj, Row):
            return obj
        return _create_row(self.names, [f.from_sql_type(v) for f, v in zip(self.fields, obj)])


class BitmapType(DataType):
    """Flink's BITMAP (a RoaringBitmap of 32-bit integers), the type of the BITMAP_*
    functions: kept in Spark as the sorted array of its values read as unsigned (BIGINT),
    handed to Python as a ``Bitmap``. PyFlink has no ``DataTypes.BITMAP()``."""

    def spark_type(self) -> st.DataType:
        st = _spark_types()
        return st.ArrayType(st.LongType(), True)

    def spark_value(self, value):
        return None if value is None else list(Bitmap(value))

    def python_value(self, value):
        return None if value is None else Bitmap(value)


class StructuredType(RowType):
    """Flink's STRUCTURED type (OBJECT_OF's result): a ROW named by a class."""

    def __init__(self, class_name: str, fields: Sequence[RowField] = (),
                 nullable: bool = True):
        super().__init__(fields, nullable)
        self.class_name = class_name

    def sql_text(self) -> str:
        return "STRUCTURED<'%s', %s>" % (self.class_name, ", ".join(
            "`%s` %s" % (f.name, f.data_type.summary_string()) for f in self.fields))


class VariantType(DataType):
    """Flink's VARIANT (a semi-structured JSON value: PARSE_JSON's), Spark's VARIANT; handed
    to Python as PySpark's ``VariantVal`` (``toPython()``, ``toJson()``). PyFlink has no
    ``DataTypes.VARIANT()``."""

    def spark_type(self) -> st.DataType:
        return _spark_types().VariantType()


class RawType(DataType):
    """A pickled Python object (PyFlink's logical type of a pickled byte array)."""

    def from_sql_type(self, obj):
        return pickle.loads(obj)


class UserDefinedType(DataType):
    """A user-defined type (UDT): values stored as ``sql_type()``'s, converted by the
    subclass's ``serialize`` and ``deserialize`` (PyFlink: for Flink's internal use)."""

    def __eq__(self, other):
        return type(self) is type(other)

    def __hash__(self):
        return hash(type(self))

    @classmethod
    def type_name(cls) -> str:
        return cls.__name__.lower()

    @classmethod
    def sql_type(cls) -> DataType:
        """The SQL type the values are stored as."""
        raise NotImplementedError("UDT must implement sql_type().")

    @classmethod
    def module(cls) -> str:
        """The Python module of the UDT."""
        raise NotImplementedError("UDT must implement module().")

    @classmethod
    def java_udt(cls) -> str:
        """The class name of the paired Java UDT ('' when there is none)."""
        return ""

    def need_conversion(self) -> bool:
        return True

    def to_sql_type(self, obj):
        if obj is not None:
            return self.sql_type().to_sql_type(self.serialize(obj))

    def from_sql_type(self, obj):
        value = self.sql_type().from_sql_type(obj)
        if value is not None:
            return self.deserialize(value)

    def serialize(self, obj):
        """A value of the user's type as a value of ``sql_type()``."""
        raise NotImplementedError("UDT must implement serialize().")

    def deserialize(self, datum):
        """A value of ``sql_type()`` as a value of the user's type."""
        raise NotImplementedError("UDT must implement deserialize().")


class DataTypes:
    """Factory of SQL data types (``DataTypes.INT()``, ``DataTypes.ROW([...])``, ...)."""

    @staticmethod
    def NULL() -> NullType:
        return NullType()

    @staticmethod
    def CHAR(length: int = 1, nullable: bool = True) -> CharType:
        return CharType(length, nullable)

    @staticmethod
    def VARCHAR(length: int = MAX_LENGTH, nullable: bool = True) -> VarCharType:
        return VarCharType(length, nullable)

    @staticmethod
    def STRING(nullable: bool = True) -> VarCharType:
        return VarCharType(MAX_LENGTH, nullable)

    @staticmethod
    def BOOLEAN(nullable: bool = True) -> BooleanType:
        return BooleanType(nullable)

    @staticmethod
    def BINARY(length: int = 1, nullable: bool = True) -> BinaryType:
        return BinaryType(length, nullable)

    @staticmethod
    def VARBINARY(length: int = MAX_LENGTH, nullable: bool = True) -> VarBinaryType:
        return VarBinaryType(length, nullable)

    @staticmethod
    def BYTES(nullable: bool = True) -> VarBinaryType:
        return VarBinaryType(MAX_LENGTH, nullable)

    @staticmethod
    def DECIMAL(precision: int = 10, scale: int = 0, nullable: bool = True) -> DecimalType:
        return DecimalType(precision, scale, nullable)

    @staticmethod
    def TINYINT(nullable: bool = True) -> TinyIntType:
        return TinyIntType(nullable)

    @staticmethod
    def SMALLINT(nullable: bool = True) -> SmallIntType:
        return SmallIntType(nullable)

    @staticmethod
    def INT(nullable: bool = True) -> IntType:
        return IntType(nullable)

    @staticmethod
    def BIGINT(nullable: bool = True) -> BigIntType:
        return BigIntType(nullable)

    @staticmethod
    def FLOAT(nullable: bool = True) -> FloatType:
        return FloatType(nullable)

    @staticmethod
    def DOUBLE(nullable: bool = True) -> DoubleType:
        return DoubleType(nullable)

    @staticmethod
    def DATE(nullable: bool = True) -> DateType:
        return DateType(nullable)

    @staticmethod
    def TIME(precision: int = 0, nullable: bool = True) -> TimeType:
        return TimeType(precision, nullable)

    @staticmethod
    def TIMESTAMP(precision: int = 6, nullable: bool = True) -> TimestampType:
        return TimestampType(precision, nullable)

    @staticmethod
    def TIMESTAMP_LTZ(precision: int = 6, nullable: bool = True) -> LocalZonedTimestampType:
        return LocalZonedTimestampType(precision, nullable)

    TIMESTAMP_WITH_LOCAL_TIME_ZONE = TIMESTAMP_LTZ

    @staticmethod
    def ARRAY(element_type: DataType, nullable: bool = True) -> ArrayType:
        return ArrayType(element_type, nullable)

    @staticmethod
    def MAP(key_type: DataType, value_type: DataType, nullable: bool = True) -> MapType:
        return MapType(key_type, value_type, nullable)

    @staticmethod
    def MULTISET(element_type: DataType, nullable: bool = True) -> MultisetType:
        return MultisetType(element_type, nullable)

    @staticmethod
    def LIST_VIEW(element_type: DataType) -> ListViewType:
        """The type of a ``ListView`` (only in an aggregate function's accumulator type)."""
        return ListViewType(element_type)

    @staticmethod
    def MAP_VIEW(key_type: DataType, value_type: DataType) -> MapViewType:
        """The type of a ``MapView`` (only in an aggregate function's accumulator type)."""
        return MapViewType(key_type, value_type)

    @staticmethod
    def FIELD(name: str, data_type: DataType, description: Optional[str] = None) -> RowField:
        return RowField(name, data_type, description)

    @staticmethod
    def ROW(row_fields: Sequence[RowField] = (), nullable: bool = True) -> RowType:
        return RowType(list(row_fields), nullable)

    # -- interval resolutions ------------------------------------------------------------
    @staticmethod
    def SECOND(precision: int = 6) -> Resolution:
        return Resolution(Resolution.IntervalUnit.SECOND, precision)

    @staticmethod
    def MINUTE() -> Resolution:
        return Resolution(Resolution.IntervalUnit.MINUTE)

    @staticmethod
    def HOUR() -> Resolution:
        return Resolution(Resolution.IntervalUnit.HOUR)

    @staticmethod
    def DAY(precision: int = 2) -> Resolution:
        return Resolution(Resolution.IntervalUnit.DAY, precision)

    @staticmethod
    def MONTH() -> Resolution:
        return Resolution(Resolution.IntervalUnit.MONTH)

    @staticmethod
    def YEAR(precision: int = 2) -> Resolution:
        return Resolution(Resolution.IntervalUnit.YEAR, precision)

    @staticmethod
    def INTERVAL(upper_resolution: Resolution,
                 lower_resolution: Optional[Resolution] = None) -> DataType:
        unit = Resolution.IntervalUnit
        upper, lower = upper_resolution, lower_resolution or upper_resolution
        if upper.unit in (unit.YEAR, unit.MONTH):
            kind = {(unit.YEAR, unit.YEAR): 1, (unit.MONTH, unit.MONTH): 2,
                    (unit.YEAR, unit.MONTH): 3}[(upper.unit, lower.unit)]
            return YearMonthIntervalType(kind, max(upper.precision, 2) if kind != 2 else 2)
        name = upper.unit.name if upper is lower else "%s_TO_%s" % (upper.unit.name,
                                                                     lower.unit.name)
        day = upper.precision if upper.unit is unit.DAY else 2
        fraction = lower.precision if lower.unit is unit.SECOND else 6
        return DayTimeIntervalType(DayTimeIntervalType.DayTimeResolution[name], day, fraction)


_INFERRED = {
    bool: BooleanType(), int: BigIntType(), float: DoubleType(),
    str: VarCharType(MAX_LENGTH), bytes: VarBinaryType(MAX_LENGTH),
    bytearray: VarBinaryType(MAX_LENGTH), decimal.Decimal: DecimalType(38, 18),
    datetime.date: DateType(), datetime.datetime: LocalZonedTimestampType(),
    datetime.time: TimeType(), datetime.timedelta: DayTimeIntervalType(),
}


def infer_data_type(value: Any, names: Optional[Sequence[str]] = None) -> DataType:
    """The data type PyFlink infers for a Python value (rows: ``_1``, ``_2``, ... or the
    given names)."""
    if value is None:
        return NullType()
    inferred = _INFERRED.get(type(value))
    if inferred is not None:
        return inferred
    if isinstance(value, dict):
        for k, v in value.items():
            if k is not None and v is not None:
                return MapType(infer_data_type(k).not_null(), infer_data_type(v))
        return MapType(NullType(), NullType())
    if isinstance(value, list):
        element = next((v for v in value if v is not None), None)
        return ArrayType(infer_data_type(element))
    if isinstance(value, (tuple, Row)):
        field_names = getattr(value, "_fields", None)
        if field_names is None:
            field_names = list(names or [])
            field_names += ["_%d" % i for i in range(len(field_names) + 1, len(value) + 1)]
        return RowType([RowField(n, infer_data_type(v)) for n, v in zip(field_names, value)])
    raise TypeError("not supported type: %s" % type(value))


def merge_types(a: DataType, b: DataType) -> DataType:
    """The type of a column holding values of both inferred types (NULL merges with any)."""
    if isinstance(a, NullType):
        return b
    if isinstance(b, NullType):
        return a
    if type(a) is not type(b):
        raise TypeError("Can not merge type %s and %s" % (type(a), type(b)))
    if isinstance(a, RowType):
        other = {f.name: f.data_type for f in b.fields}
        return RowType([RowField(f.name, merge_types(f.data_type, other.get(f.name, NullType())))
                        for f in a.fields])
    if isinstance(a, ArrayType):
        return ArrayType(merge_types(a.element_type, b.element_type))
    if isinstance(a, MapType):
        return MapType(merge_types(a.key_type, b.key_type),
                       merge_types(a.value_type, b.value_type))
    return a


_ACCEPTED = {
    BooleanType: (bool,), TinyIntType: (int,), SmallIntType: (int,), IntType: (int,),
    BigIntType: (int,), FloatType: (float,), DoubleType: (float,),
    DecimalType: (decimal.Decimal,), CharType: (str,), VarCharType: (str,),
    BinaryType: (bytes, bytearray), VarBinaryType: (bytes, bytearray),
    DateType: (datetime.date,), TimeType: (datetime.time,), TimestampType: (datetime.datetime,),
    LocalZonedTimestampType: (datetime.datetime,), DayTimeIntervalType: (datetime.timedelta,),
    YearMonthIntervalType: (int,), ArrayType: (list, tuple), MultisetType: (list, tuple),
    MapType: (dict,),
}
_INT_RANGES = {TinyIntType: 8, SmallIntType: 16, IntType: 32, BigIntType: 64}


def verify_value(data_type: DataType, value: Any, name: str = "value") -> None:
    """Raises TypeError / ValueError, as PyFlink's ``from_elements`` does, when ``value`` does
    not fit ``data_type`` (``field n: IntType can not accept object 'x' in type <class 'str'>``).
    """
    if value is None:
        if not data_type.is_nullable:
            raise ValueError("%s: This field is not nullable, but got None" % name)
        return
    if isinstance(data_type, RowType):
        if isinstance(value, dict):
            value = [value.get(n) for n in data_type.names]
        if not isinstance(value, (tuple, list, Row)):
            raise TypeError("%s: RowType can not accept object %r in type %s" % (
                name, value, type(value)))
        if len(value) != len(data_type.fields):
            raise ValueError("%s: Length of object (%d) does not match with length of fields "
                             "(%d)" % (name, len(value), len(data_type.fields)))
        for f, v in zip(data_type.fields, value):
            verify_value(f.data_type, v, "field %s in %s" % (f.name, name))
        return
    accepted = _ACCEPTED.get(type(data_type))
    if accepted is None:
        return
    wrong = not isinstance(value, accepted) or (
        isinstance(value, bool) and bool not in accepted)
    if wrong:
        raise TypeError("%s: %s can not accept object %r in type %s" % (
            name, type(data_type).__name__, value, type(value)))
    bits = _INT_RANGES.get(type(data_type))
    if bits and not -2 ** (bits - 1) <= value < 2 ** (bits - 1):
        raise ValueError("%s: object of %s out of range, got: %s" % (
            name, type(data_type).__name__, value))
    if isinstance(data_type, (ArrayType, MultisetType)):
        for v in value:
            verify_value(data_type.element_type, v, "element in array %s" % name)
    elif isinstance(data_type, MapType):
        for k, v in value.items():
            verify_value(data_type.key_type, k, "key of map %s" % name)
            verify_value(data_type.value_type, v, "value of map %s" % name)


def from_type_info(type_info: TypeInformation) -> DataType:
    """The table type of a DataStream type (``from_data_stream``): Types.INT() is INT, a
    ``Types.ROW_NAMED`` a ROW, ``Types.SQL_TIMESTAMP()`` TIMESTAMP(3), ..."""
    basic = {
        ti.BasicType.STRING: DataTypes.STRING, ti.BasicType.CHAR: DataTypes.STRING,
        ti.BasicType.BYTE: DataTypes.TINYINT, ti.BasicType.BOOLEAN: DataTypes.BOOLEAN,
        ti.BasicType.SHORT: DataTypes.SMALLINT, ti.BasicType.INT: DataTypes.INT,
        ti.BasicType.LONG: DataTypes.BIGINT, ti.BasicType.FLOAT: DataTypes.FLOAT,
        ti.BasicType.DOUBLE: DataTypes.DOUBLE,
        ti.BasicType.BIG_INT: lambda: DataTypes.DECIMAL(38, 0),
        ti.BasicType.BIG_DEC: lambda: DataTypes.DECIMAL(38, 18),
        ti.BasicType.INSTANT: lambda: DataTypes.TIMESTAMP_LTZ(3),
    }
    if isinstance(type_info, ti.BasicTypeInfo):
        return basic[type_info._basic_type]()
    if isinstance(type_info, ti.DateTypeInfo):
        return DataTypes.DATE()
    if isinstance(type_info, ti.TimeTypeInfo):
        return DataTypes.TIME()
    if isinstance(type_info, ti.TimestampTypeInfo):
        return DataTypes.TIMESTAMP(3)
    if isinstance(type_info, ti.LocalTimeTypeInfo):
        kinds = ti.LocalTimeTypeInfo.TimeType
        return {kinds.LOCAL_DATE: DataTypes.DATE, kinds.LOCAL_TIME: DataTypes.TIME,
                kinds.LOCAL_DATE_TIME: lambda: DataTypes.TIMESTAMP(6)}[type_info._time_type]()
    if isinstance(type_info, ti.PrimitiveArrayTypeInfo) and \
            type_info._element_type == Types.BYTE():
        return DataTypes.BYTES()
    if isinstance(type_info, ti._ElementTypeInfo):
        return DataTypes.ARRAY(from_type_info(type_info._element_type))
    if isinstance(type_info, ti.MapTypeInfo):
        return DataTypes.MAP(from_type_info(type_info._key_type_info),
                             from_type_info(type_info._value_type_info))
    if isinstance(type_info, ti._CompositeTypeInfo):
        return DataTypes.ROW([DataTypes.FIELD(n, from_type_info(t)) for n, t in
                              zip(type_info.get_field_names(), type_info.get_field_types())])
    raise TypeError(
        "A stream of %s has no table type: give the stream a type_info such as "
        "Types.ROW_NAMED(['id', 'name'], [Types.INT(), Types.STRING()])." % type_info)
