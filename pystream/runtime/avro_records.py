"""Avro records of a table's rows (``compiler.connectors.kafka.avro``), in Python workers."""
from __future__ import annotations

import datetime
import io
import json
from typing import List, Optional

from pystream.common.codecs import _fastavro


class AvroDecoder:
    """A record's Avro bytes -> its fields and None; undecodable bytes -> Nones and their
    text (the bad-records column)."""

    def __init__(self, schema_json: str, names: List[str]):
        self.schema_json = schema_json
        self.names = names
        self._parsed = None

    def __call__(self, data: Optional[bytes]):
        if data is None:
            return None
        if self._parsed is None:
            self._parsed = _fastavro().parse_schema(json.loads(self.schema_json))
        try:
            datum = _fastavro().schemaless_reader(io.BytesIO(bytes(data)), self._parsed)
        except Exception:  # noqa: BLE001 - a record that does not decode is a bad record
            return tuple([None] * len(self.names)) + (repr(bytes(data)),)
        return tuple(_spark_value(datum.get(n)) for n in self.names) + (None,)


class AvroEncoder:
    """A row's fields (a struct) -> Avro bytes."""

    def __init__(self, schema_json: str, names: List[str]):
        self.schema_json = schema_json
        self.names = names
        self._parsed = None

    def __call__(self, row) -> bytes:
        if self._parsed is None:
            self._parsed = _fastavro().parse_schema(json.loads(self.schema_json))
        out = io.BytesIO()
        _fastavro().schemaless_writer(out, self._parsed, _avro_value(row))
        return out.getvalue()


def _spark_value(value):
    """A decoded Avro value as Spark takes it: timestamps as UTC wall-clock times, nested
    records as dicts."""
    if isinstance(value, datetime.datetime) and value.tzinfo is not None:
        return value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    if isinstance(value, dict):
        return {k: _spark_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_spark_value(v) for v in value]
    return value


def _avro_value(value):
    """A Spark value (Rows for structs) as fastavro writes it."""
    if hasattr(value, "asDict"):
        return {k: _avro_value(v) for k, v in value.asDict().items()}
    if isinstance(value, dict):
        return {k: _avro_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_avro_value(v) for v in value]
    if isinstance(value, bytearray):
        return bytes(value)
    return value
