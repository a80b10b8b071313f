"""Avro: schemas and the Avro row (de)serialization schemas (binary records without a
header, as Flink's AvroRow schemas read and write them; encoded with fastavro).

>>> schema = AvroSchema.parse_string('{"type": "record", "name": "User", "fields": '
...     '[{"name": "name", "type": "string"}, {"name": "age", "type": "int"}]}')
>>> AvroRowDeserializationSchema(avro_schema_string=str(schema)).get_produced_type()
RowTypeInfo(name: String, age: Integer)
"""
from __future__ import annotations

import json

from pystream.common.serialization import (
    AvroRowDeserializationSchema,
    AvroRowSerializationSchema,
)
from pystream.errors import UnsupportedFeatureError

__all__ = ["AvroSchema", "GenericRecordAvroTypeInfo", "AvroInputFormat", "AvroBulkWriters",
           "AvroRowDeserializationSchema", "AvroRowSerializationSchema"]


class AvroSchema:
    """An Avro schema (its JSON text is ``str(schema)``)."""

    def __init__(self, schema_string: str):
        self._schema_string = json.dumps(json.loads(schema_string))

    def __str__(self):
        return self._schema_string

    @staticmethod
    def parse_string(json_schema: str) -> "AvroSchema":
        return AvroSchema(json_schema)

    @staticmethod
    def parse_file(file_path: str) -> "AvroSchema":
        with open(file_path, encoding="utf-8") as f:
            return AvroSchema(f.read())


def _generic_records(what: str):
    raise UnsupportedFeatureError("%s: Avro GenericRecord streams are not supported by "
                                  "pystream; use rows with AvroRowSerializationSchema / "
                                  "AvroRowDeserializationSchema" % what)


class GenericRecordAvroTypeInfo:
    """Streams of Avro GenericRecords (not supported)."""

    def __init__(self, schema: AvroSchema):
        _generic_records("GenericRecordAvroTypeInfo")


class AvroInputFormat:
    """Reading Avro container files (not supported)."""

    def __init__(self, path: str, schema: AvroSchema):
        _generic_records("AvroInputFormat")


class AvroBulkWriters:
    """Writing Avro container files (not supported)."""

    @staticmethod
    def for_generic_record(schema: AvroSchema):
        _generic_records("AvroBulkWriters")
