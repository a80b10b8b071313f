"""Records <-> JSON, CSV and Avro bytes, as Flink's row formats write and read them.

The serialization schemas of ``pystream.common.serialization`` delegate here. Text follows
Flink's Jackson-based formats (checked on PyFlink 2.3): doubles as Java prints them
(``1.0E20``), JSON timestamps as RFC 3339 (``2024-01-02T03:04:05.123Z``), CSV fields quoted
only when Jackson would quote them. A record that does not parse raises
``DeserializationError`` naming the format and the record, unless the schema ignores parse
errors: then a bad field becomes None and unparsable input gives no record (None).
"""
from __future__ import annotations

import base64
import csv
import datetime
import decimal
import io
import json
from typing import Any, List, Optional

from pystream.common.formatting import java_double
from pystream.common.time import Instant
from pystream.common.typeinfo import (
    BasicType,
    BasicTypeInfo,
    DateTypeInfo,
    LocalTimeTypeInfo,
    MapTypeInfo,
    PickledBytesTypeInfo,
    PrimitiveArrayTypeInfo,
    TimestampTypeInfo,
    TimeTypeInfo,
    TupleTypeInfo,
    TypeInformation,
    Types,
    _CompositeTypeInfo,
    _ElementTypeInfo,
)
from pystream.common.types import Row
from pystream.errors import UnsupportedFeatureError

_INTEGRAL = {BasicType.BYTE, BasicType.SHORT, BasicType.INT, BasicType.LONG, BasicType.BIG_INT}


class DeserializationError(ValueError):
    """Bytes that are not a record of the expected type."""


def _text(message) -> str:
    if isinstance(message, (bytes, bytearray, memoryview)):
        return bytes(message).decode("utf-8", errors="replace")
    return str(message)


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _fields(value, type_info: _CompositeTypeInfo) -> list:
    if isinstance(value, Row):
        return list(value._values)
    if isinstance(value, dict):
        return [value.get(n) for n in type_info.get_field_names()]
    return list(value)


def _kind(type_info) -> Optional[BasicType]:
    return type_info._basic_type if isinstance(type_info, BasicTypeInfo) else None


def _iso_time(t: datetime.time) -> str:
    text = t.strftime("%H:%M:%S")
    if t.microsecond:
        text += ("." + "%06d" % t.microsecond).rstrip("0")
    return text


def _iso_datetime(dt: datetime.datetime) -> str:
    return dt.date().isoformat() + "T" + _iso_time(dt.time())


def _java_timestamp(dt: datetime.datetime) -> str:
    """java.sql.Timestamp.toString: ``2024-01-02 03:04:05.123`` (at least ``.0``)."""
    frac = ("%06d" % dt.microsecond).rstrip("0") or "0"
    return dt.strftime("%Y-%m-%d %H:%M:%S") + "." + frac


def _parse_datetime(text: str) -> datetime.datetime:
    text = text.strip()
    if text.endswith("Z"):
        text = text[:-1]
    return datetime.datetime.fromisoformat(text.replace(" ", "T", 1))


def _parse_time(text: str) -> datetime.time:
    text = text.strip()
    return datetime.time.fromisoformat(text[:-1] if text.endswith("Z") else text)


def _java_int(text: str) -> int:
    """Java's Integer.parseInt / Long.parseLong: an optional sign and digits, nothing else."""
    body = text[1:] if text[:1] in "+-" else text
    if not body.isdigit() or not body.isascii():
        raise ValueError('For input string: "%s"' % text)
    return int(text)


# ---------------------------------------------------------------------------------------------
# JSON


