"""Serialization schemas (records <-> bytes for Kafka and other connectors) and encoders
(how a row-format file sink writes a record).

The JSON, CSV and Avro row schemas also live in ``pystream.datastream.formats`` (where
PyFlink 2 has them); they are importable from here too, as in older PyFlink versions.

>>> schema = JsonRowSerializationSchema.builder().with_type_info(
...     Types.ROW_NAMED(['id', 'name'], [Types.INT(), Types.STRING()])).build()
>>> schema.serialize(Row(1, 'a'))
b'{"id":1,"name":"a"}'
"""
from __future__ import annotations

from typing import Optional

from pystream.common.codecs import AvroCodec, CsvCodec, JsonCodec
from pystream.common.formatting import java_formatter
from pystream.common.typeinfo import TypeInformation, Types
from pystream.common.types import Row  # noqa: F401 - used in the doctest
from pystream.errors import UnsupportedFeatureError

__all__ = ["SerializationSchema", "DeserializationSchema", "SimpleStringSchema",
           "ByteArraySchema", "Encoder", "BulkWriterFactory", "RowDataBulkWriterFactory",
           "RowFieldExtractorSchema", "JsonRowSerializationSchema",
           "JsonRowDeserializationSchema", "CsvRowSerializationSchema",
           "CsvRowDeserializationSchema", "AvroRowSerializationSchema",
           "AvroRowDeserializationSchema"]


class SerializationSchema:
    """Turns a record into bytes."""

    def serialize(self, value) -> bytes:
        raise NotImplementedError


class DeserializationSchema:
    """Turns bytes into a record of ``get_produced_type()``; None means "no record"."""

    def deserialize(self, message: bytes):
        raise NotImplementedError

    def get_produced_type(self) -> TypeInformation:
        raise NotImplementedError


class SimpleStringSchema(SerializationSchema, DeserializationSchema):
    """Strings as UTF-8 (or ``charset``) bytes."""

    def __init__(self, charset: str = "UTF-8"):
        self.charset = charset

    def serialize(self, value) -> bytes:
        return str(value).encode(self.charset)

    def deserialize(self, message: bytes) -> str:
        return bytes(message).decode(self.charset)

    def get_produced_type(self) -> TypeInformation:
        return Types.STRING()


class ByteArraySchema(SerializationSchema, DeserializationSchema):
    """Raw bytes, unchanged."""

    def serialize(self, value) -> bytes:
        return bytes(value)

    def deserialize(self, message: bytes) -> bytes:
        return bytes(message)

    def get_produced_type(self) -> TypeInformation:
        return Types.PRIMITIVE_ARRAY(Types.BYTE())


class RowFieldExtractorSchema(SerializationSchema):
    """Serializes one field of a row: bytes as they are, anything else as its UTF-8 text."""

    def __init__(self, field_index: int):
        if field_index < 0:
            raise ValueError("Field index must be non-negative, got: %d" % field_index)
        self.field_index = field_index

    def serialize(self, value) -> Optional[bytes]:
        field = value[self.field_index]
        if field is None or isinstance(field, (bytes, bytearray)):
            return field
        return str(field).encode("utf-8")


class Encoder:
    """How a row-format file sink writes one record: ``simple_string_encoder`` writes the
    record's string form (Java's ``toString``, e.g. ``+I[1, a]`` for a row) and a newline."""

    def __init__(self, charset: str = "UTF-8"):
        self.charset = charset

    @staticmethod
    def simple_string_encoder(charset_name: str = "UTF-8") -> "Encoder":
        return Encoder(charset_name)

    def encode(self, value, type_info: TypeInformation) -> bytes:
        return self.encoder_for(type_info)(value)

    def encoder_for(self, type_info: TypeInformation):
        """The ``value -> bytes`` function for records of ``type_info``."""
        text, charset = java_formatter(type_info), self.charset
        return lambda value: (text(value) + "\n").encode(charset)


class BulkWriterFactory:
    """Writes whole part files (Parquet, ORC, CSV); made by the writers of
    ``pystream.datastream.formats``."""


class RowDataBulkWriterFactory(BulkWriterFactory):
    """A bulk writer for rows of a ``RowType``."""

    def __init__(self, row_type):
        self._row_type = row_type

    def get_row_type(self):
        return self._row_type


# ---------------------------------------------------------------------------------------------
# JSON


