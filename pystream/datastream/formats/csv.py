"""CSV: ``CsvSchema``, the reader format for ``FileSource``, the bulk writer for
``FileSink`` and the row (de)serialization schemas.

>>> schema = (CsvSchema.builder().add_number_column('id', number_type=DataTypes.INT())
...           .add_string_column('name').set_column_separator('|').build())
>>> source = FileSource.for_record_stream_format(CsvReaderFormat.for_schema(schema),
...                                              '/data/in.csv').build()   # doctest: +SKIP
"""
from __future__ import annotations

from typing import List, Optional

from pystream.common.codecs import CsvCodec
from pystream.common.data_types import DataType, DataTypes, RowType
from pystream.common.serialization import (
    CsvRowDeserializationSchema,
    CsvRowSerializationSchema,
    RowDataBulkWriterFactory,
)
from pystream.common.typeinfo import TypeInformation
from pystream.core.connectors.file_system import StreamFormat

__all__ = ["CsvSchema", "CsvSchemaBuilder", "CsvReaderFormat", "CsvBulkWriters",
           "CsvRowDeserializationSchema", "CsvRowSerializationSchema"]


class CsvSchema:
    """The columns of a CSV file (names and types) and how it is written."""

    def __init__(self, row_type: RowType, options: dict, use_header: bool,
                 skip_first_data_row: bool):
        self._row_type = row_type
        self._options = dict(options)
        self.use_header = use_header
        self.skip_first_data_row = skip_first_data_row

    @staticmethod
    def builder() -> "CsvSchemaBuilder":
        return CsvSchemaBuilder()

    def size(self) -> int:
        return len(self._row_type)

    def __len__(self):
        return self.size()

    def __str__(self):
        return "CsvSchema(%s)" % ", ".join(self._row_type.field_names())

    __repr__ = __str__

    def codec(self, ignore_parse_errors: bool = False):
        return CsvCodec(self._row_type.to_type_info(), ignore_parse_errors=ignore_parse_errors,
                        **self._options)

    def header_line(self) -> str:
        codec = self.codec()
        return codec.field_delimiter.join(codec._quoted(n) for n in
                                          self._row_type.field_names()) + codec.line_delimiter


