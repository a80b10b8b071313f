"""Avro: schemas and the Avro row (de)serialization schemas (binary records without a
header, as Flink's AvroRow schemas read and write them; encoded with fastavro).

>>> schema = AvroSchema.parse_string('{"type": "record", "name": "User", "fields": '
...     '[{"name": "name", "type": "string"}, {"name": "age", "type": "int"}]}')
>>> AvroRowDeserializationSchema(avro_schema_string=str(schema)).get_produced_type()
RowTypeInfo(name: String, age: Integer)
"""
from __future__ import annotations

import json

from pystream.common.io import InputFormat
from pystream.common.serialization import (
    AvroRowDeserializationSchema,
    AvroRowSerializationSchema,
)
from pystream.common.typeinfo import TypeInformation
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


class GenericRecordAvroTypeInfo(TypeInformation):
    """Streams of Avro GenericRecords: a job whose stream has this type fails when compiled."""

    def __init__(self, schema: AvroSchema):
        self._schema = schema

    def spark_type(self):
        _generic_records("GenericRecordAvroTypeInfo")

    def _key(self):
        return (str(self._schema),)

    def __repr__(self):
        return "GenericRecordAvroTypeInfo(%s)" % self._schema


class AvroInputFormat(InputFormat):
    """Reads Avro container files as GenericRecords (``env.create_input``): a job reading it
    fails when compiled."""

    def __init__(self, path: str, schema: AvroSchema):
        self.path = path
        self.schema = schema

    def get_produced_type(self) -> GenericRecordAvroTypeInfo:
        return GenericRecordAvroTypeInfo(self.schema)

    def __repr__(self):
        return "AvroInputFormat(%s)" % self.path


class AvroBulkWriters:
    """Writing Avro container files (not supported)."""

    @staticmethod
    def for_generic_record(schema: AvroSchema):
        _generic_records("AvroBulkWriters")
