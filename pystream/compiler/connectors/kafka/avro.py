"""Flink's ``avro`` format for tables (the ``kafka`` connector's values and keys): the Avro
schema Flink derives from a row type, and Spark columns that read and write its records.

Flink writes each record as Avro binary without a header, in the schema its
``AvroSchemaConverter`` derives from the row type: a record of the fields in order, a
nullable type a union ``["null", T]``, TINYINT/SMALLINT/INT ``int``, BIGINT ``long``, strings
``string``, binary ``bytes``, DECIMAL ``bytes`` with the ``decimal`` logical type, DATE ``int``
``date``, TIME ``int`` ``time-millis``, TIMESTAMP ``long`` ``timestamp-millis`` (``-micros``
above precision 3), ARRAY ``array``, MAP ``map``, ROW a nested record. Spark reads Avro only
with its ``spark-avro`` package, which is not on this classpath: the records are read and
written by Python functions (``runtime.avro_records``, fastavro), the only per-record Python
of a kafka table that the user did not write.
"""
from __future__ import annotations

import json
from typing import List

from pyspark.sql import Column
from pyspark.sql import functions as F
from pyspark.sql import types as st

from pystream.common import data_types as T
from pystream.relational.schema import Field
from pystream.runtime.avro_records import AvroDecoder, AvroEncoder
from pystream.util.exceptions import ValidationException

__all__ = ["avro_schema", "avro_decoded", "avro_encoded"]


def avro_schema(fields: List[Field], name: str = "record") -> dict:
    """The Avro record schema Flink derives for ``fields`` (see the module docstring)."""
    return {"type": "record", "name": name,
            "fields": [{"name": f.name, "type": _avro_type(f.data_type, name + "_" + f.name),
                        **({"default": None} if f.data_type.is_nullable else {})}
                       for f in fields]}


def _avro_type(t: T.DataType, name: str):
    plain = _plain_avro_type(t, name)
    return ["null", plain] if t.is_nullable else plain


def _plain_avro_type(t: T.DataType, name: str):
    if isinstance(t, T.BooleanType):
        return "boolean"
    if isinstance(t, (T.TinyIntType, T.SmallIntType, T.IntType)):
        return "int"
    if isinstance(t, T.BigIntType):
        return "long"
    if isinstance(t, T.FloatType):
        return "float"
    if isinstance(t, T.DoubleType):
        return "double"
    if isinstance(t, (T.CharType, T.VarCharType)):
        return "string"
    if isinstance(t, (T.BinaryType, T.VarBinaryType)):
        return "bytes"
    if isinstance(t, T.DecimalType):
        return {"type": "bytes", "logicalType": "decimal", "precision": t.precision,
                "scale": t.scale}
    if isinstance(t, T.DateType):
        return {"type": "int", "logicalType": "date"}
    if isinstance(t, T.TimeType):
        return {"type": "int", "logicalType": "time-millis"}
    if isinstance(t, (T.TimestampType, T.LocalZonedTimestampType)):
        unit = "millis" if t.precision <= 3 else "micros"
        return {"type": "long", "logicalType": "timestamp-" + unit}
    if isinstance(t, T.ArrayType):
        return {"type": "array", "items": _avro_type(t.element_type, name)}
    if isinstance(t, T.MapType):
        return {"type": "map", "values": _avro_type(t.value_type, name)}
    if isinstance(t, T.RowType):
        return avro_schema([Field(f.name, f.data_type) for f in t.fields], name)
    raise ValidationException("The avro format has no Avro type for %s." % t.summary_string())


def avro_decoded(data: Column, fields: List[Field], corrupt: str) -> Column:
    """A struct of ``fields`` read from each record's Avro bytes, with ``corrupt`` the record
    (as text) where it does not decode."""
    schema = st.StructType([st.StructField(f.name, f.data_type.spark_type(), True)
                            for f in fields] + [st.StructField(corrupt, st.StringType(), True)])
    decode = AvroDecoder(json.dumps(avro_schema(fields)), [f.name for f in fields])
    return F.udf(decode, schema)(data)


def avro_encoded(columns: List[Column], fields: List[Field]) -> Column:
    """Each row's ``fields`` (``columns``) as Avro bytes in Flink's schema for them."""
    encode = AvroEncoder(json.dumps(avro_schema(fields)), [f.name for f in fields])
    return F.udf(encode, st.BinaryType())(F.struct(*columns))