class JsonRowSerializationSchema(SerializationSchema):
    """Rows as JSON objects (Flink's JSON format).

    >>> JsonRowSerializationSchema.builder().with_type_info(row_type).build()  # doctest: +SKIP
    """

    def __init__(self, type_info: TypeInformation):
        self._type_info = type_info
        self._codec = JsonCodec(type_info)

    def serialize(self, value) -> bytes:
        return self._codec.serialize(value)

    @staticmethod
    def builder() -> "JsonRowSerializationSchema.Builder":
        return JsonRowSerializationSchema.Builder()

    class Builder:
        def __init__(self):
            self._type_info = None

        def with_type_info(self, type_info: TypeInformation
                           ) -> "JsonRowSerializationSchema.Builder":
            self._type_info = type_info
            return self

        def build(self) -> "JsonRowSerializationSchema":
            if self._type_info is None:
                raise TypeError("Typeinfo should be set.")
            return JsonRowSerializationSchema(self._type_info)


class JsonRowDeserializationSchema(DeserializationSchema):
    """JSON objects as rows of ``type_info``: missing fields are None (or an error with
    ``fail_on_missing_field``); with ``ignore_parse_errors`` a bad field is None and text
    that is not JSON gives no record."""

    def __init__(self, type_info: TypeInformation, fail_on_missing_field: bool = False,
                 ignore_parse_errors: bool = False):
        self._type_info = type_info
        self._codec = JsonCodec(type_info, fail_on_missing_field, ignore_parse_errors)

    def deserialize(self, message: bytes):
        return self._codec.deserialize(message)

    def get_produced_type(self) -> TypeInformation:
        return self._type_info

    @staticmethod
    def builder() -> "JsonRowDeserializationSchema.Builder":
        return JsonRowDeserializationSchema.Builder()

    class Builder:
        def __init__(self, type_info: Optional[TypeInformation] = None):
            self._type_info = type_info
            self._fail_on_missing_field = False
            self._ignore_parse_errors = False

        def type_info(self, type_info: TypeInformation) -> "JsonRowDeserializationSchema.Builder":
            self._type_info = type_info
            return self

        def json_schema(self, json_schema: str) -> "JsonRowDeserializationSchema.Builder":
            """The row type from a JSON Schema document (objects, strings, numbers, ...)."""
            import json

            if json_schema is None:
                raise TypeError("The json_schema must not be None.")
            self._type_info = _json_schema_type(json.loads(json_schema))
            return self

        def fail_on_missing_field(self) -> "JsonRowDeserializationSchema.Builder":
            self._fail_on_missing_field = True
            return self

        def ignore_parse_errors(self) -> "JsonRowDeserializationSchema.Builder":
            self._ignore_parse_errors = True
            return self

        def build(self) -> "JsonRowDeserializationSchema":
            if self._type_info is None:
                raise TypeError("Type information must not be None")
            return JsonRowDeserializationSchema(self._type_info, self._fail_on_missing_field,
                                                self._ignore_parse_errors)


def _json_schema_type(node: dict) -> TypeInformation:
    """Flink's JsonRowSchemaConverter, for the common JSON Schema types."""
    kind = node.get("type")
    if isinstance(kind, list):
        kind = next(k for k in kind if k != "null")
    if kind == "object":
        props = node.get("properties", {})
        return Types.ROW_NAMED(list(props), [_json_schema_type(p) for p in props.values()])
    if kind == "array":
        return Types.OBJECT_ARRAY(_json_schema_type(node.get("items", {"type": "string"})))
    if kind == "string":
        return {"date": Types.SQL_DATE, "time": Types.SQL_TIME,
                "date-time": Types.SQL_TIMESTAMP}.get(node.get("format"), Types.STRING)()
    return {"integer": Types.BIG_INT, "number": Types.BIG_DEC, "boolean": Types.BOOLEAN,
            "null": Types.STRING}[kind]()


# ---------------------------------------------------------------------------------------------
# CSV


