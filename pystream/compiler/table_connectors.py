"""SQL connectors by Flink's names and options, as Spark reads and writes.

One explicit table each way: ``SOURCES`` (connector name -> reader of a ConnectorScan) and
``SINKS`` (connector name -> writer of a finished DataFrame), with ``KEYED_SINKS`` for the
tables written with keys (Kafka and JDBC, whose code lives in their packages under
``compiler.connectors``). Generated data is computed by
Spark expressions over ``spark.range`` (no Python per row).
"""
from __future__ import annotations

import math
import sys
from typing import Callable, Dict, List

from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F

from pystream.common import data_types as T
from pystream.compiler import flink_csv
from pystream.compiler.bad_records import (
    PARSER_OPTIONS,
    checked,
    file_location,
    ignores_errors,
    with_corrupt_column,
)
from pystream.compiler.changelog_formats import CHANGELOG_FORMATS, INSERT, changes, encoded
from pystream.compiler.connector_options import check_options
from pystream.relational import operations as ops
from pystream.relational.schema import Schema
from pystream.util.exceptions import ValidationException

__all__ = ["read", "is_bounded", "SOURCES", "SINKS", "KEYED_SINKS", "datagen_rows"]

SEQ, OP = "__seq", "__op"


# -- datagen ---------------------------------------------------------------------------------


def required_option(options: Dict[str, str], key: str, table: str) -> str:
    """The value of the option ``key`` of ``table``, which its connector cannot do without."""
    value = options.get(key)
    if not value:
        raise ValidationException("Table '%s': the %s connector needs '%s'."
                                  % (table, options.get("connector"), key))
    return value

def _field_option(options: Dict[str, str], name: str, key: str, default=None):
    return options.get("fields.%s.%s" % (name, key), default)


def datagen_rows(options: Dict[str, str], schema: Schema):
    """How many rows a datagen table has (None: endless)."""
    counts = []
    if "number-of-rows" in options:
        counts.append(int(options["number-of-rows"]))
    for f in schema:
        if _field_option(options, f.name, "kind") == "sequence":
            start = int(_field_option(options, f.name, "start", 0))
            end = int(_field_option(options, f.name, "end", sys.maxsize))
            counts.append(end - start + 1)
    return min(counts) if counts else None


def _random(options: Dict[str, str], name: str, t: T.DataType, seq: Column) -> Column:
    lo, hi = _field_option(options, name, "min"), _field_option(options, name, "max")
    r = F.rand()
    if isinstance(t, (T.TinyIntType, T.SmallIntType, T.IntType, T.BigIntType)):
        bits = {T.TinyIntType: 7, T.SmallIntType: 15, T.IntType: 31, T.BigIntType: 63}[type(t)]
        if lo is None and hi is None and bits == 63:  # the whole BIGINT range: a 64-bit hash
            return F.xxhash64(seq, F.rand())
        lo = int(lo) if lo is not None else -(2 ** bits)
        hi = int(hi) if hi is not None else 2 ** bits - 1
        # in DOUBLE, then clamped: an exact bound must not overflow the integral type
        value = F.floor(F.lit(float(lo)) + r * F.lit(float(hi) - lo + 1))
        return F.least(F.greatest(value, F.lit(float(lo))), F.lit(float(hi))).cast(
            t.spark_type())
    if isinstance(t, (T.FloatType, T.DoubleType, T.DecimalType)):
        lo = float(lo) if lo is not None else 0.0
        hi = float(hi) if hi is not None else 1.0
        return (F.lit(lo) + r * F.lit(hi - lo)).cast(t.spark_type())
    if isinstance(t, T.BooleanType):
        return r < 0.5
    if isinstance(t, (T.CharType, T.VarCharType)):
        length = int(_field_option(options, name, "length", 100))
        pieces = [F.sha2(F.concat(F.rand().cast("string"), seq.cast("string")), 256)
                  for _ in range(max(1, math.ceil(length / 64)))]
        return F.substring(F.concat(*pieces), 1, length)
    if isinstance(t, (T.TimestampType, T.LocalZonedTimestampType)):
        past = int(_field_option(options, name, "max-past", 0))
        now = F.current_timestamp()
        return (now - F.make_dt_interval(secs=F.floor(r * past) / 1000)).cast(t.spark_type())
    if isinstance(t, T.DateType):
        return F.date_sub(F.current_date(), F.floor(r * 30).cast("int"))
    if isinstance(t, (T.ArrayType, T.MapType)):  # 'length' values (keys), 3 by default
        length = int(_field_option(options, name, "length", 3))
        if isinstance(t, T.ArrayType):
            return F.array(*[_random_or_null(options, name + ".element", t.element_type, seq)
                             for _ in range(length)])
        return F.map_from_arrays(
            F.array(*[_random(options, name + ".key", t.key_type, seq) for _ in range(length)]),
            F.array(*[_random_or_null(options, name + ".value", t.value_type, seq)
                      for _ in range(length)]))
    if isinstance(t, T.RowType):
        return F.struct(*[_random_or_null(options, "%s.%s" % (name, f.name), f.data_type, seq)
                          .alias(f.name) for f in t.fields])
    raise ValidationException("datagen cannot generate %s values (field '%s')." %
                              (t.summary_string(), name))