class CsvSchemaBuilder:
    """Builds a CsvSchema column by column."""

    def __init__(self):
        self._fields: List = []
        self._options: dict = {}
        self._use_header = False
        self._skip_first_data_row = False

    def build(self) -> CsvSchema:
        return CsvSchema(DataTypes.ROW(self._fields), self._options, self._use_header,
                         self._skip_first_data_row)

    def add_array_column(self, name: str, separator: str = ";",
                         element_type: Optional[DataType] = None) -> "CsvSchemaBuilder":
        self._options["array_element_delimiter"] = separator
        self._fields.append(DataTypes.FIELD(name, DataTypes.ARRAY(element_type
                                                                  or DataTypes.STRING())))
        return self

    def add_boolean_column(self, name: str) -> "CsvSchemaBuilder":
        self._fields.append(DataTypes.FIELD(name, DataTypes.BOOLEAN()))
        return self

    def add_number_column(self, name: str, number_type: Optional[DataType] = None
                          ) -> "CsvSchemaBuilder":
        self._fields.append(DataTypes.FIELD(name, number_type or DataTypes.BIGINT()))
        return self

    def add_string_column(self, name: str) -> "CsvSchemaBuilder":
        self._fields.append(DataTypes.FIELD(name, DataTypes.STRING()))
        return self

    def add_columns_from(self, schema: CsvSchema) -> "CsvSchemaBuilder":
        self._fields.extend(schema._row_type.fields)
        return self

    def clear_columns(self) -> "CsvSchemaBuilder":
        self._fields.clear()
        return self

    def set_allow_comments(self, allow: bool = True) -> "CsvSchemaBuilder":
        self._options["allow_comments"] = allow
        return self

    def set_any_property_name(self, name: str) -> "CsvSchemaBuilder":
        return self

    def disable_array_element_separator(self) -> "CsvSchemaBuilder":
        self._options["array_element_delimiter"] = "\0"
        return self

    def remove_array_element_separator(self, index: int) -> "CsvSchemaBuilder":
        return self

    def set_array_element_separator(self, separator: str) -> "CsvSchemaBuilder":
        self._options["array_element_delimiter"] = separator
        return self

    def set_column_separator(self, char: str) -> "CsvSchemaBuilder":
        if len(char) != 1:
            raise ValueError("Column separator must be a single char, got {}".format(char))
        self._options["field_delimiter"] = char
        return self

    def disable_escape_char(self) -> "CsvSchemaBuilder":
        self._options["escape_character"] = None
        return self

    def set_escape_char(self, char: str) -> "CsvSchemaBuilder":
        if len(char) != 1:
            raise ValueError("Escape char must be a single char, got {}".format(char))
        self._options["escape_character"] = char
        return self

    def set_line_separator(self, separator: str) -> "CsvSchemaBuilder":
        self._options["line_delimiter"] = separator
        return self

    def set_null_value(self, null_value: str) -> "CsvSchemaBuilder":
        self._options["null_literal"] = null_value
        return self

    def disable_quote_char(self) -> "CsvSchemaBuilder":
        self._options["quote_character"] = None
        return self

    def set_quote_char(self, char: str) -> "CsvSchemaBuilder":
        if len(char) != 1:
            raise ValueError("Quote char must be a single char, got {}".format(char))
        self._options["quote_character"] = char
        return self

    def set_skip_first_data_row(self, skip: bool = True) -> "CsvSchemaBuilder":
        self._skip_first_data_row = skip
        return self

    def set_strict_headers(self, strict: bool = True) -> "CsvSchemaBuilder":
        return self

    def set_use_header(self, use: bool = True) -> "CsvSchemaBuilder":
        self._use_header = use
        return self

    def size(self) -> int:
        return len(self._fields)

    def __len__(self):
        return self.size()


class CsvReaderFormat(StreamFormat):
    """Reads CSV files as rows of the schema's columns, one record a line."""

    def __init__(self, schema: CsvSchema, ignore_parse_errors: bool = False):
        super().__init__()
        self.schema = schema
        self.ignore_parse_errors = ignore_parse_errors

    @staticmethod
    def for_schema(schema: CsvSchema) -> "CsvReaderFormat":
        return CsvReaderFormat(schema)

    def with_ignore_parse_errors(self) -> "CsvReaderFormat":
        """Bad fields become None and lines that do not parse are skipped (as Java's
        ``CsvReaderFormat.withIgnoreParseErrors``)."""
        return CsvReaderFormat(self.schema, ignore_parse_errors=True)

    def produced_type(self) -> TypeInformation:
        return self.schema._row_type.to_type_info()

    def line_decoder(self):
        return self.schema.codec(self.ignore_parse_errors).deserialize

    @property
    def whole_files(self) -> bool:
        return self.schema.use_header or self.schema.skip_first_data_row


class CsvBulkWriters:
    """Writers of CSV part files for ``FileSink.for_bulk_format``."""

    @staticmethod
    def for_schema(schema: CsvSchema) -> "CsvBulkWriterFactory":
        return CsvBulkWriterFactory(schema)


class CsvBulkWriterFactory(RowDataBulkWriterFactory):
    """Writes rows as CSV lines (with a header line when the schema uses one)."""

    def __init__(self, schema: CsvSchema):
        super().__init__(schema._row_type)
        self.schema = schema

    def file_writer(self, type_info: TypeInformation):
        from pystream.runtime.files import CsvFileWriter

        return CsvFileWriter(self.schema.codec(), type_info,
                             self.schema.header_line() if self.schema.use_header else None)