class CsvRowSerializationSchema(SerializationSchema):
    """Rows as CSV lines (Flink's CSV format: ``,`` between fields, ``"`` quotes when
    needed, ``;`` between array elements)."""

    def __init__(self, codec):
        self._codec = codec

    def serialize(self, value) -> bytes:
        return self._codec.serialize(value)

    class Builder:
        def __init__(self, type_info: TypeInformation):
            if type_info is None:
                raise TypeError("Type information must not be None")
            self._type_info = type_info
            self._options: dict = {}

        def set_field_delimiter(self, c: str) -> "CsvRowSerializationSchema.Builder":
            self._options["field_delimiter"] = c
            return self

        def set_line_delimiter(self, delimiter: str) -> "CsvRowSerializationSchema.Builder":
            if delimiter not in ("\n", "\r", "\r\n", ""):
                raise ValueError("Unsupported new line delimiter. Only \\n, \\r, \\r\\n are "
                                 "supported.")
            self._options["line_delimiter"] = delimiter
            return self

        def set_array_element_delimiter(self, delimiter: str
                                        ) -> "CsvRowSerializationSchema.Builder":
            self._options["array_element_delimiter"] = delimiter
            return self

        def disable_quote_character(self) -> "CsvRowSerializationSchema.Builder":
            self._options["quote_character"] = None
            return self

        def set_quote_character(self, c: str) -> "CsvRowSerializationSchema.Builder":
            self._options["quote_character"] = c
            return self

        def set_escape_character(self, c: str) -> "CsvRowSerializationSchema.Builder":
            self._options["escape_character"] = c
            return self

        def set_null_literal(self, s: str) -> "CsvRowSerializationSchema.Builder":
            self._options["null_literal"] = s
            return self

        def build(self) -> "CsvRowSerializationSchema":
            return CsvRowSerializationSchema(CsvCodec(self._type_info, **self._options))


class CsvRowDeserializationSchema(DeserializationSchema):
    """CSV lines as rows of ``type_info``; ``set_ignore_parse_errors(True)`` makes bad fields
    None instead of failing the job."""

    def __init__(self, codec):
        self._codec = codec

    def deserialize(self, message: bytes):
        return self._codec.deserialize(message)

    def get_produced_type(self) -> TypeInformation:
        return self._codec.type_info

    class Builder:
        def __init__(self, type_info: TypeInformation):
            if type_info is None:
                raise TypeError("Type information must not be None")
            self._type_info = type_info
            self._options: dict = {}

        def set_field_delimiter(self, delimiter: str) -> "CsvRowDeserializationSchema.Builder":
            self._options["field_delimiter"] = delimiter
            return self

        def set_allow_comments(self, allow_comments: bool
                               ) -> "CsvRowDeserializationSchema.Builder":
            self._options["allow_comments"] = allow_comments
            return self

        def set_array_element_delimiter(self, delimiter: str
                                        ) -> "CsvRowDeserializationSchema.Builder":
            self._options["array_element_delimiter"] = delimiter
            return self

        def set_quote_character(self, c: str) -> "CsvRowDeserializationSchema.Builder":
            self._options["quote_character"] = c
            return self

        def set_escape_character(self, c: str) -> "CsvRowDeserializationSchema.Builder":
            self._options["escape_character"] = c
            return self

        def set_null_literal(self, null_literal: str) -> "CsvRowDeserializationSchema.Builder":
            self._options["null_literal"] = null_literal
            return self

        def set_ignore_parse_errors(self, ignore_parse_errors: bool
                                    ) -> "CsvRowDeserializationSchema.Builder":
            self._options["ignore_parse_errors"] = ignore_parse_errors
            return self

        def build(self) -> "CsvRowDeserializationSchema":
            return CsvRowDeserializationSchema(CsvCodec(self._type_info, **self._options))


# ---------------------------------------------------------------------------------------------
# Avro


def _avro_codec(record_class: Optional[str], avro_schema_string: Optional[str]):
    if avro_schema_string is None and record_class is None:
        raise TypeError("record_class or avro_schema_string should be specified.")
    if avro_schema_string is None:
        raise UnsupportedFeatureError("Avro record_class: Java classes do not exist in "
                                      "pystream; pass avro_schema_string instead")
    return AvroCodec(avro_schema_string)


class AvroRowSerializationSchema(SerializationSchema):
    """Rows as Avro binary records of ``avro_schema_string`` (no header, as Flink writes them)."""

    def __init__(self, record_class: Optional[str] = None,
                 avro_schema_string: Optional[str] = None):
        self._codec = _avro_codec(record_class, avro_schema_string)

    def serialize(self, value) -> bytes:
        return self._codec.serialize(value)


class AvroRowDeserializationSchema(DeserializationSchema):
    """Avro binary records of ``avro_schema_string`` as rows (fields named as in the schema)."""

    def __init__(self, record_class: Optional[str] = None,
                 avro_schema_string: Optional[str] = None):
        self._codec = _avro_codec(record_class, avro_schema_string)

    def deserialize(self, message: bytes):
        return self._codec.deserialize(message)

    def get_produced_type(self) -> TypeInformation:
        return self._codec.type_info
