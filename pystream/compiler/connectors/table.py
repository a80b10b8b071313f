"""Table queries in DataStream jobs: the source of a query's rows (``to_data_stream``, and the
jobs below), and the sinks of STREAMING Table jobs over unbounded tables: a query's rows to the
program (``TableResult.collect``/``print``) or to a connector table (``INSERT INTO``).

The query's DataFrame comes straight from the relational compiler (``TableJob.frame``), with
the table's own Spark types: the job's graph is ``Source(TableSource) -> Sink(...)``, run by
the DataStream ``Job`` (its checkpoints, cancellation, ``%jobs``).
"""
from __future__ import annotations

import sys
from typing import Callable, Dict, List

from pyspark.sql import functions as F

from pystream import graph
from pystream.common.table_formatting import changelog_line
from pystream.common.types import Row, RowKind
from pystream.compiler import flink_csv
from pystream.compiler.changelog_formats import CHANGELOG_FORMATS, INSERT, encoded
from pystream.compiler.flow import Flow
from pystream.compiler.relational import OP
from pystream.compiler.sink_helpers import PART, RunningQuery, SinkPlan, start_client_stream
from pystream.compiler.source_helpers import scratch_directory
from pystream.compiler.table_connectors import KEYED_SINKS
from pystream.core.connectors.table import TableCollectSink, TableConnectorSink, TableSource
from pystream.plan.relational import reads_changelog
from pystream.runtime import records
from pystream.runtime.kafka import query_token
from pystream.runtime.layout import Layout
from pystream.util.exceptions import TableException, ValidationException

__all__: List[str] = []


def table_source(source: TableSource, compiler, node: graph.Source) -> Flow:
    """The rows of a table query: a batch DataFrame; a STREAMING job reads them back from
    Parquet files written now (Spark streams only from streaming sources). The changes of an
    updating table (``to_changelog_stream``) are Rows with their row kinds."""
    row_type = node.output_type
    unbounded = not source.bounded  # a streaming DataFrame of the job's compiler
    df, updating = source.job.frame(compiler=compiler if unbounded else None)
    df = df.select(*[df[i].cast(t.spark_type()).alias(n) for i, (n, t) in enumerate(
        zip(row_type.get_field_names(), row_type.get_field_types()))],
        F.col(OP).cast("byte").alias(records.ROW_KIND) if updating  # each change's row kind
        else records.row_kind_column())
    if not unbounded and not compiler.settings.spark_batch:
        directory = scratch_directory(compiler, "the rows of a bounded table read as a stream")
        df.write.mode("overwrite").parquet(directory)
        df = compiler.spark.readStream.schema(df.schema).parquet(directory)
    return Flow(df=df, layout=Layout(node.output_type), type_info=node.output_type,
                parallelism=None, bounded=not unbounded)


def _query(compiler, node: graph.Sink):
    """(streaming DataFrame of the query, its relational schema, whether it is updating)."""
    source = node.input.source
    df, updating = source.job.frame(compiler=compiler)
    return df, source.rel.schema, updating, source.job


def _rows_of(schema, updating: bool) -> Callable[[list], list]:
    """Spark Rows of the query -> Rows with Flink's values and row kinds."""
    types = list(schema.types)
    width = len(types)

    def convert(spark_rows: list) -> list:
        out = []
        for spark_row in spark_rows:
            row = Row(*[t.python_value(v) for t, v in zip(types, spark_row)])
            if updating:
                row.set_row_kind(RowKind(spark_row[width]))
            out.append(row)
        return out

    return convert


def _collect_rows(df) -> list:
    return df.collect()


def table_collect_sink(sink: TableCollectSink, compiler, node: graph.Sink) -> SinkPlan:
    """The rows (with their row kinds) to the consumer of ``TableResult.collect``."""
    df, schema, updating, _ = _query(compiler, node)
    convert = _rows_of(schema, updating)

    def deliver(spark_rows: list) -> None:
        sink.consumer(convert(spark_rows))

    def run_batch() -> None:
        raise TableException("a collect of an unbounded table runs as a streaming job")

    spark = compiler.spark
    return SinkPlan(node.meta.label(), run_batch, lambda trigger, checkpoint: start_client_stream(
        spark, df, deliver, trigger, checkpoint, fetch=_collect_rows))


# -- connector tables ------------------------------------------------------------------------

def _print(sink: TableConnectorSink, df, schema, updating, job, compiler):
    identifier = sink.options.get("print-identifier")
    stream = sys.stderr if sink.options.get("standard-error") == "true" else sys.stdout
    types = list(sink.physical.types)
    convert = _rows_of(schema, updating)
    p = job.parallelism
    df = df.withColumn(PART, F.spark_partition_id())

    def prefix(part: int) -> str:
        if p > 1:
            return "%s%d> " % (identifier + ":" if identifier else "", part % p + 1)
        return "%s> " % identifier if identifier else ""

    def deliver(spark_rows: list) -> None:
        rows = convert(spark_rows)
        stream.write("".join(prefix(r[PART]) + changelog_line(row, types) + "\n"
                             for r, row in zip(spark_rows, rows)))
        stream.flush()

    spark = compiler.spark
    return lambda trigger, checkpoint: start_client_stream(spark, df, deliver, trigger,
                                                           checkpoint, fetch=_collect_rows)