class JsonCodec:
    """Flink's JsonRowSerializationSchema / JsonRowDeserializationSchema."""

    def __init__(self, type_info: TypeInformation, fail_on_missing_field: bool = False,
                 ignore_parse_errors: bool = False):
        self.type_info = type_info
        self.fail_on_missing_field = fail_on_missing_field
        self.ignore_parse_errors = ignore_parse_errors

    # -- writing

    def serialize(self, value) -> bytes:
        return self.dumps(value).encode("utf-8")

    def dumps(self, value) -> str:
        return _json_text(value, self.type_info)

    # -- reading

    def deserialize(self, message) -> Any:
        text = _text(message)
        try:
            node = json.loads(text)
        except ValueError as e:
            if self.ignore_parse_errors:
                return None
            raise DeserializationError("Failed to deserialize JSON '%s': %s"
                                       % (_short(text), e)) from None
        try:
            return self._convert(node, self.type_info)
        except (ValueError, TypeError, ArithmeticError, _MissingField) as e:
            raise DeserializationError("Failed to deserialize JSON '%s': %s"
                                       % (_short(text), e)) from None

    def _convert(self, node, t):
        if node is None:
            return None
        if isinstance(t, _CompositeTypeInfo):
            if not isinstance(node, dict):
                raise TypeError("expected a JSON object for %s, got %s" % (t, _short(
                    json.dumps(node))))
            values = []
            for name, ft in zip(t.get_field_names(), t.get_field_types()):
                if name not in node and self.fail_on_missing_field:
                    raise _MissingField("Could not find field with name '%s'." % name)
                values.append(self._field(node.get(name), ft))
            if isinstance(t, TupleTypeInfo):
                return tuple(values)
            return Row._make(values, t.get_field_names())
        if isinstance(t, MapTypeInfo):
            return {self._field(k, t._key_type_info): self._field(v, t._value_type_info)
                    for k, v in node.items()}
        if isinstance(t, PrimitiveArrayTypeInfo) and t.element_type == Types.BYTE():
            return base64.b64decode(node) if isinstance(node, str) else bytes(node)
        if isinstance(t, _ElementTypeInfo):
            return [self._field(v, t.element_type) for v in node]
        return _scalar_from_json(node, t)

    def _field(self, node, t):
        if not self.ignore_parse_errors:
            return self._convert(node, t)
        try:
            return self._convert(node, t)
        except (ValueError, TypeError, ArithmeticError):
            return None


class _MissingField(Exception):
    pass


def _scalar_from_json(node, t):
    kind = _kind(t)
    if kind is BasicType.STRING or kind is BasicType.CHAR:
        if isinstance(node, str):
            return node
        if isinstance(node, bool):
            return "true" if node else "false"
        if isinstance(node, float):
            return java_double(node)
        return node if isinstance(node, str) else json.dumps(node, separators=(",", ":"))
    if kind is BasicType.BOOLEAN:
        if isinstance(node, bool):
            return node
        if isinstance(node, str):
            return node.strip().lower() == "true"
        raise TypeError("cannot convert %r to boolean" % (node,))
    if kind in _INTEGRAL:
        if isinstance(node, bool):
            raise TypeError("cannot convert %r to %s" % (node, t))
        if isinstance(node, (int, float)):
            return int(node)
        return _java_int(str(node).strip())
    if kind in (BasicType.FLOAT, BasicType.DOUBLE):
        if isinstance(node, bool):
            raise TypeError("cannot convert %r to %s" % (node, t))
        return float(node)
    if kind is BasicType.BIG_DEC:
        return decimal.Decimal(str(node))
    if kind is BasicType.INSTANT:
        dt = _parse_datetime(str(node)).replace(tzinfo=datetime.timezone.utc)
        return Instant.of_epoch_milli(int(dt.timestamp() * 1000))
    if isinstance(t, DateTypeInfo) or _local(t) == "LOCAL_DATE":
        return datetime.date.fromisoformat(str(node))
    if isinstance(t, TimeTypeInfo) or _local(t) == "LOCAL_TIME":
        return _parse_time(str(node))
    if isinstance(t, TimestampTypeInfo) or _local(t) == "LOCAL_DATE_TIME":
        return _parse_datetime(str(node))
    if isinstance(t, PickledBytesTypeInfo):
        return node
    raise TypeError("JSON cannot hold type %s" % t)


def _local(t) -> Optional[str]:
    return t._time_type.name if isinstance(t, LocalTimeTypeInfo) else None


