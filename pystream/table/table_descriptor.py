"""``TableDescriptor`` and ``FormatDescriptor``: a connector table described in Python, as
``CREATE TABLE ... WITH (...)`` describes it in SQL."""
from __future__ import annotations

from typing import Dict, List, Optional, Union

from pystream.table.schema import Schema

__all__ = ["TableDescriptor", "FormatDescriptor"]


class FormatDescriptor:
    """A format and its options: ``FormatDescriptor.for_format('csv').option(...).build()``."""

    def __init__(self, format: str, options: Dict[str, str]):
        self._format = format
        self._options = dict(options)

    @staticmethod
    def for_format(format: str) -> "FormatDescriptor.Builder":
        return FormatDescriptor.Builder(format)

    def get_format(self) -> str:
        return self._format

    def get_options(self) -> Dict[str, str]:
        return dict(self._options)

    def __str__(self) -> str:
        options = ", ".join("'%s' = '%s'" % kv for kv in sorted(self._options.items()))
        return "%s[%s]" % (self._format, options)

    def __eq__(self, other) -> bool:
        return isinstance(other, FormatDescriptor) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))

    class Builder:
        def __init__(self, format: str):
            self._format = format
            self._options: Dict[str, str] = {}

        def option(self, key: str, value) -> "FormatDescriptor.Builder":
            self._options[key] = _option_text(value)
            return self

        def build(self) -> "FormatDescriptor":
            return FormatDescriptor(self._format, self._options)


def _option_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class TableDescriptor:
    """A connector table: ``TableDescriptor.for_connector('datagen').schema(...).build()``."""

    def __init__(self, schema: Optional[Schema], options: Dict[str, str],
                 partition_keys: List[str], comment: Optional[str]):
        self._schema = schema
        self._options = options
        self._partition_keys = partition_keys
        self._comment = comment

    @staticmethod
    def for_connector(connector: str) -> "TableDescriptor.Builder":
        return TableDescriptor.Builder().option("connector", connector)

    def get_schema(self) -> Optional[Schema]:
        return self._schema

    def get_options(self) -> Dict[str, str]:
        return dict(self._options)

    def get_partition_keys(self) -> List[str]:
        return list(self._partition_keys)

    def get_comment(self) -> Optional[str]:
        return self._comment

    def __str__(self) -> str:
        parts = [str(self._schema) if self._schema else "()"]
        if self._comment:
            parts.append("COMMENT '%s'" % self._comment)
        if self._partition_keys:
            parts.append("PARTITIONED BY (%s)" % ", ".join("`%s`" % k
                                                           for k in self._partition_keys))
        options = ",\n".join("  '%s' = '%s'" % kv for kv in self._options.items())
        parts.append("WITH (\n%s\n)" % options)
        return "\n".join(parts)

    def __eq__(self, other) -> bool:
        return isinstance(other, TableDescriptor) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))

    class Builder:
        def __init__(self):
            self._schema: Optional[Schema] = None
            self._options: Dict[str, str] = {}
            self._partition_keys: List[str] = []
            self._comment: Optional[str] = None

        def schema(self, schema: Schema) -> "TableDescriptor.Builder":
            self._schema = schema
            return self

        def option(self, key: str, value) -> "TableDescriptor.Builder":
            self._options[key] = _option_text(value)
            return self

        def format(self, format: Union[str, FormatDescriptor],
                   format_option=None) -> "TableDescriptor.Builder":
            """The format of the connector (``format_option`` names a key/value format:
            'key' or 'value')."""
            prefix = "format" if format_option is None else "%s.format" % str(format_option)
            if isinstance(format, str):
                self._options[prefix] = format
            else:
                name = format.get_format()
                self._options[prefix] = name
                base = name if format_option is None else "%s.%s" % (format_option, name)
                for k, v in format.get_options().items():
                    self._options["%s.%s" % (base, k)] = v
            return self

        def partitioned_by(self, *partition_keys: str) -> "TableDescriptor.Builder":
            self._partition_keys = list(partition_keys)
            return self

        def comment(self, comment: str) -> "TableDescriptor.Builder":
            self._comment = comment
            return self

        def build(self) -> "TableDescriptor":
            return TableDescriptor(self._schema, dict(self._options), self._partition_keys,
                                   self._comment)
