"""Sources -> the first DataFrame of a stream (one function per source class)."""
from __future__ import annotations

import tempfile
from functools import singledispatch

import pyarrow as pa

from pystream import graph, session
from pystream.common.typeinfo import Types
from pystream.compiler.flow import Flow
from pystream.datastream.connectors.collection import CollectionSource, SocketSource
from pystream.datastream.connectors.datagen import DataGeneratorSource
from pystream.datastream.connectors.number_seq import NumberSequenceSource
from pystream.datastream.connectors.table import TableSource
from pystream.errors import PystreamError, UnsupportedFeatureError
from pystream.runtime import pysource, records
from pystream.runtime.layout import Layout


def source_flow(compiler, node: graph.Source) -> Flow:
    """The Flow of a Source node."""
    import pystream.compiler.connectors  # noqa: F401 - registers the connectors' translations
    if compiler.settings.batch and not node.bounded:
        raise PystreamError(
            "Detected an UNBOUNDED source (%s) with the execution mode set to BATCH: this "
            "combination is not allowed, use STREAMING or AUTOMATIC" % node.meta.label())
    return translate_source(node.source, compiler, node)


def read_python_source(compiler, spec: pysource.ReadSpec):
    """A DataFrame reading ``spec``: through the ``pystream`` Python data source, or, for
    fixed records, without a Python worker: a batch job reads one split as a local relation
    built now, a streaming job on a local session without kept checkpoints reads Parquet
    files written now (same records, one partition per split)."""
    spark = compiler.spark
    settings = compiler.settings
    reader = spark.read if settings.spark_batch else spark.readStream
    splits = spec.splits() if spec.static else None
    if spec.static and settings.spark_batch and len(splits) <= 1:
        batches = [b for split in splits for b in spec.read(split)]
        return spark.createDataFrame(pysource.arrow_table(spec, batches),
                                     spec.schema()).coalesce(1)
    if spec.static and not settings.checkpoint_dir and shares_files(spark):
        directory = tempfile.mkdtemp(prefix="pystream-source-")
        compiler.temp_dirs.append(directory)
        pysource.write_parquet(spec, directory)
        return reader.schema(spec.schema()).parquet(directory)
    session.with_session_python(spark, lambda: pysource.register(spark))
    option = pysource.encode_spec(compiler.ship(spec))
    return reader.format(pysource.FORMAT).option("spec", option).load()


def shares_files(spark) -> bool:
    """Whether ``spark`` runs its tasks on this machine's file system: a classic local session,
    or the local server (``pystream server``)."""
    if session.is_remote(spark):
        return session.on_local_server(spark)
    return spark.conf.get("spark.master", "").startswith("local")


@singledispatch
def translate_source(source, compiler, node: graph.Source) -> Flow:
    raise UnsupportedFeatureError("source %r is not supported by pystream" % (source,))


@translate_source.register
def _collection(source: CollectionSource, compiler, node: graph.Source) -> Flow:
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


@translate_source.register
def _number_sequence(source: NumberSequenceSource, compiler, node: graph.Source) -> Flow:
    p = node.meta.parallelism or compiler.settings.parallelism
    layout = Layout(Types.LONG())
    if compiler.settings.spark_batch:
        df = compiler.spark.range(source.start, source.end + 1, 1, p).withColumnRenamed(
            "id", "value")
    else:
        df = read_python_source(compiler, pysource.RangeRead(source.start, source.end, p))
    flow = Flow(df=df, layout=layout, type_info=Types.LONG(), parallelism=p, bounded=True)
    return _retyped(compiler, node, flow)


@translate_source.register
def _data_generator(source: DataGeneratorSource, compiler, node: graph.Source) -> Flow:
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


@translate_source.register
def _socket(source: SocketSource, compiler, node: graph.Source) -> Flow:
    if source.delimiter not in ("\n", "\r\n"):
        raise UnsupportedFeatureError("socket_text_stream: Spark's socket source splits lines; "
                                      "delimiter %r is not supported" % source.delimiter)
    df = (compiler.spark.readStream.format("socket").option("host", source.host)
          .option("port", source.port).load())
    flow = Flow(df=df, layout=Layout(Types.STRING()), type_info=Types.STRING(), parallelism=1,
                bounded=False)
    return _retyped(compiler, node, flow)


def _retyped(compiler, node: graph.Source, flow: Flow) -> Flow:
    """A source whose declared type differs from what it reads converts each record."""
    if node.output_type == flow.type_info:
        return flow
    return flow.but(type_info=node.output_type)


@translate_source.register
def _table(source: TableSource, compiler, node: graph.Source) -> Flow:
    """The rows of a table query: a batch DataFrame; a STREAMING job reads them back from
    Parquet files written now (Spark streams only from streaming sources)."""
    layout = Layout(node.output_type)
    unbounded = not source.bounded  # a streaming DataFrame of the job's compiler
    df, _ = source.job.frame(source.rel, compiler=compiler if unbounded else None)
    df = df.select(*[df[i].cast(t).alias(n) for i, (n, t) in enumerate(
        zip(layout.data_columns, records.column_types(node.output_type)))])
    if unbounded:
        return Flow(df=df, layout=layout, type_info=node.output_type, parallelism=None,
                    bounded=False)
    if not compiler.settings.spark_batch:
        directory = tempfile.mkdtemp(prefix="pystream-table-")
        compiler.temp_dirs.append(directory)
        df.write.mode("overwrite").parquet(directory)
        df = compiler.spark.readStream.schema(df.schema).parquet(directory)
    return Flow(df=df, layout=layout, type_info=node.output_type, parallelism=None,
                bounded=True)