def _json_text(value, t) -> str:
    if value is None:
        return "null"
    if isinstance(t, _CompositeTypeInfo):
        return "{%s}" % ",".join(
            "%s:%s" % (json.dumps(n, ensure_ascii=False), _json_text(v, ft))
            for n, v, ft in zip(t.get_field_names(), _fields(value, t), t.get_field_types()))
    if isinstance(t, MapTypeInfo):
        return "{%s}" % ",".join("%s:%s" % (json.dumps(str(k), ensure_ascii=False),
                                            _json_text(v, t._value_type_info))
                                 for k, v in value.items())
    if isinstance(value, (bytes, bytearray)):
        return json.dumps(base64.b64encode(bytes(value)).decode("ascii"))
    if isinstance(t, _ElementTypeInfo):
        return "[%s]" % ",".join(_json_text(v, t.element_type) for v in value)
    kind = _kind(t)
    if kind is BasicType.BOOLEAN:
        return "true" if value else "false"
    if kind in (BasicType.FLOAT, BasicType.DOUBLE):
        return java_double(float(value), single=kind is BasicType.FLOAT)
    if kind in _INTEGRAL:
        return str(int(value))
    if kind is BasicType.BIG_DEC:
        return str(value)
    if kind is BasicType.INSTANT and isinstance(value, Instant):
        dt = datetime.datetime.fromtimestamp(value.to_epoch_milli() / 1000,
                                             datetime.timezone.utc).replace(tzinfo=None)
        return json.dumps(_iso_datetime(dt) + "Z")
    if isinstance(value, datetime.datetime):
        local = _local(t) == "LOCAL_DATE_TIME"
        return json.dumps(_iso_datetime(value) + ("" if local else "Z"))
    if isinstance(value, datetime.time):
        return json.dumps(_iso_time(value) + ("" if _local(t) else "Z"))
    if isinstance(value, datetime.date):
        return json.dumps(value.isoformat())
    if isinstance(value, float):
        return java_double(value)
    if isinstance(value, (int, decimal.Decimal)) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value if isinstance(value, str) else str(value), ensure_ascii=False)


# ---------------------------------------------------------------------------------------------
# CSV


