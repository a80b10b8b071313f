"""What the translations of sources share: reading through pystream's Python data source.

A module of its own so that the connector modules (``compiler.connectors``) can use it while
``compiler.sources`` looks their translations up in ``compiler.connectors``: no cycle.
"""
from __future__ import annotations

import tempfile

from pystream import graph, session
from pystream.compiler.flow import Flow
from pystream.runtime import pysource


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


def retyped(node: graph.Source, flow: Flow) -> Flow:
    """A source whose declared type differs from what it reads converts each record."""
    if node.output_type == flow.type_info:
        return flow
    return flow.but(type_info=node.output_type)