def _blackhole(sink, df, schema, updating, job, compiler):
    def start(trigger: dict, checkpoint: str) -> RunningQuery:
        return RunningQuery(df.writeStream.format("noop").trigger(**trigger)
                            .option("checkpointLocation", checkpoint).start())
    return start


def _append_only(sink: TableConnectorSink, updating: bool) -> None:
    if updating:
        raise TableException("Table sink 'default_catalog.default_database.%s' doesn't "
                             "support consuming update changes." % sink.name)


def _filesystem(sink: TableConnectorSink, df, schema, updating, job, compiler):
    fmt = sink.options.get("format")
    renamed = [F.col("`%s`" % q).alias(p) for q, p in zip(schema.names, sink.physical.names)]
    df = df.select(*renamed, *([F.col("__op")] if updating else []))  # the sink's names
    if fmt in CHANGELOG_FORMATS:  # each change a JSON record of the format
        op = F.col("__op") if updating else F.lit(INSERT)
        df, fmt = df.select(encoded(list(sink.physical), fmt, op).alias("value")), "text"
    else:
        _append_only(sink, updating)
    keys = list(sink.partition_keys)
    if fmt == "csv" and flink_csv.writes(flink_csv.unpartitioned(sink.physical, keys)):
        df, fmt = flink_csv.csv_lines(df, sink.physical, keys, sink.options), "text"
    if fmt not in ("csv", "json", "parquet", "orc", "text"):
        raise ValidationException("A streaming filesystem sink writes csv, json, parquet, "
                                  "orc, %s, not '%s'." % (", ".join(CHANGELOG_FORMATS), fmt))

    def start(trigger: dict, checkpoint: str) -> RunningQuery:
        writer = df.writeStream.format(fmt).option("path", sink.options["path"])
        if sink.partition_keys:
            writer = writer.partitionBy(*sink.partition_keys)
        if fmt == "csv":
            writer = writer.option("sep", sink.options.get("csv.field-delimiter", ","))
        if fmt in ("csv", "json"):  # as the BATCH writer and Flink's formats write them
            writer = writer.option("timestampFormat", "yyyy-MM-dd HH:mm:ss.SSS") \
                .option("timestampNTZFormat", "yyyy-MM-dd HH:mm:ss.SSS")
        return RunningQuery(writer.trigger(**trigger).option("checkpointLocation", checkpoint)
                            .outputMode("append").start())
    return start


class _EachBatch:
    """The foreachBatch function of a table sink: ``send(batch_df, batch_id, *extra)``."""

    def __init__(self, send, *extra):
        self.send = send
        self.extra = extra

    def __call__(self, batch_df, batch_id: int) -> None:
        self.send(batch_df, batch_id, *self.extra)


def _kafka(sink: TableConnectorSink, df, schema, updating, job, compiler):
    """kafka (append-only) and upsert-kafka (a changelog as upserts by primary key)."""
    if sink.options.get("connector") == "kafka" and not reads_changelog(sink.options):
        _append_only(sink, updating)
    send = KEYED_SINKS["kafka"](sink.options, sink.physical, sink.name, sink.primary_key,
                                sink.metadata)

    def start(trigger: dict, checkpoint: str) -> RunningQuery:
        write = _EachBatch(send, query_token(checkpoint))
        return RunningQuery(df.writeStream.foreachBatch(write).trigger(**trigger)
                            .option("checkpointLocation", checkpoint).start())
    return start


def _jdbc(sink: TableConnectorSink, df, schema, updating, job, compiler):
    """jdbc: appends, or with a primary key upserts and deletes."""
    if not sink.primary_key:
        _append_only(sink, updating)
    send = KEYED_SINKS["jdbc"](sink.options, sink.physical, sink.name, sink.primary_key,
                               sink.metadata)

    def start(trigger: dict, checkpoint: str) -> RunningQuery:
        return RunningQuery(df.writeStream.foreachBatch(_EachBatch(send)).trigger(**trigger)
                            .option("checkpointLocation", checkpoint).start())
    return start


STREAM_SINKS: Dict[str, Callable] = {
    "print": _print,
    "blackhole": _blackhole,
    "filesystem": _filesystem,
    "kafka": _kafka,
    "upsert-kafka": _kafka,
    "jdbc": _jdbc,
}


def table_connector_sink(sink: TableConnectorSink, compiler, node: graph.Sink) -> SinkPlan:
    """``INSERT INTO`` a connector table: the writer of its connector (``STREAM_SINKS``)."""
    df, schema, updating, job = _query(compiler, node)
    connector = sink.options.get("connector")
    make = STREAM_SINKS.get(connector)
    if make is None:
        raise ValidationException(
            "Connector '%s' cannot be written by a STREAMING job (streaming sinks: %s)."
            % (connector, ", ".join(sorted(STREAM_SINKS))))
    names = list(schema.names)
    columns = [F.col("`%s`" % a).cast(f.data_type.spark_type()).alias(f.name)
               for a, f in zip(names, sink.physical)]
    typed = df.select(*columns, *([F.col("__op")] if updating else []))

    def run_batch() -> None:
        raise TableException("an INSERT from an unbounded table runs as a streaming job")

    return SinkPlan(node.meta.label(), run_batch,
                    make(sink, typed, sink.physical, updating, job, compiler))
