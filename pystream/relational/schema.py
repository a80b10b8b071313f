"""The fields of a relational node: names, Flink data types and time attributes."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Optional, Tuple

from pystream.common.data_types import DataType
from pystream.util.exceptions import ValidationException

__all__ = ["Field", "Schema"]


@dataclass(frozen=True)
class Field:
    """A named, typed field; ``time`` is 'rowtime' or 'proctime' for time attributes."""

    name: str
    data_type: DataType
    time: Optional[str] = None

    def summary(self) -> str:
        """The type as ``print_schema`` shows it: ``TIMESTAMP(3) *ROWTIME*``."""
        text = self.data_type.summary_string()
        return text + (" *%s*" % self.time.upper() if self.time else "")


@dataclass(frozen=True)
class Schema:
    """The fields of a table, in order (names are unique, as Flink requires)."""

    fields: Tuple[Field, ...]

    @staticmethod
    def of(names: Iterable[str], types: Iterable[DataType]) -> "Schema":
        return Schema(tuple(Field(n, t) for n, t in zip(names, types)))

    @property
    def names(self) -> Tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    @property
    def types(self) -> Tuple[DataType, ...]:
        return tuple(f.data_type for f in self.fields)

    def __len__(self) -> int:
        return len(self.fields)

    def __iter__(self):
        return iter(self.fields)

    def field(self, name: str) -> Field:
        """The field called ``name``; a ValidationException lists the fields that exist."""
        for f in self.fields:
            if f.name == name:
                return f
        raise ValidationException(
            "Cannot resolve field [%s], input field list:[%s]." % (name, ", ".join(self.names)))

    def has(self, name: str) -> bool:
        return name in self.names

    def rowtime(self) -> Optional[Field]:
        return next((f for f in self.fields if f.time == "rowtime"), None)

    def spark_type(self):
        """A Spark struct of these fields, each nullable (rows as Spark holds them)."""
        from pyspark.sql import types as st

        return st.StructType([st.StructField(f.name, f.data_type.spark_type(), True)
                              for f in self.fields])

    def without_time_attributes(self) -> "Schema":
        return Schema(tuple(replace(f, time=None) for f in self.fields))

    def check_unique(self) -> "Schema":
        seen = set()
        for name in self.names:
            if name in seen:
                raise ValidationException(
                    "Ambiguous column name: %s. Field names must be unique: [%s]."
                    % (name, ", ".join(self.names)))
            seen.add(name)
        return self