class CsvCodec:
    """Flink's CsvRowSerializationSchema / CsvRowDeserializationSchema (one record a line)."""

    def __init__(self, type_info: TypeInformation, field_delimiter: str = ",",
                 line_delimiter: str = "\n", array_element_delimiter: str = ";",
                 quote_character: Optional[str] = '"', escape_character: Optional[str] = None,
                 null_literal: Optional[str] = None, allow_comments: bool = False,
                 ignore_parse_errors: bool = False):
        if not isinstance(type_info, _CompositeTypeInfo):
            raise TypeError("CSV needs a ROW type, got %s" % type_info)
        self.type_info = type_info
        self.field_delimiter = field_delimiter
        self.line_delimiter = line_delimiter
        self.array_element_delimiter = array_element_delimiter
        self.quote_character = quote_character
        self.escape_character = escape_character
        self.null_literal = null_literal
        self.allow_comments = allow_comments
        self.ignore_parse_errors = ignore_parse_errors
        # Jackson quotes a value holding any character up to the separators (or a backslash)
        self._min_safe = max(ord(field_delimiter), ord(quote_character or "\0"),
                             *(ord(c) for c in line_delimiter)) + 1

    # -- writing

    def serialize(self, value) -> bytes:
        return self.format_row(value).encode("utf-8")

    def format_row(self, value) -> str:
        """One CSV line (with the line delimiter) for the record ``value``."""
        t = self.type_info
        return self.field_delimiter.join(
            self._format(v, ft) for v, ft in zip(_fields(value, t), t.get_field_types())
        ) + self.line_delimiter

    def _format(self, value, t) -> str:
        if value is None:
            return self.null_literal or ""
        if isinstance(t, _ElementTypeInfo) and not isinstance(value, (bytes, bytearray)):
            text = self.array_element_delimiter.join(
                self._plain(v, t.element_type) for v in value)
        else:
            text = self._plain(value, t)
        return self._quoted(text)

    def _plain(self, value, t) -> str:
        if value is None:
            return self.null_literal or ""
        kind = _kind(t)
        if kind is BasicType.BOOLEAN:
            return "true" if value else "false"
        if kind in (BasicType.FLOAT, BasicType.DOUBLE):
            return java_double(float(value), single=kind is BasicType.FLOAT)
        if isinstance(value, (bytes, bytearray)):
            return base64.b64encode(bytes(value)).decode("ascii")
        if isinstance(value, datetime.datetime):
            return _java_timestamp(value)
        if isinstance(value, datetime.time):
            return value.strftime("%H:%M:%S")
        if isinstance(value, datetime.date):
            return value.isoformat()
        if isinstance(value, Row):
            raise TypeError("CSV cannot hold a nested row: %r" % (value,))
        return str(value)

    def _quoted(self, text: str) -> str:
        q = self.quote_character
        if not q or not text:
            return text
        if any(ord(c) < self._min_safe or c == "\\" for c in text):
            return q + text.replace(q, q + q) + q
        return text

    # -- reading

    def deserialize(self, message) -> Any:
        line = _text(message)
        try:
            return self.parse_line(line)
        except DeserializationError:
            raise
        except (ValueError, TypeError, ArithmeticError, csv.Error) as e:
            raise DeserializationError("Failed to deserialize CSV row '%s': %s"
                                       % (_short(line), e)) from None

    def parse_line(self, line: str):
        """The record of one CSV line; None for a comment line or, ignoring parse errors,
        for an unparsable line."""
        line = line.rstrip("\r\n")
        if self.allow_comments and line.startswith("#"):
            return None
        tokens = self.split(line)
        t = self.type_info
        types = t.get_field_types()
        if len(tokens) != len(types) and not self.ignore_parse_errors:
            if len(tokens) < len(types):
                raise ValueError("Row length mismatch. %d fields expected but was %d."
                                 % (len(types), len(tokens)))
            raise ValueError("Too many entries: expected at most %d (value #%d %r)"
                             % (len(types), len(types), tokens[len(types)]))
        values = [self._field(tokens[i] if i < len(tokens) else None, ft)
                  for i, ft in enumerate(types)]
        return Row._make(values, t.get_field_names())

    def split(self, line: str) -> List[str]:
        reader = csv.reader([line], delimiter=self.field_delimiter,
                            quotechar=self.quote_character or '"',
                            quoting=csv.QUOTE_MINIMAL if self.quote_character else csv.QUOTE_NONE,
                            escapechar=self.escape_character, doublequote=True, strict=True)
        return next(reader, [])

    def _field(self, token: Optional[str], t):
        if token is None or (self.null_literal is not None and token == self.null_literal):
            return None
        if not self.ignore_parse_errors:
            return self._parse(token, t)
        try:
            return self._parse(token, t)
        except (ValueError, TypeError, ArithmeticError):
            return None

    def _parse(self, token: str, t):
        if isinstance(t, PrimitiveArrayTypeInfo) and t.element_type == Types.BYTE():
            return base64.b64decode(token)
        if isinstance(t, _ElementTypeInfo):
            if token == "":
                return []
            return [self._parse(v, t.element_type)
                    for v in token.split(self.array_element_delimiter)]
        kind = _kind(t)
        if kind is BasicType.STRING or kind is BasicType.CHAR:
            return token
        if kind is BasicType.BOOLEAN:
            return token.strip().lower() == "true"
        if kind in _INTEGRAL:
            return _java_int(token.strip())
        if kind in (BasicType.FLOAT, BasicType.DOUBLE):
            return float(token)
        if kind is BasicType.BIG_DEC:
            return decimal.Decimal(token.strip())
        if isinstance(t, DateTypeInfo) or _local(t) == "LOCAL_DATE":
            return datetime.date.fromisoformat(token.strip())
        if isinstance(t, TimeTypeInfo) or _local(t) == "LOCAL_TIME":
            return _parse_time(token)
        if isinstance(t, TimestampTypeInfo) or _local(t) == "LOCAL_DATE_TIME":
            return _parse_datetime(token)
        raise TypeError("CSV cannot hold type %s" % t)


# ---------------------------------------------------------------------------------------------
# Avro (binary, without header: Flink's AvroRow schemas), through fastavro


def _fastavro():
    try:
        import fastavro
    except ImportError:  # pragma: no cover - fastavro is a dependency of the avro extra

        raise UnsupportedFeatureError("Avro needs the 'fastavro' package: pip install "
                                      "fastavro (or pystream[avro])") from None
    return fastavro


