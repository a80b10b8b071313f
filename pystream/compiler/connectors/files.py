"""FileSource and FileSink on Spark.

A FileSource is Spark's own file source (``text`` or ``parquet``): in STREAMING mode it keeps
the list of files already read in the checkpoint, so a restarted job reads each file once;
``monitor_continuously`` picks up new files at every trigger. Line formats (CSV, JSON) decode
each line in the fused Python stage; a line that does not parse fails the job with the file
and the line, unless the format ignores parse errors.

A FileSink writes part files from a ``mapInArrow`` stage: once per job in BATCH mode, and per
micro-batch through ``foreachBatch`` in STREAMING mode (see ``runtime.files``).
"""
from __future__ import annotations

import os
import time
import uuid

from pystream import graph
from pystream.common.codecs import DeserializationError
from pystream.common.typeinfo import Types
from pystream.compiler.flow import Flow
from pystream.compiler.sink_helpers import RunningQuery, SinkPlan
from pystream.compiler.source_helpers import retyped
from pystream.core.connectors.file_system import BulkFormat, FileSink, FileSource
from pystream.errors import PystreamError
from pystream.runtime import filesystems, records
from pystream.runtime.files import FileBatchCommitter, PartFileSpec, write_batch
from pystream.runtime.layout import Layout

LINES = Types.ROW_NAMED(["file", "line"], [Types.STRING(), Types.STRING()])


class LineDecoder:
    """The flat_map decoding ``Row(file, text)`` into records: one line, or with
    ``whole_files`` every line of a file after its first (header) line."""

    def __init__(self, decode, whole_files: bool, source: str):
        self.decode = decode
        self.whole_files = whole_files
        self.source = source

    def __call__(self, row):
        path, text = row[0], row[1]
        lines = text.splitlines()[1:] if self.whole_files else [text]
        for line in lines:
            if not line.strip():
                continue
            try:
                value = self.decode(line)
            except DeserializationError as e:
                raise DeserializationError("%s (source %s, file %s)"
                                           % (e, self.source, path)) from None
            if value is not None:
                yield value


def _reader(compiler):
    return compiler.spark.read if compiler.settings.spark_batch else compiler.spark.readStream


def _check_paths(source: FileSource, node: graph.Source) -> None:
    """Local paths that do not exist fail before Spark starts; a URI (hdfs://, s3a://, ...)
    is Spark's to read, where its file system is installed."""
    for path in source.paths:
        if filesystems.is_local(path) and not os.path.exists(filesystems.local_path(path)):
            raise PystreamError("FileSource %s: path %s does not exist"
                                % (node.meta.label(), path))


def _union(dfs):
    df = dfs[0]
    for other in dfs[1:]:
        df = df.union(other)
    return df


def file_source(source: FileSource, compiler, node: graph.Source) -> Flow:
    """Spark's ``parquet`` (bulk formats) or ``text`` source; line formats decode each line
    in the fused Python stage."""
    from pyspark.sql import functions as F

    _check_paths(source, node)
    fmt = source.format
    p = node.meta.parallelism or compiler.settings.parallelism
    bounded = source.bounded
    if isinstance(fmt, BulkFormat):
        type_info = fmt.produced_type()
        layout = Layout(type_info)
        df = _union([_reader(compiler).schema(layout.spark_schema())
                     .option("recursiveFileLookup", "true").parquet(path)
                     for path in source.paths])
        return Flow(df=df, layout=layout, type_info=type_info, parallelism=p, bounded=bounded)
    whole = fmt.whole_files
    dfs = [_reader(compiler).format("text").option("recursiveFileLookup", "true")
           .option("wholetext", str(whole).lower()).load(path) for path in source.paths]
    decode = fmt.line_decoder()
    if decode is None:
        df = _union([d.select("value") for d in dfs])
        flow = Flow(df=df, layout=Layout(Types.STRING()), type_info=Types.STRING(),
                    parallelism=p, bounded=bounded)
        return retyped(node, flow)
    df = _union([d.select(F.col("_metadata.file_path").alias("file"),
                          F.col("value").alias("line"), records.row_kind_column())
                  for d in dfs])
    flow = Flow(df=df, layout=Layout(LINES), type_info=LINES, parallelism=p, bounded=bounded)
    op = compiler.op(node, "flat_map", LineDecoder(decode, whole, node.meta.label()), p)
    return flow.then(op, node.output_type)


def file_sink(sink: FileSink, compiler, node: graph.Sink) -> SinkPlan:
    """Part files written from a ``mapInArrow`` stage (``runtime.files``)."""
    flow: Flow = compiler.flow(node.input)
    p = compiler.parallelism_of(node, flow.parallelism) or flow.parallelism or 1
    flow = compiler.repartitioned(flow, p)
    flow = compiler.materialize(flow, Layout(flow.type_info))
    config = sink.output_file_config
    spec = PartFileSpec(
        base_path=(filesystems.local_path(sink.base_path)
                   if filesystems.is_local(sink.base_path) else sink.base_path),
        type_info=flow.type_info,
        encoder=sink.encoder, writer_factory=sink.writer_factory,
        bucket_pattern=sink.bucket_assigner.format_str,
        timezone_id=sink.bucket_assigner.timezone_id, prefix=config.get_part_prefix(),
        suffix=config.get_part_suffix(), part_size=sink.rolling_policy.part_size,
        label=node.meta.label())
    df = flow.df

    def run_batch() -> None:
        write_batch(df, spec, str(uuid.uuid4()), 0, int(time.time() * 1000))

    def start_stream(trigger: dict, checkpoint: str) -> RunningQuery:
        query = (df.writeStream.foreachBatch(FileBatchCommitter(spec, checkpoint))
                 .trigger(**trigger).option("checkpointLocation", checkpoint).start())
        return RunningQuery(query)

    return SinkPlan(node.meta.label(), run_batch, start_stream)
