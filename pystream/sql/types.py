"""Flink SQL type names -> PyFlink DataTypes (``CAST(x AS DECIMAL(10, 2))``, DDL columns,
``udf(result_type='ROW<a INT, b STRING>')``)."""
from __future__ import annotations

from typing import Callable, Dict, List

from sqlglot import exp

from pystream.common.data_types import MAX_LENGTH, DataType, DataTypes, VariantType
from pystream.sql.parse import parse_type_node
from pystream.util.exceptions import ValidationException

__all__ = ["data_type_from_sql", "parse_data_type"]

D = exp.DType


def _params(node: exp.DataType) -> List[int]:
    return [int(p.this.name if isinstance(p, exp.DataTypeParam) else p.name)
            for p in node.expressions if not isinstance(p, (exp.DataType, exp.ColumnDef))]


def _sized(make: Callable[[int], DataType], default: int) -> Callable[[exp.DataType], DataType]:
    return lambda node: make((_params(node) or [default])[0])


SIMPLE: Dict[D, Callable[[exp.DataType], DataType]] = {
    D.TEXT: lambda n: DataTypes.STRING(),
    D.CHAR: _sized(DataTypes.CHAR, 1),
    D.VARCHAR: _sized(DataTypes.VARCHAR, MAX_LENGTH),  # VARCHAR alone is STRING
    D.BINARY: _sized(DataTypes.BINARY, 1),
    D.VARBINARY: _sized(DataTypes.VARBINARY, MAX_LENGTH),
    D.BOOLEAN: lambda n: DataTypes.BOOLEAN(),
    D.TINYINT: lambda n: DataTypes.TINYINT(),
    D.SMALLINT: lambda n: DataTypes.SMALLINT(),
    D.INT: lambda n: DataTypes.INT(),
    D.BIGINT: lambda n: DataTypes.BIGINT(),
    D.FLOAT: lambda n: DataTypes.FLOAT(),
    D.DOUBLE: lambda n: DataTypes.DOUBLE(),
    D.DATE: lambda n: DataTypes.DATE(),
    D.TIME: _sized(DataTypes.TIME, 0),
    D.TIMESTAMP: _sized(DataTypes.TIMESTAMP, 6),
    D.TIMESTAMPNTZ: _sized(DataTypes.TIMESTAMP, 6),
    D.TIMESTAMPLTZ: _sized(DataTypes.TIMESTAMP_LTZ, 6),
    D.NULL: lambda n: DataTypes.NULL(),
    D.VARIANT: lambda n: VariantType(),
}


def data_type_from_sql(node: exp.DataType) -> DataType:
    """The DataType a parsed SQL type names (NOT NULL inside another type: ``nullable``)."""
    data_type = _data_type(node)
    return data_type.not_null() if node.args.get("nullable") is False else data_type


def _data_type(node: exp.DataType) -> DataType:
    kind = node.this
    if kind in SIMPLE:
        return SIMPLE[kind](node)
    if kind == D.DECIMAL:
        params = _params(node) or [10, 0]
        return DataTypes.DECIMAL(params[0], params[1] if len(params) > 1 else 0)
    if kind == D.ARRAY:
        element = data_type_from_sql(node.expressions[0])
        return DataTypes.MULTISET(element) if node.meta.get("multiset") else \
            DataTypes.ARRAY(element)
    if kind == D.MAP:
        return DataTypes.MAP(data_type_from_sql(node.expressions[0]),
                             data_type_from_sql(node.expressions[1]))
    if kind == D.STRUCT:
        return DataTypes.ROW([DataTypes.FIELD(f.name, column_type(f))
                              for f in node.expressions])
    raise ValidationException("The type %s is not supported." % node.sql())


def column_type(column: exp.ColumnDef) -> DataType:
    """A column's (or ROW field's) type, NOT NULL when its constraints say so."""
    data_type = data_type_from_sql(column.args["kind"])
    constraints = column.args.get("constraints") or []
    if any(isinstance(c.args.get("kind"), exp.NotNullColumnConstraint) and
           not c.args["kind"].args.get("allow_null") for c in constraints):
        return data_type.not_null()
    return data_type


def parse_data_type(text: str) -> DataType:
    """A DataType from its SQL text: ``parse_data_type('ROW<a INT, b STRING>')``."""
    return column_type(parse_type_node(text))
