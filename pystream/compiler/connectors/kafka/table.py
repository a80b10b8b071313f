"""Flink SQL's ``kafka`` connector over the DataStream Kafka connector's reader and writer.

Records are read by what ``KafkaSource`` reads with (Spark's ``kafka`` format when its jar is
on the classpath, else pystream's Python data source) and written by ``KafkaSink``'s write
stage (with its delivery guarantees). Formats are Spark expressions: ``from_json`` /
``from_csv`` to read a value, ``to_json`` / ``to_csv`` to write one; no Python per record.
"""
from __future__ import annotations

import dataclasses
import uuid
from typing import Dict, List, Optional, Tuple

from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F

from pystream.common import data_types as T
from pystream.common.serialization import SimpleStringSchema
from pystream.common.typeinfo import Types
from pystream.compiler.bad_records import (
    CORRUPT,
    PARSER_OPTIONS,
    checked,
    ignores_errors,
    kafka_location,
)
from pystream.compiler.changelog_formats import CHANGELOG_FORMATS, changes, encoded
from pystream.compiler.connectors.kafka.avro import avro_decoded, avro_encoded
from pystream.compiler.source_helpers import read_python_source
from pystream.compiler.table_connectors import required_option
from pystream.compiler.translate import Compiler
from pystream.core.connectors.base import DeliveryGuarantee
from pystream.core.connectors.kafka import (
    KafkaOffsetResetStrategy,
    KafkaOffsetsInitializer,
    KafkaRecordSerializationSchema,
    KafkaSink,
    KafkaSource,
    KafkaTopicPartition,
)
from pystream.plan import JobSettings, plan
from pystream.relational import operations as ops
from pystream.relational.schema import Field, Schema
from pystream.runtime.changelog import OP_COLUMN, UpsertNormalize
from pystream.runtime.kafka import KafkaRead, KafkaWriteStage, write_batch
from pystream.runtime.layout import TS
from pystream.util.exceptions import ValidationException

__all__ = ["read_kafka", "kafka_writer", "kafka_bounded"]

TIMESTAMP_FORMAT = "yyyy-MM-dd HH:mm:ss[.SSSSSSSSS]"
METADATA = ("timestamp", "partition", "offset", "topic", "headers")
WRITTEN_METADATA = ("headers", "timestamp")  # what a sink writes of them
WRITTEN_TIMESTAMPS = {"timestampFormat": "yyyy-MM-dd HH:mm:ss.SSS",  # as the filesystem sink
                      "timestampNTZFormat": "yyyy-MM-dd HH:mm:ss.SSS"}


def _metadata_columns() -> Dict[str, Column]:
    """The column of each metadata key, in the records ``_raw_records`` reads."""
    return {"timestamp": F.col(TS), "partition": F.col("partition"),
            "offset": F.col("offset"), "topic": F.col("topic"), "headers": F.col("headers")}


def kafka_bounded(options: Dict[str, str]) -> bool:
    return options.get("scan.bounded.mode", "unbounded") != "unbounded"


def _offsets(options: Dict[str, str], mode: str, prefix: str, table: str):
    if mode == "earliest-offset":
        return KafkaOffsetsInitializer.earliest()
    if mode == "latest-offset":
        return KafkaOffsetsInitializer.latest()
    if mode == "group-offsets":
        reset = options.get("properties.auto.offset.reset", "none").upper()
        return KafkaOffsetsInitializer.committed_offsets(
            KafkaOffsetResetStrategy[reset if reset != "SMALLEST" else "EARLIEST"])
    if mode == "timestamp":
        return KafkaOffsetsInitializer.timestamp(
            int(required_option(options, prefix + ".timestamp-millis", table)))
    if mode == "specific-offsets":  # 'partition:0,offset:42;partition:1,offset:300'
        topic = required_option(options, "topic", table)
        offsets = {}
        for part in required_option(options, prefix + ".specific-offsets", table).split(";"):
            values = dict(kv.split(":", 1) for kv in part.split(","))
            offsets[KafkaTopicPartition(topic, int(values["partition"]))] = \
                int(values["offset"])
        return KafkaOffsetsInitializer.offsets(offsets)
    raise ValidationException("Table '%s': unknown %s.mode '%s'." % (table, prefix, mode))


