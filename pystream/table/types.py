"""``DataTypes``: SQL data types, as far as the DataStream connectors need them.

Each data type maps to the DataStream type (``TypeInformation``) its values have, so a
``DataTypes.ROW`` describes the records a CSV reader produces or a Parquet writer expects.

>>> row_type = DataTypes.ROW([DataTypes.FIELD('id', DataTypes.INT()),
...                           DataTypes.FIELD('name', DataTypes.STRING())])
>>> row_type.field_names()
['id', 'name']
"""
from __future__ import annotations

from typing import Callable, Iterator, List, Optional

from pystream.common.typeinfo import TypeInformation, Types

__all__ = ["DataType", "RowField", "RowType", "DataTypes"]


class DataType:
    """A SQL data type; ``to_type_info()`` is the DataStream type of its values."""

    def __init__(self, name: str, type_info: Callable[[], TypeInformation],
                 nullable: bool = True):
        self._name = name
        self._type_info = type_info
        self._nullable = nullable

    def to_type_info(self) -> TypeInformation:
        return self._type_info()

    def not_null(self) -> "DataType":
        return DataType(self._name, self._type_info, nullable=False)

    def nullable(self) -> "DataType":
        return DataType(self._name, self._type_info, nullable=True)

    def __repr__(self):
        return self._name + ("" if self._nullable else " NOT NULL")

    def __eq__(self, other):
        return isinstance(other, DataType) and repr(self) == repr(other)

    def __hash__(self):
        return hash(repr(self))


class RowField:
    """A named field of a ROW type."""

    def __init__(self, name: str, data_type: DataType, description: Optional[str] = None):
        self.name = name
        self.data_type = data_type
        self.description = description

    def __repr__(self):
        return "%s %r" % (self.name, self.data_type)


class RowType(DataType):
    """A ROW of named fields."""

    def __init__(self, fields: List[RowField], nullable: bool = True):
        self.fields = list(fields)
        super().__init__("ROW<%s>" % ", ".join(map(repr, self.fields)), self._row_type_info,
                         nullable)

    def _row_type_info(self) -> TypeInformation:
        return Types.ROW_NAMED(self.field_names(),
                               [f.data_type.to_type_info() for f in self.fields])

    def field_names(self) -> List[str]:
        return [f.name for f in self.fields]

    def field_types(self) -> List[DataType]:
        return [f.data_type for f in self.fields]

    def __iter__(self) -> Iterator[RowField]:
        return iter(self.fields)

    def __len__(self):
        return len(self.fields)


def _simple(name: str, type_info: Callable[[], TypeInformation]):
    def make(nullable: bool = True) -> DataType:
        return DataType(name, type_info, nullable)
    make.__name__ = name
    make.__doc__ = "The %s type." % name
    return staticmethod(make)


class DataTypes:
    """Factory of SQL data types (``DataTypes.INT()``, ``DataTypes.ROW([...])``, ...)."""

    CHAR = _simple("STRING", Types.STRING)
    VARCHAR = _simple("STRING", Types.STRING)
    STRING = _simple("STRING", Types.STRING)
    BOOLEAN = _simple("BOOLEAN", Types.BOOLEAN)
    TINYINT = _simple("TINYINT", Types.BYTE)
    SMALLINT = _simple("SMALLINT", Types.SHORT)
    INT = _simple("INT", Types.INT)
    BIGINT = _simple("BIGINT", Types.LONG)
    FLOAT = _simple("FLOAT", Types.FLOAT)
    DOUBLE = _simple("DOUBLE", Types.DOUBLE)
    DATE = _simple("DATE", Types.SQL_DATE)
    BYTES = _simple("BYTES", lambda: Types.PRIMITIVE_ARRAY(Types.BYTE()))
    BINARY = _simple("BYTES", lambda: Types.PRIMITIVE_ARRAY(Types.BYTE()))
    VARBINARY = _simple("BYTES", lambda: Types.PRIMITIVE_ARRAY(Types.BYTE()))

    @staticmethod
    def DECIMAL(precision: int = 38, scale: int = 18, nullable: bool = True) -> DataType:
        return DataType("DECIMAL(%d, %d)" % (precision, scale), Types.BIG_DEC, nullable)

    @staticmethod
    def TIME(precision: int = 0, nullable: bool = True) -> DataType:
        return DataType("TIME(%d)" % precision, Types.SQL_TIME, nullable)

    @staticmethod
    def TIMESTAMP(precision: int = 6, nullable: bool = True) -> DataType:
        return DataType("TIMESTAMP(%d)" % precision, Types.SQL_TIMESTAMP, nullable)

    @staticmethod
    def TIMESTAMP_LTZ(precision: int = 6, nullable: bool = True) -> DataType:
        return DataType("TIMESTAMP_LTZ(%d)" % precision, Types.INSTANT, nullable)

    @staticmethod
    def ARRAY(element_type: DataType, nullable: bool = True) -> DataType:
        return DataType("ARRAY<%r>" % element_type,
                        lambda: Types.OBJECT_ARRAY(element_type.to_type_info()), nullable)

    @staticmethod
    def MAP(key_type: DataType, value_type: DataType, nullable: bool = True) -> DataType:
        return DataType("MAP<%r, %r>" % (key_type, value_type),
                        lambda: Types.MAP(key_type.to_type_info(), value_type.to_type_info()),
                        nullable)

    @staticmethod
    def FIELD(name: str, data_type: DataType, description: Optional[str] = None) -> RowField:
        return RowField(name, data_type, description)

    @staticmethod
    def ROW(row_fields: List[RowField] = (), nullable: bool = True) -> RowType:
        return RowType(list(row_fields), nullable)
