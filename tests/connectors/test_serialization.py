"""Serialization schemas: the bytes Flink's formats write and the records they read
(expected values checked on PyFlink 2.3)."""
from __future__ import annotations

import datetime
import decimal

import pytest

from pystream.common import Row, Types
from pystream.common.codecs import DeserializationError
from pystream.common.serialization import (
    AvroRowDeserializationSchema,
    AvroRowSerializationSchema,
    CsvRowDeserializationSchema,
    CsvRowSerializationSchema,
    JsonRowDeserializationSchema,
    JsonRowSerializationSchema,
    SimpleStringSchema,
)

ROW = Types.ROW_NAMED(["id", "name", "score", "ok"],
                      [Types.INT(), Types.STRING(), Types.DOUBLE(), Types.BOOLEAN()])


def R(*values) -> Row:
    """A row of ROW's field names."""
    return Row(**dict(zip(ROW.get_field_names(), values)))


ROWS = [Row(1, "a,b", 1.5, True), Row(None, 'q"x', 1e20, False), Row(3, "", 0.1, None),
        Row(4, " lead", 100.0, True), Row(5, "line\nbreak", -0.0, True),
        Row(6, "#hash", 1.0e-5, True), Row(7, "ünï", 12345678.9, True)]


def test_json_serialization_matches_flink():
    schema = JsonRowSerializationSchema.builder().with_type_info(ROW).build()
    assert [schema.serialize(r).decode() for r in ROWS] == [
        '{"id":1,"name":"a,b","score":1.5,"ok":true}',
        '{"id":null,"name":"q\\"x","score":1.0E20,"ok":false}',
        '{"id":3,"name":"","score":0.1,"ok":null}',
        '{"id":4,"name":" lead","score":100.0,"ok":true}',
        '{"id":5,"name":"line\\nbreak","score":-0.0,"ok":true}',
        '{"id":6,"name":"#hash","score":1.0E-5,"ok":true}',
        '{"id":7,"name":"ünï","score":1.23456789E7,"ok":true}']


def test_csv_serialization_matches_flink():
    schema = CsvRowSerializationSchema.Builder(ROW).build()
    assert [schema.serialize(r).decode() for r in ROWS] == [
        '1,"a,b",1.5,true\n', ',"q""x",1.0E20,false\n', "3,,0.1,\n", '4," lead",100.0,true\n',
        '5,"line\nbreak",-0.0,true\n', '6,"#hash",1.0E-5,true\n', "7,ünï,1.23456789E7,true\n"]


def test_csv_serialization_of_arrays_dates_and_decimals_matches_flink():
    row_type = Types.ROW_NAMED(["a", "l", "d", "ts", "dec"], [
        Types.INT(), Types.BASIC_ARRAY(Types.STRING()), Types.SQL_DATE(), Types.SQL_TIMESTAMP(),
        Types.BIG_DEC()])
    row = Row(5, ["p", "q,r"], datetime.date(2024, 1, 2),
              datetime.datetime(2024, 1, 2, 3, 4, 5, 123000), decimal.Decimal("12.50"))
    assert CsvRowSerializationSchema.Builder(row_type).build().serialize(row) == \
        b'5,"p;q,r",2024-01-02,"2024-01-02 03:04:05.123",12.50\n'


def test_json_deserialization_matches_flink():
    schema = JsonRowDeserializationSchema.builder().type_info(ROW).build()
    texts = ['{"id":1,"name":"x","score":2,"ok":true}',
             '{"id":"2","name":5,"score":"2.5","ok":"true"}', '{"name":"y"}', '{"id":1.7}']
    assert [schema.deserialize(t.encode()) for t in texts] == [
        R(1, "x", 2.0, True), R(2, "5", 2.5, True), R(None, "y", None, None),
        R(1, None, None, None)]


def test_json_ignore_parse_errors_matches_flink():
    schema = JsonRowDeserializationSchema.builder().type_info(ROW).ignore_parse_errors().build()
    assert [schema.deserialize(t) for t in (b"not json", b'{"id":"abc"}')] == [
        None, R(None, None, None, None)]


@pytest.mark.parametrize("text, error", [
    (b"not json", "Failed to deserialize JSON 'not json'"),
    (b'{"id":"abc"}', 'For input string: "abc"'),
])
def test_malformed_json_names_the_record(text, error):
    schema = JsonRowDeserializationSchema.builder().type_info(ROW).build()
    with pytest.raises(DeserializationError, match=error):
        schema.deserialize(text)


def test_json_fail_on_missing_field():
    schema = JsonRowDeserializationSchema.builder().type_info(ROW).fail_on_missing_field().build()
    with pytest.raises(DeserializationError, match="Could not find field with name 'id'"):
        schema.deserialize(b'{"name":"y"}')


def test_csv_deserialization_matches_flink():
    schema = CsvRowDeserializationSchema.Builder(ROW).build()
    texts = ["1,x,2.5,true", '1,"a,b",2,false', "1,x,1,yes", "1,x,1,TRUE\n"]
    assert [schema.deserialize(t.encode()) for t in texts] == [
        R(1, "x", 2.5, True), R(1, "a,b", 2.0, False), R(1, "x", 1.0, False),
        R(1, "x", 1.0, True)]


def test_csv_ignore_parse_errors_matches_flink():
    schema = CsvRowDeserializationSchema.Builder(ROW).set_ignore_parse_errors(True).build()
    assert [schema.deserialize(t) for t in (b"abc,x,1,true", b"1,x")] == [
        R(None, "x", 1.0, True), R(1, "x", None, None)]


@pytest.mark.parametrize("text, error", [
    (b"1,x", "Row length mismatch. 4 fields expected but was 2."),
    (b"1,x,2.5,true,extra", "Too many entries: expected at most 4"),
    (b"abc,x,1,true", "Failed to deserialize CSV row 'abc,x,1,true'"),
])
def test_malformed_csv_names_the_record(text, error):
    with pytest.raises(DeserializationError, match=error):
        CsvRowDeserializationSchema.Builder(ROW).build().deserialize(text)


def test_avro_round_trip():
    schema = ('{"type": "record", "name": "User", "fields": [{"name": "name", "type": "string"},'
              ' {"name": "age", "type": ["null", "int"]}]}')
    writer = AvroRowSerializationSchema(avro_schema_string=schema)
    reader = AvroRowDeserializationSchema(avro_schema_string=schema)
    rows = [Row(name="ann", age=3), Row(name="bob", age=None)]
    assert [reader.deserialize(writer.serialize(r)) for r in rows] == rows


def test_simple_string_schema():
    schema = SimpleStringSchema()
    assert schema.deserialize(schema.serialize("héllo")) == "héllo"
