"""The built-in sources and sinks: collections, number sequences, data generators, sockets,
print, collect and discard (their lines in the tables of ``compiler.connectors``)."""
from __future__ import annotations

import sys

import pyarrow as pa

from pystream import graph
from pystream.common.formatting import java_string, python_row_string
from pystream.common.typeinfo import RowTypeInfo, Types
from pystream.compiler.flow import Flow
from pystream.compiler.sink_helpers import (
    PART,
    RunningQuery,
    SinkPlan,
    client_frame,
    deliver_batch,
    start_client_stream,
)
from pystream.compiler.source_helpers import read_python_source, retyped
from pystream.core.connectors.client import CollectSink, PrintSink
from pystream.core.connectors.collection import CollectionSource, SocketSource
from pystream.core.connectors.datagen import DataGeneratorSource
from pystream.core.connectors.discarding import DiscardingSink
from pystream.core.connectors.number_seq import NumberSequenceSource
from pystream.errors import UnsupportedFeatureError
from pystream.runtime import pysource, records
from pystream.runtime.layout import Layout

# -- sources


def collection_source(source: CollectionSource, compiler, node: graph.Source) -> Flow:
    """``env.from_collection``: the elements, encoded now, read as one Arrow batch."""
    layout = Layout(node.output_type)
    try:
        columns = records.batch_encoder(node.output_type)(source.elements)
    except records.RecordTypeError as e:
        raise TypeError("from_collection: %s" % e) from None
    batch = pa.RecordBatch.from_arrays(columns, schema=layout.arrow_schema())
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, batch.schema) as writer:
        writer.write_batch(batch)
    spec = pysource.ArrowRead(layout.spark_schema(), [sink.getvalue().to_pybytes()])
    df = read_python_source(compiler, spec)
    return Flow(df=df, layout=layout, type_info=node.output_type, parallelism=1, bounded=True)


def number_sequence_source(source: NumberSequenceSource, compiler, node: graph.Source) -> Flow:
    """``env.from_sequence``: Spark's ``range`` in a batch job, pystream's reader otherwise."""
    p = node.meta.parallelism or compiler.settings.parallelism
    layout = Layout(Types.LONG())
    if compiler.settings.spark_batch:
        df = compiler.spark.range(source.start, source.end + 1, 1, p).withColumnRenamed(
            "id", "value")
    else:
        df = read_python_source(compiler, pysource.RangeRead(source.start, source.end, p))
    flow = Flow(df=df, layout=layout, type_info=Types.LONG(), parallelism=p, bounded=True)
    return retyped(node, flow)


def data_generator_source(source: DataGeneratorSource, compiler, node: graph.Source) -> Flow:
    """Indexes (a range, paced or not, or Spark's ``rate`` source when unbounded) mapped
    by the generator function."""
    p = node.meta.parallelism or 1  # one reader unless set: records come in index order
    layout = Layout(Types.LONG())
    if source.count is not None:
        if not source.count:
            df = _empty_longs(compiler)
        elif source.rows_per_second:
            df = read_python_source(compiler, pysource.PacedRangeRead(
                0, source.count - 1, p, source.rows_per_second))
        elif compiler.settings.spark_batch:
            df = compiler.spark.range(0, source.count, 1, p).withColumnRenamed("id", "value")
        else:
            df = read_python_source(compiler, pysource.RangeRead(0, source.count - 1, p))
    else:
        from pyspark.sql import functions as F

        rate = source.rows_per_second or 1
        df = (compiler.spark.readStream.format("rate").option("rowsPerSecond", rate)
              .option("numPartitions", p).load().select(F.col("value")))
    flow = Flow(df=df, layout=layout, type_info=Types.LONG(), parallelism=p,
                bounded=source.count is not None)
    op = compiler.op(node, "map", source.generator_function, p)
    return flow.then(op, node.output_type)


def _empty_longs(compiler):
    return read_python_source(compiler, pysource.ArrowRead(
        Layout(Types.LONG()).spark_schema(), []))


def socket_source(source: SocketSource, compiler, node: graph.Source) -> Flow:
    """``env.socket_text_stream``: Spark's socket source (lines)."""
    if source.delimiter not in ("\n", "\r\n"):
        raise UnsupportedFeatureError("socket_text_stream: Spark's socket source splits lines; "
                                      "delimiter %r is not supported" % source.delimiter)
    df = (compiler.spark.readStream.format("socket").option("host", source.host)
          .option("port", source.port).load())
    flow = Flow(df=df, layout=Layout(Types.STRING()), type_info=Types.STRING(), parallelism=1,
                bounded=False)
    return retyped(node, flow)


# -- sinks


def print_sink(sink: PrintSink, compiler, node: graph.Sink) -> SinkPlan:
    """Flink's print sink; as in PyFlink, a ROW record is printed as Python shows its fields
    (PyFlink maps it to ``'+I[' + ','.join(str(field)) + ']'`` before Java's print)."""
    rows = isinstance(compiler.flow(node.input).type_info, RowTypeInfo)
    df, type_info, p = client_frame(compiler, node, java_floats=not rows)
    decode = records.batch_decoder(type_info, client=not rows)
    text = python_row_string if rows else (lambda v: java_string(v, type_info))
    names = records.column_names(type_info)
    identifier = sink.sink_identifier or ""

    def prefix(part: int) -> str:
        text = identifier
        if p > 1:
            text += (":" if text else "") + str(part % p + 1)
        return text + "> " if text else ""

    def deliver(table: pa.Table) -> None:
        out = sys.stderr if sink.to_stderr else sys.stdout
        values = decode([table.column(n).combine_chunks() for n in names])
        parts = table.column(PART).to_pylist()
        out.write("".join(prefix(part) + text(v) + "\n" for v, part in zip(values, parts)))
        out.flush()

    spark = compiler.spark
    return SinkPlan(node.meta.label(), lambda: deliver_batch(spark, df, deliver),
                    lambda trigger, ckpt: start_client_stream(spark, df, deliver, trigger, ckpt))


def collect_sink(sink: CollectSink, compiler, node: graph.Sink) -> SinkPlan:
    """``execute_and_collect``: the records to the sink's consumer, in this process."""
    df, type_info, _ = client_frame(compiler, node, gathered=True)  # Flink's collect sink
    decode = records.batch_decoder(type_info, client=True)
    names = records.column_names(type_info)

    def deliver(table: pa.Table) -> None:
        values = decode([table.column(n).combine_chunks() for n in names])
        sink.consumer(records.as_collected(values, type_info))

    spark = compiler.spark
    batch_df = df.limit(sink.limit) if sink.limit is not None else df
    return SinkPlan(node.meta.label(), lambda: deliver_batch(spark, batch_df, deliver),
                    lambda trigger, ckpt: start_client_stream(spark, df, deliver, trigger, ckpt))


def discarding_sink(sink: DiscardingSink, compiler, node: graph.Sink) -> SinkPlan:
    """Computes the records and drops them (Spark's ``noop`` format)."""
    flow = compiler.flow(node.input)
    df = compiler.materialize(flow, Layout(flow.type_info)).df

    def run_batch() -> None:
        df.write.format("noop").mode("overwrite").save()

    def start_stream(trigger: dict, checkpoint: str) -> RunningQuery:
        return RunningQuery(df.writeStream.format("noop").trigger(**trigger)
                            .option("checkpointLocation", checkpoint).start())

    return SinkPlan(node.meta.label(), run_batch, start_stream)