def _generated(options: Dict[str, str], name: str, t: T.DataType, seq: Column) -> Column:
    if _field_option(options, name, "kind") == "sequence":
        start = int(_field_option(options, name, "start", 0))
        value = (F.lit(start) + seq)
        if isinstance(t, (T.CharType, T.VarCharType)):
            return value.cast("string")
        return value.cast(t.spark_type())
    return _random_or_null(options, name, t, seq)


def _random_or_null(options: Dict[str, str], name: str, t: T.DataType, seq: Column) -> Column:
    """A random value of ``t``, NULL at the field's 'null-rate'."""
    value = _random(options, name, t, seq)
    null_rate = float(_field_option(options, name, "null-rate", 0))
    if null_rate > 0:
        value = F.when(F.rand() >= null_rate, value)
    return value


def _read_datagen(node: ops.ConnectorScan, spark, streaming: bool) -> DataFrame:
    rows = datagen_rows(node.options, node.physical)
    if rows is None:
        rate = int(node.options.get("rows-per-second", 10000))
        df = spark.readStream.format("rate").option("rowsPerSecond", rate).load()
        seq = F.col("value")
    else:
        df = spark.range(rows)
        seq = F.col("id")
    columns = [_generated(node.options, f.name, f.data_type, seq).alias(f.name)
               for f in node.physical]
    if streaming:
        columns.append(seq.alias(SEQ))
    return df.select(*columns)


# -- filesystem ------------------------------------------------------------------------------

def _read_filesystem(node: ops.ConnectorScan, spark, streaming: bool) -> DataFrame:
    options = node.options
    path = options.get("path")
    if not path:
        raise ValidationException("Table '%s': the filesystem connector needs a 'path'." %
                                  node.name)
    fmt = options.get("format")
    physical = Schema(tuple(f for f in node.physical if f.name not in node.partition_keys))
    monitored = streaming and not node.bounded  # 'source.monitor-interval': new files too
    reader = (spark.readStream if monitored else spark.read)
    if fmt in ("csv", "json"):
        reader = reader.schema(with_corrupt_column(physical.spark_type())) \
            .options(timestampFormat="yyyy-MM-dd HH:mm:ss[.SSSSSSSSS]", **PARSER_OPTIONS)
        if fmt == "csv":
            quote = options.get("csv.quote-character", '"')
            df = reader.options(sep=options.get("csv.field-delimiter", ","), quote=quote,
                                escape=options.get("csv.escape-character", quote),
                                nullValue=options.get("csv.null-literal", "\u0000"),
                                emptyValue="").csv(path)
        else:
            df = reader.json(path)
        df = checked(df, node.name, fmt, physical.names, file_location(),
                     ignores_errors(options, fmt))
        if fmt == "csv" and "csv.null-literal" not in options:
            df = _empty_text_not_null(df, physical)
    elif fmt in CHANGELOG_FORMATS:
        return _read_changelog(node, reader.text(path), fmt, monitored)
    elif fmt == "raw":
        df = reader.text(path).withColumnRenamed("value", node.physical.names[0])
    elif fmt in ("parquet", "orc", "avro"):
        df = reader.schema(physical.spark_type()).format(fmt).load(path)
    else:
        raise ValidationException("Could not find any format factory for identifier '%s' in "
                                  "the classpath." % fmt)
    return df.select(*[F.col("`%s`" % n) for n in node.physical.names])


def _empty_text_not_null(df: DataFrame, physical: Schema) -> DataFrame:
    """Flink's CSV reads an empty field of a text column as '' (there is no NULL without a
    'csv.null-literal'); Spark's reader gives NULL."""
    texts = {f.name for f in physical if isinstance(f.data_type, (T.CharType, T.VarCharType))}
    return df.select(*[F.coalesce(F.col("`%s`" % n), F.lit("")).alias(n) if n in texts
                       else F.col("`%s`" % n) for n in df.columns])