class AvroCodec:
    """Flink's AvroRowSerializationSchema / AvroRowDeserializationSchema for a schema string."""

    def __init__(self, schema_string: str):
        self.schema_string = schema_string
        self.schema = json.loads(schema_string)
        self.type_info = avro_type_info(self.schema)
        self._parsed = None

    @property
    def parsed(self):
        if self._parsed is None:
            self._parsed = _fastavro().parse_schema(self.schema)
        return self._parsed

    def serialize(self, value) -> bytes:
        out = io.BytesIO()
        _fastavro().schemaless_writer(out, self.parsed, _to_avro(value, self.type_info))
        return out.getvalue()

    def deserialize(self, message) -> Any:
        try:
            datum = _fastavro().schemaless_reader(io.BytesIO(bytes(message)), self.parsed)
        except Exception as e:  # noqa: BLE001 - any decoding failure is a bad record
            raise DeserializationError("Failed to deserialize Avro record %s: %s"
                                       % (_short(repr(bytes(message))), e)) from None
        return _from_avro(datum, self.type_info)


def _to_avro(value, t):
    if value is None:
        return None
    if isinstance(t, _CompositeTypeInfo):
        return {n: _to_avro(v, ft) for n, v, ft in
                zip(t.get_field_names(), _fields(value, t), t.get_field_types())}
    if isinstance(t, MapTypeInfo):
        return {k: _to_avro(v, t._value_type_info) for k, v in value.items()}
    if isinstance(t, _ElementTypeInfo) and not isinstance(value, (bytes, bytearray)):
        return [_to_avro(v, t.element_type) for v in value]
    return value


def _from_avro(datum, t):
    if datum is None:
        return None
    if isinstance(t, _CompositeTypeInfo):
        return Row._make([_from_avro(datum.get(n), ft) for n, ft in
                          zip(t.get_field_names(), t.get_field_types())], t.get_field_names())
    if isinstance(t, MapTypeInfo):
        return {k: _from_avro(v, t._value_type_info) for k, v in datum.items()}
    if isinstance(t, _ElementTypeInfo) and not isinstance(datum, (bytes, bytearray)):
        return [_from_avro(v, t.element_type) for v in datum]
    if isinstance(datum, datetime.datetime) and datum.tzinfo is not None:
        return datum.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    return datum


def avro_type_info(schema) -> TypeInformation:
    """The DataStream type of the records of an Avro schema (as Flink's AvroSchemaConverter)."""
    if isinstance(schema, list):
        branches = [s for s in schema if s != "null"]
        if len(branches) != 1:
            raise ValueError("unions other than [null, T] are not supported: %r" % (schema,))
        return avro_type_info(branches[0])
    if isinstance(schema, str):
        return _AVRO_PRIMITIVES[schema]()
    logical = schema.get("logicalType")
    if logical == "date":
        return Types.SQL_DATE()
    if logical in ("timestamp-millis", "timestamp-micros"):
        return Types.SQL_TIMESTAMP()
    if logical in ("time-millis", "time-micros"):
        return Types.SQL_TIME()
    if logical == "decimal":
        return Types.BIG_DEC()
    kind = schema["type"]
    if kind == "record":
        return Types.ROW_NAMED([f["name"] for f in schema["fields"]],
                               [avro_type_info(f["type"]) for f in schema["fields"]])
    if kind == "array":
        return Types.OBJECT_ARRAY(avro_type_info(schema["items"]))
    if kind == "map":
        return Types.MAP(Types.STRING(), avro_type_info(schema["values"]))
    if kind == "enum":
        return Types.STRING()
    if kind == "fixed":
        return Types.PRIMITIVE_ARRAY(Types.BYTE())
    return avro_type_info(kind)


_AVRO_PRIMITIVES: dict = {
    "string": Types.STRING, "int": Types.INT, "long": Types.LONG, "float": Types.FLOAT,
    "double": Types.DOUBLE, "boolean": Types.BOOLEAN, "null": Types.STRING,
    "bytes": lambda: Types.PRIMITIVE_ARRAY(Types.BYTE()),
}