def _source(node: ops.ConnectorScan):
    options, table = node.options, node.name
    builder = KafkaSource.builder().set_bootstrap_servers(
        required_option(options, "properties.bootstrap.servers", table))
    if "topic-pattern" in options:
        builder.set_topic_pattern(options["topic-pattern"])
    else:
        builder.set_topics(*required_option(options, "topic", table).split(";"))
    for key, value in options.items():
        if key.startswith("properties.") and key != "properties.bootstrap.servers":
            builder.set_property(key[len("properties."):], value)
    builder.set_starting_offsets(_offsets(
        options, options.get("scan.startup.mode", "group-offsets"), "scan.startup", table))
    if kafka_bounded(options):
        builder.set_bounded(_offsets(options, options["scan.bounded.mode"], "scan.bounded",
                                     table))
    builder.set_value_only_deserializer(SimpleStringSchema())  # records stay bytes here
    return builder.build()


def _raw_records(node: ops.ConnectorScan, spark, streaming: bool, compiler) -> DataFrame:
    """key, value, topic, partition, offset and the record timestamp (``__ts``)."""
    from pystream.compiler.connectors.kafka import (
        _spark_kafka_df,
        has_spark_kafka,
        spark_kafka_options,
    )

    source = _source(node)
    if compiler is None:  # a BATCH read outside a DataStream job
        compiler = Compiler(spark, plan((), JobSettings(batch=not streaming)))
    options = spark_kafka_options(source, compiler.settings.batch)
    if options is not None and has_spark_kafka(spark):
        return _spark_kafka_df(compiler, options)
    return read_python_source(compiler, KafkaRead(source, "Source: %s" % node.name))


def _struct_ddl(fields: List[Field]) -> str:
    return ", ".join("`%s` %s" % (f.name, f.data_type.spark_type().simpleString())
                     for f in fields)


def _decoded(data: Column, fields: List[Field], fmt: str, options: Dict[str, str],
             prefix: str, table: str) -> Tuple[List[Column], Optional[Column]]:
    """The ``fields`` of each record's ``data`` (bytes) in format ``fmt``, and the record's
    text where it did not parse (``bad_records.CORRUPT``; None for formats that cannot fail)."""
    text = data.cast("string")
    schema = _struct_ddl(fields) + ", `%s` STRING" % CORRUPT
    parser = {**PARSER_OPTIONS, "timestampFormat": TIMESTAMP_FORMAT}
    if fmt == "json":
        parsed = F.from_json(text, schema, parser)
    elif fmt == "csv":
        parsed = F.from_csv(text, schema, {
            **parser, "sep": options.get(prefix + "csv.field-delimiter", ",")})
    elif fmt == "avro":
        parsed = avro_decoded(data, fields, CORRUPT)
    elif fmt == "raw":
        if len(fields) != 1:
            raise ValidationException("Table '%s': the raw format reads one column, not %d."
                                      % (table, len(fields)))
        f = fields[0]
        binary = isinstance(f.data_type, (T.BinaryType, T.VarBinaryType))
        return [(data if binary else text).alias(f.name)], None
    else:
        raise ValidationException("Table '%s': the kafka connector here reads the formats "
                                  "json, csv, avro and raw, not '%s'." % (table, fmt))
    return [parsed.getField(f.name).alias(f.name) for f in fields], parsed.getField(CORRUPT)


