"""``TableSchema``: the names and types of a table's fields (``Table.get_schema()``)."""
from __future__ import annotations

from typing import List, Optional, Union

from pystream.common.data_types import DataType, DataTypes, RowType
from pystream.relational.schema import Field, Schema

__all__ = ["TableSchema"]


class TableSchema:
    """A table's field names and data types, as PyFlink's ``TableSchema``."""

    def __init__(self, field_names: Optional[List[str]] = None,
                 data_types: Optional[List[DataType]] = None, _schema: Optional[Schema] = None):
        self._schema = _schema or Schema.of(field_names or [], data_types or [])

    @staticmethod
    def of(schema: Schema) -> "TableSchema":
        return TableSchema(_schema=schema)

    def copy(self) -> "TableSchema":
        return TableSchema(_schema=self._schema)

    def get_field_data_types(self) -> List[DataType]:
        return list(self._schema.types)

    def get_field_data_type(self, field: Union[int, str]) -> Optional[DataType]:
        if isinstance(field, int):
            return self._schema.types[field] if 0 <= field < len(self._schema) else None
        return self._schema.field(field).data_type if self._schema.has(field) else None

    def get_field_count(self) -> int:
        return len(self._schema)

    def get_field_names(self) -> List[str]:
        return list(self._schema.names)

    def get_field_name(self, field_index: int) -> Optional[str]:
        names = self._schema.names
        return names[field_index] if 0 <= field_index < len(names) else None

    def to_row_data_type(self) -> RowType:
        return DataTypes.ROW([DataTypes.FIELD(f.name, f.data_type) for f in self._schema])

    def summary(self) -> str:
        """The schema as ``print_schema()`` prints it (Flink's ResolvedSchema)."""
        lines = ["  `%s` %s" % (f.name, f.summary()) for f in self._schema]
        return "(\n%s\n)" % ",\n".join(lines) if lines else "(\n)"

    def __repr__(self) -> str:
        return "root\n" + "".join(" |-- %s: %s\n" % (f.name, f.summary()) for f in self._schema)

    def __eq__(self, other) -> bool:
        return isinstance(other, TableSchema) and self._schema == other._schema

    def __hash__(self) -> int:
        return hash(self._schema)

    @classmethod
    def builder(cls) -> "TableSchema.Builder":
        return TableSchema.Builder()

    class Builder:
        def __init__(self):
            self._fields: List[Field] = []

        def field(self, name: str, data_type: DataType) -> "TableSchema.Builder":
            self._fields.append(Field(name, data_type))
            return self

        def build(self) -> "TableSchema":
            return TableSchema(_schema=Schema(tuple(self._fields)))