def _read_changelog(node: ops.ConnectorScan, lines: DataFrame, fmt: str,
                    monitored: bool) -> DataFrame:
    """The changes the ``lines`` of a changelog-format file hold (``__op``, ``__sub``; and
    ``__seq`` of their line over bounded files)."""
    lines = lines.select("value", file_location().alias("__file"))
    if not monitored:
        lines = lines.withColumn(SEQ, F.monotonically_increasing_id())
    df = changes(lines, F.col("value"), list(node.physical), fmt, node.options, node.name,
                 F.col("__file"))
    system = [] if monitored else [SEQ, "__sub"]
    return df.select(*[F.col("`%s`" % n) for n in node.physical.names], "__op", *system)


def _read_kafka(node: ops.ConnectorScan, spark, streaming: bool, compiler=None) -> DataFrame:
    from pystream.compiler.connectors.kafka.table import read_kafka

    return read_kafka(node, spark, streaming, compiler)


def _read_jdbc(node: ops.ConnectorScan, spark, streaming: bool) -> DataFrame:
    from pystream.compiler.connectors.jdbc.table import read_jdbc

    return read_jdbc(node, spark, streaming)


SOURCES: Dict[str, Callable[..., DataFrame]] = {
    "datagen": _read_datagen,
    "filesystem": _read_filesystem,
    "kafka": _read_kafka,
    "upsert-kafka": _read_kafka,
    "jdbc": _read_jdbc,
}
NEEDS_COMPILER = {"kafka", "upsert-kafka"}  # readers given the DataStream compiler of the job


def read(node: ops.ConnectorScan, spark, streaming: bool, compiler=None) -> DataFrame:
    """The rows of a connector table; ``streaming`` reads an unbounded one as a stream."""
    connector = node.options.get("connector")
    reader = SOURCES.get(connector)
    if reader is None:
        raise ValidationException(
            "Connector '%s' can only be used as a sink (or is not supported as a source). "
            "Sources: %s." % (connector, ", ".join(sorted(SOURCES))))
    check_options(node.name, node.options, node.physical, source=True)
    if connector in NEEDS_COMPILER:
        return reader(node, spark, streaming and not node.bounded, compiler)
    return reader(node, spark, streaming)


def is_bounded(options: Dict[str, str], schema: Schema) -> bool:
    connector = options.get("connector")
    if connector == "datagen":
        return datagen_rows(options, schema) is not None
    if connector == "filesystem":
        return "source.monitor-interval" not in options
    if connector in ("kafka", "upsert-kafka"):
        return options.get("scan.bounded.mode", "unbounded") != "unbounded"
    return True


# -- sinks -----------------------------------------------------------------------------------

def _write_filesystem(df: DataFrame, options: Dict[str, str], schema: Schema,
                      partition_keys: List[str], overwrite: bool) -> None:
    fmt = options.get("format")
    if fmt == "csv" and flink_csv.writes(flink_csv.unpartitioned(schema, partition_keys)):
        df, fmt = flink_csv.csv_lines(df, schema, partition_keys, options), "raw"
    writer = df.write.mode("overwrite" if overwrite else "append")
    if partition_keys:
        writer = writer.partitionBy(*partition_keys)
    path = options["path"]
    if fmt == "csv":
        writer.options(sep=options.get("csv.field-delimiter", ","), emptyValue="",
                       timestampFormat="yyyy-MM-dd HH:mm:ss.SSS").csv(path)
    elif fmt == "json":
        writer.options(timestampFormat="yyyy-MM-dd HH:mm:ss.SSS").json(path)
    elif fmt in CHANGELOG_FORMATS:  # one file, in the changelog's order
        op = F.col(OP) if OP in df.columns else F.lit(INSERT)
        df.select(encoded(list(schema), fmt, op).alias("value")).coalesce(1) \
            .write.mode("overwrite" if overwrite else "append").text(path)
    elif fmt == "raw":
        writer.text(path)
    elif fmt in ("parquet", "orc", "avro"):
        writer.format(fmt).save(path)
    else:
        raise ValidationException("Could not find any format factory for identifier '%s'." % fmt)


def _write_blackhole(df: DataFrame, options, schema, partition_keys, overwrite) -> None:
    df.write.format("noop").mode("overwrite").save()


SINKS = {
    "filesystem": _write_filesystem,
    "blackhole": _write_blackhole,
}


def _kafka_writer(options, physical, name, primary_key, metadata):
    from pystream.compiler.connectors.kafka.table import kafka_writer

    return kafka_writer(options, physical, name, primary_key, metadata)


def _jdbc_writer(options, physical, name, primary_key, metadata):
    from pystream.compiler.connectors.jdbc.table import jdbc_writer

    return jdbc_writer(options, physical, name, primary_key)


# connector -> writer(options, physical, name, primary key, metadata) -> send(batch df) of
# the tables written with keys (metadata: column -> the key it is written as), by bounded
# statements and by streaming jobs' micro-batches alike
KEYED_SINKS = {"kafka": _kafka_writer, "upsert-kafka": _kafka_writer, "jdbc": _jdbc_writer}