def _formats(options: Dict[str, str], table: str,
             primary_key: Tuple[str, ...] = ()) -> Tuple[str, Optional[str], List[str]]:
    """(value format, key format, key fields); an ``upsert-kafka`` table's key is its
    primary key."""
    upsert = options.get("connector") == "upsert-kafka"
    value_format = options.get("value.format") or (None if upsert else options.get("format"))
    if not value_format:
        raise ValidationException("Table '%s': the %s connector needs %s." % (
            table, options.get("connector"), "'value.format'" if upsert else
            "'format' or 'value.format'"))
    key_fields = [k for k in options.get("key.fields", "").split(";") if k]
    if upsert:
        if not primary_key:
            raise ValidationException(
                "'upsert-kafka' tables require to define a PRIMARY KEY constraint. The "
                "PRIMARY KEY specifies which columns should be read from or write to the Kafka "
                "message key. (table '%s')" % table)
        key_fields = list(primary_key)
    key_format = options.get("key.format")
    if key_fields and not key_format:
        raise ValidationException("Table '%s': 'key.fields' needs 'key.format'." % table)
    return value_format, key_format, key_fields


def read_kafka(node: ops.ConnectorScan, spark, streaming: bool, compiler=None) -> DataFrame:

    options, table = node.options, node.name
    value_format, key_format, key_names = _formats(options, table, node.primary_key)
    if options.get("connector") == "upsert-kafka":
        options = {**options, "scan.startup.mode": "earliest-offset"}  # the whole table
        node = dataclasses.replace(node, options=options)
    df = _raw_records(node, spark, streaming, compiler)
    metadata = dict(node.metadata)
    if value_format in CHANGELOG_FORMATS:
        return _changelog(df, node, value_format, metadata, streaming)
    data = [f for f in node.physical if f.name not in metadata]
    by_name = {f.name: f for f in data}
    keys = [by_name[k] for k in key_names]
    values = data if options.get("value.fields-include", "ALL") == "ALL" else \
        [f for f in data if f.name not in key_names]
    columns, corrupt = {}, []
    if keys:
        decoded, bad = _decoded(F.col("key"), keys, key_format, options, "key.", table)
        columns.update(zip(key_names, decoded))
        corrupt.append((bad, key_format, "key."))
    prefix = "value." if "value.format" in options else ""
    decoded, bad = _decoded(F.col("value"), values, value_format, options, prefix, table)
    corrupt.append((bad, value_format, prefix))
    for f, column in zip(values, decoded):  # key fields come from the key (a deletion has
        columns.setdefault(f.name, column)  # no value)
    sources = _metadata_columns()
    for name, key in metadata.items():
        if key not in sources:
            raise ValidationException("Table '%s': the kafka metadata key '%s' (there: %s)."
                                      % (table, key, ", ".join(METADATA)))
        columns[name] = sources[key]
    typed = [columns[f.name].cast(f.data_type.spark_type()).alias(f.name)
             for f in node.physical]
    df = df.select(*typed, *[F.col(c) for c in ("value", "topic", "partition", "offset")],
                   *[c.alias("__bad%d" % i) for i, (c, _, _) in enumerate(corrupt)
                     if c is not None])
    for i, (c, fmt, prefix) in enumerate(corrupt):
        if c is not None:
            df = checked(df.withColumnRenamed("__bad%d" % i, CORRUPT), table, fmt,
                         [f.name for f in node.physical], kafka_location(),
                         ignores_errors(options, fmt, prefix))
    if options.get("connector") != "upsert-kafka":
        return df.select(*[F.col("`%s`" % n) for n in node.physical.names])
    rows = df.select(*[F.col("`%s`" % n) for n in node.physical.names],
                     F.col("value").isNull().alias(TOMBSTONE), F.col("partition"),
                     F.col("offset"))
    if streaming:
        return _normalized(rows, node, key_names, compiler)
    return _latest(rows, node, key_names)


TOMBSTONE = "__tombstone"


