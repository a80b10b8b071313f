"""``Row`` and ``RowKind``, with PyFlink's behaviour."""
from __future__ import annotations

from enum import Enum
from typing import List, Optional

__all__ = ["Row", "RowKind"]


class RowKind(Enum):
    """The change a row stands for: insert, update before/after, delete."""

    INSERT = 0
    UPDATE_BEFORE = 1
    UPDATE_AFTER = 2
    DELETE = 3

    def __str__(self):
        return ("+I", "-U", "+U", "-D")[self.value]


def _create_row(fields, values, row_kind: Optional[RowKind] = None) -> "Row":
    return Row._make(list(values), list(fields) if fields is not None else None,
                     row_kind or RowKind.INSERT)


class Row:
    """A record with positional fields, optionally named.

    Fields can be read by position (``row[0]``), by name (``row['name']``, ``row.name``).

    >>> row = Row(name='Alice', age=11)
    >>> row.name, row[1], row.as_dict()
    ('Alice', 11, {'name': 'Alice', 'age': 11})
    >>> Person = Row('name', 'age')
    >>> Person('Bob', 3)
    Row(name='Bob', age=3)
    """

    __slots__ = ("_values", "_fields", "_row_kind")

    def __init__(self, *args, **kwargs):
        if args and kwargs:
            raise ValueError("Can not use both args and kwargs to create Row")
        if kwargs:
            self._fields = list(kwargs)
            self._values = list(kwargs.values())
        else:
            self._fields = None
            self._values = list(args)
        self._row_kind = RowKind.INSERT

    @classmethod
    def _make(cls, values: list, fields: Optional[list] = None,
              row_kind: RowKind = RowKind.INSERT) -> "Row":
        row = object.__new__(cls)
        row._values = values
        row._fields = fields
        row._row_kind = row_kind
        return row

    def as_dict(self, recursive: bool = False) -> dict:
        """The row as a dict from field name to value (nested rows too when ``recursive``)."""
        if self._fields is None:
            raise TypeError("Cannot convert a Row class into dict")
        if not recursive:
            return dict(zip(self._fields, self._values))

        def conv(obj):
            if isinstance(obj, Row):
                return obj.as_dict(True)
            if isinstance(obj, list):
                return [conv(o) for o in obj]
            if isinstance(obj, dict):
                return {k: conv(v) for k, v in obj.items()}
            return obj

        return {k: conv(v) for k, v in zip(self._fields, self._values)}

    def get_row_kind(self) -> RowKind:
        return self._row_kind

    def set_row_kind(self, row_kind: RowKind) -> None:
        self._row_kind = row_kind

    def set_field_names(self, field_names: List[str]) -> None:
        self._fields = list(field_names)

    def get_field_names(self) -> Optional[List[str]]:
        return self._fields

    def get_fields_by_names(self, names: List[str]) -> list:
        if self._fields is None or names == self._fields:
            return self._values
        missing = [n for n in names if n not in self._fields]
        if missing:
            raise Exception("Field names {0} not exist in {1}.".format(missing, self._fields))
        return [self._values[self._fields.index(n)] for n in names]

    @staticmethod
    def of_kind(row_kind: RowKind, *args, **kwargs) -> "Row":
        row = Row(*args, **kwargs)
        row.set_row_kind(row_kind)
        return row

    def __call__(self, *args) -> "Row":
        """Use a row of field names as a factory of rows with those names."""
        if len(args) > len(self):
            raise ValueError("Can not create Row with fields %s, expected %d values but got %s"
                             % (self, len(self), args))
        return _create_row(self._values, args, self._row_kind)

    def __contains__(self, item) -> bool:
        if self._fields is not None:
            return item in self._fields
        return item in self._values

    def __getitem__(self, item):
        if isinstance(item, (int, slice)):
            return self._values[item]
        try:
            return self._values[self._fields.index(item)]
        except (ValueError, AttributeError):
            raise KeyError(item) from None

    def __setitem__(self, key, value):
        if isinstance(key, (int, slice)):
            self._values[key] = value
            return
        try:
            self._values[self._fields.index(key)] = value
        except (ValueError, AttributeError):
            raise KeyError(key) from None

    def __getattr__(self, item):
        if item.startswith("_"):
            raise AttributeError(item)
        try:
            return self._values[self._fields.index(item)]
        except (ValueError, AttributeError):
            raise AttributeError(item) from None

    def __setattr__(self, key, value):
        if key not in Row.__slots__:
            raise AttributeError(key)
        object.__setattr__(self, key, value)

    def __reduce__(self):
        return _create_row, (self._fields, tuple(self._values), self._row_kind)

    def __repr__(self):
        if self._fields is not None:
            return "Row(%s)" % ", ".join("%s=%r" % kv for kv in zip(self._fields, self._values))
        return "<Row(%s)>" % ", ".join(repr(v) for v in self._values)

    def __eq__(self, other):
        if not isinstance(other, Row) or self.__class__ != other.__class__:
            return False
        if self._row_kind != other._row_kind:
            return False
        if self._fields is None or other._fields is None:
            return self._fields is None and other._fields is None and self._values == other._values
        if sorted(self._fields) != sorted(other._fields):
            return False
        return all(self[name] == other[name] for name in self._fields)

    def __hash__(self):
        return hash(tuple(self._values))

    def __iter__(self):
        return iter(self._values)

    def __len__(self):
        return len(self._values)
