"""The part of PyFlink's ``pyflink.table`` that DataStream connectors use: ``DataTypes``
(row types for CSV schemas and Parquet / ORC writers)."""
from pystream.table.types import DataType, DataTypes, RowField, RowType

__all__ = ["DataTypes", "DataType", "RowType", "RowField"]