def _changelog(df: DataFrame, node: ops.ConnectorScan, fmt: str, metadata: Dict[str, str],
               streaming: bool) -> DataFrame:
    """The changes the records of a changelog-format topic hold (``__op``; ``__sub`` over a
    bounded topic)."""

    prefix = "value." if "value.format" in node.options else ""
    data = [f for f in node.physical if f.name not in metadata]
    df = changes(df, F.col("value").cast("string"), data, fmt, node.options, node.name,
                 kafka_location(), prefix)
    sources = _metadata_columns()
    columns = [(sources[metadata[f.name]] if f.name in metadata else F.col("`%s`" % f.name))
               .cast(f.data_type.spark_type()).alias(f.name) for f in node.physical]
    return df.select(*columns, F.col("__op"), *([] if streaming else [F.col("__sub")]))


def _latest(rows: DataFrame, node: ops.ConnectorScan, keys: List[str]) -> DataFrame:
    """A bounded upsert table: each key's latest value, without the deleted keys."""
    from pyspark.sql import Window

    latest = Window.partitionBy(*[F.col("`%s`" % k) for k in keys]).orderBy(
        F.col("partition").desc(), F.col("offset").desc())
    return rows.withColumn("__n", F.row_number().over(latest)) \
        .where((F.col("__n") == 1) & ~F.col(TOMBSTONE)) \
        .select(*[F.col("`%s`" % n) for n in node.physical.names])


def _normalized(rows: DataFrame, node: ops.ConnectorScan, keys: List[str],
                compiler) -> DataFrame:
    """An unbounded upsert table as Flink's changelog (``__op``), per key in Spark's state."""
    from pyspark.sql import types as st


    names = list(node.physical.names)
    processor = UpsertNormalize(names, TOMBSTONE)
    if compiler is not None:
        processor = compiler.ship(processor)
    output = st.StructType([st.StructField(f.name, f.data_type.spark_type(), True)
                            for f in node.physical] +
                           [st.StructField(OP_COLUMN, st.ByteType(), False)])
    df = rows.select(*[F.col("`%s`" % n) for n in names], F.col(TOMBSTONE)) \
        .groupBy(*[F.col("`%s`" % k) for k in keys]) \
        .transformWithState(processor, output, "Append", "None")
    return df.select(*[F.col("`%s`" % n) for n in names],
                     F.col(OP_COLUMN).cast("int").alias(OP_COLUMN))


# -- writing ---------------------------------------------------------------------------------

def _encoded(fields: List[Field], fmt: str, options: Dict[str, str], prefix: str,
             table: str) -> Column:
    columns = [F.col("`%s`" % f.name) for f in fields]
    if fmt == "json":
        return F.to_json(F.struct(*columns), WRITTEN_TIMESTAMPS)
    if fmt == "csv":
        return F.to_csv(F.struct(*columns), {
            "sep": options.get(prefix + "csv.field-delimiter", ","),
            **WRITTEN_TIMESTAMPS})
    if fmt == "avro":
        return avro_encoded(columns, fields)
    if fmt == "raw" and len(fields) == 1:
        return columns[0].cast("string")
    raise ValidationException("Table '%s': the kafka connector here writes the formats json, "
                              "csv, avro and raw (one column), not '%s'." % (table, fmt))


class _Field:
    """A serialization schema of one field of a (key, value) row, already text or bytes."""

    def __init__(self, index: int):
        self.index = index

    def serialize(self, row) -> Optional[bytes]:
        value = row[self.index]
        return value.encode("utf-8") if isinstance(value, str) else value


def _sink(options: Dict[str, str], table: str, keyed: bool):
    record = KafkaRecordSerializationSchema.builder().set_topic(
        required_option(options, "topic", table)).set_value_serialization_schema(_Field(1))
    if keyed:
        record.set_key_serialization_schema(_Field(0))
    builder = KafkaSink.builder().set_bootstrap_servers(
        required_option(options, "properties.bootstrap.servers", table)) \
        .set_record_serializer(record.build())
    guarantee = options.get("sink.delivery-guarantee", "at-least-once")
    builder.set_delivery_guarantee(DeliveryGuarantee[guarantee.upper().replace("-", "_")])
    if "sink.transactional-id-prefix" in options:
        builder.set_transactional_id_prefix(options["sink.transactional-id-prefix"])
    for key, value in options.items():
        if key.startswith("properties.") and key != "properties.bootstrap.servers":
            builder.set_property(key[len("properties."):], value)
    return builder.build()


