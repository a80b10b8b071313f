"""``Schema``: a table's declared columns (physical, computed, metadata), watermark and
primary key, as in PyFlink's ``pyflink.table.Schema`` (for descriptors and from_data_stream)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import List, Optional, Tuple, Union

from pystream.common.data_types import DataType, RowType
from pystream.table.expression import Expression

__all__ = ["Schema"]


@dataclass(frozen=True)
class SchemaColumn:
    """``kind``: physical (``data_type``), computed (``expression``) or metadata (``key``)."""

    name: str
    kind: str
    data_type: Optional[DataType] = None
    expression: Optional[Union[str, Expression]] = None
    key: Optional[str] = None
    virtual: bool = False
    comment: Optional[str] = None


class Schema:
    """Declared columns, watermark and primary key of a table."""

    def __init__(self, columns: Tuple[SchemaColumn, ...] = (),
                 watermark: Optional[Tuple[str, Union[str, Expression]]] = None,
                 primary_key: Tuple[str, ...] = ()):
        self.columns = columns
        self.watermark_spec = watermark
        self.primary_key = primary_key

    @staticmethod
    def new_builder() -> "Schema.Builder":
        return Schema.Builder()

    def __str__(self) -> str:
        lines = []
        for c in self.columns:
            if c.kind == "physical":
                lines.append("  `%s` %s" % (c.name, c.data_type.summary_string()))
            elif c.kind == "computed":
                lines.append("  `%s` AS %s" % (c.name, c.expression))
            else:
                lines.append("  `%s` METADATA%s" % (c.name, " VIRTUAL" if c.virtual else ""))
        if self.watermark_spec:
            lines.append("  WATERMARK FOR `%s` AS %s" % self.watermark_spec)
        if self.primary_key:
            lines.append("  PRIMARY KEY (%s) NOT ENFORCED" %
                         ", ".join("`%s`" % k for k in self.primary_key))
        return "(\n%s\n)" % ",\n".join(lines)

    def __eq__(self, other) -> bool:
        return isinstance(other, Schema) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))

    class Builder:
        def __init__(self):
            self._columns: List[SchemaColumn] = []
            self._watermark = None
            self._primary_key: Tuple[str, ...] = ()

        def from_schema(self, unresolved_schema: "Schema") -> "Schema.Builder":
            self._columns.extend(unresolved_schema.columns)
            self._watermark = unresolved_schema.watermark_spec or self._watermark
            self._primary_key = unresolved_schema.primary_key or self._primary_key
            return self

        def from_row_data_type(self, data_type: RowType) -> "Schema.Builder":
            for f in data_type.fields:
                self.column(f.name, f.data_type)
            return self

        def from_fields(self, field_names: List[str],
                        field_data_types: List[DataType]) -> "Schema.Builder":
            for n, t in zip(field_names, field_data_types):
                self.column(n, t)
            return self

        def column(self, column_name: str, data_type: Union[str, DataType]) -> "Schema.Builder":
            if isinstance(data_type, str):  # a DDL string: the SQL parser, when needed
                from pystream.sql.types import parse_data_type

                data_type = parse_data_type(data_type)
            self._columns.append(SchemaColumn(column_name, "physical", data_type))
            return self

        def column_by_expression(self, column_name: str,
                                 expr: Union[str, Expression]) -> "Schema.Builder":
            self._columns.append(SchemaColumn(column_name, "computed", expression=expr))
            return self

        def column_by_metadata(self, column_name: str, data_type: Union[DataType, str],
                               metadata_key: str | None = None,
                               is_virtual: bool = False) -> "Schema.Builder":
            if isinstance(data_type, str):
                from pystream.sql.types import parse_data_type

                data_type = parse_data_type(data_type)
            self._columns.append(SchemaColumn(column_name, "metadata", data_type,
                                              key=metadata_key or column_name,
                                              virtual=is_virtual))
            return self

        def with_comment(self, comment: str) -> "Schema.Builder":
            """The comment of the column declared last (Flink's Java
            ``Schema.Builder.withComment``; DDL's ``COMMENT '...'`` of a column)."""
            self._columns[-1] = replace(self._columns[-1], comment=comment)
            return self

        def watermark(self, column_name: str,
                      watermark_expr: Union[str, Expression]) -> "Schema.Builder":
            self._watermark = (column_name, watermark_expr)
            return self

        def primary_key(self, *column_names: str) -> "Schema.Builder":
            self._primary_key = tuple(column_names)
            return self

        def primary_key_named(self, constraint_name: str, *column_names: str) -> "Schema.Builder":
            return self.primary_key(*column_names)

        def build(self) -> "Schema":
            return Schema(tuple(self._columns), self._watermark, self._primary_key)
