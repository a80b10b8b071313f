"""JSON: the row (de)serialization schemas and, as a pystream extension, a JSON Lines
reader format for ``FileSource``.

>>> fmt = JsonReaderFormat.for_schema(JsonRowDeserializationSchema.builder()
...     .type_info(Types.ROW_NAMED(['id', 'name'], [Types.INT(), Types.STRING()])).build())
>>> source = FileSource.for_record_stream_format(fmt, '/data/events').build()  # doctest: +SKIP
"""
from __future__ import annotations

from pystream.common.serialization import (
    JsonRowDeserializationSchema,
    JsonRowSerializationSchema,
)
from pystream.common.typeinfo import TypeInformation, Types  # noqa: F401 - doctest
from pystream.core.connectors.file_system import StreamFormat

__all__ = ["JsonRowDeserializationSchema", "JsonRowSerializationSchema", "JsonReaderFormat"]


class JsonReaderFormat(StreamFormat):
    """JSON Lines files: one JSON object a line, decoded by a JsonRowDeserializationSchema
    (its ``ignore_parse_errors`` skips lines that are not JSON). A pystream extension:
    PyFlink has no JSON file reader."""

    def __init__(self, schema: JsonRowDeserializationSchema):
        super().__init__()
        self.schema = schema

    @staticmethod
    def for_schema(schema: JsonRowDeserializationSchema) -> "JsonReaderFormat":
        return JsonReaderFormat(schema)

    def produced_type(self) -> TypeInformation:
        return self.schema.get_produced_type()

    def line_decoder(self):
        return self.schema._codec.deserialize