def kafka_writer(options: Dict[str, str], schema: Schema, table: str,
                 primary_key: Tuple[str, ...] = (), metadata: Optional[Dict[str, str]] = None):
    """The function sending a batch of a query's rows to the kafka (or upsert-kafka) table
    ``table``: ``send(df, batch_id, query)``. Into ``upsert-kafka`` a changelog (``__op``)
    goes as upserts: ``-U`` is skipped, ``-D`` writes the key with no value. ``metadata``
    (column -> key) are columns written as the record's ``headers`` or ``timestamp``."""
    metadata = metadata or {}
    for name, key in metadata.items():
        if key not in WRITTEN_METADATA:
            raise ValidationException(
                "Invalid metadata key '%s' in column '%s' of table "
                "'default_catalog.default_database.%s'. The kafka sink supports the following "
                "metadata keys for writing:\n%s" % (key, name, table, "\n".join(WRITTEN_METADATA)))
    value_format, key_format, key_names = _formats(options, table, primary_key)
    fields = [f for f in schema if f.name not in metadata]
    by_name = {f.name: f for f in fields}
    values = fields if options.get("value.fields-include", "ALL") == "ALL" else \
        [f for f in fields if f.name not in key_names]
    prefix = "value." if "value.format" in options else ""
    key = _encoded([by_name[k] for k in key_names], key_format, options, "key.", table) \
        if key_names else F.lit(None).cast("string")
    changelog = value_format in CHANGELOG_FORMATS  # every change a record, as Flink writes
    value = None if changelog else _encoded(values, value_format, options, prefix, table)
    def wire(fmt: Optional[str]):  # what a key or value is on its way to Kafka
        return Types.PRIMITIVE_ARRAY(Types.BYTE()) if fmt == "avro" else Types.STRING()

    by_key = {key: name for name, key in metadata.items()}
    record = [F.col("`%s`" % by_key["headers"]) if "headers" in by_key
              else F.lit(None).cast("map<string,binary>"),
              F.unix_millis(F.col("`%s`" % by_key["timestamp"]).cast("timestamp"))
              if "timestamp" in by_key else F.lit(None).cast("bigint")]
    record = [c.alias("f%d" % i) for i, c in enumerate(record, 2)] if metadata else []
    stage = KafkaWriteStage(_sink(options, table, bool(key_names)), Types.ROW(
        [wire(key_format), wire(value_format)] + ([
            Types.MAP(Types.STRING(), Types.PRIMITIVE_ARRAY(Types.BYTE())), Types.LONG()]
            if metadata else [])), "Sink: %s" % table, with_metadata=bool(metadata))

    def encode(df: DataFrame) -> DataFrame:
        if changelog:
            op = F.col("__op") if "__op" in df.columns else F.lit(0)
            return df.select(key.alias("f0"), encoded(values, value_format, op).alias("f1"),
                             *record)
        if "__op" not in df.columns:
            return df.select(key.alias("f0"), value.alias("f1"), *record)
        changes = df.where(F.col("__op") != 1)  # -U: the +U after it is the new value
        return changes.select(key.alias("f0"),
                              F.when(F.col("__op") != 3, value).alias("f1"), *record)

    def send(df: DataFrame, batch_id: Optional[int] = None, query: str = "") -> None:
        stage_now = dataclasses.replace(stage, batch_id=batch_id or 0,
                                        query=query or uuid.uuid4().hex[:12])
        write_batch(encode(df), stage_now)

    return send
