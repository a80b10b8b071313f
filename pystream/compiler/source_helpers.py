"""What the translations of sources share: reading through pystream's Python data source.

A module of its own so that the connector modules (``compiler.connectors``) can use it while
``compiler.sources`` looks their translations up in ``compiler.connectors``: no cycle.
"""
from __future__ import annotations

import tempfile
import uuid

from pystream import graph, session
from pystream.compiler.flow import Flow
from pystream.errors import PystreamError
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
        directory = scratch_directory(compiler, "a source's records")
        pysource.write_parquet(spec, directory)
        return reader.schema(spec.schema()).parquet(directory)
    session.with_session_python(spark, lambda: pysource.register(spark))
    option = pysource.encode_spec(compiler.ship(spec))
    return reader.format(pysource.FORMAT).option("spec", option).load()


def scratch_directory(compiler, what: str) -> str:
    """A new directory for ``what`` (files a streaming query reads back) that Spark's tasks
    reach: a temporary one when they run on the driver's machine (removed with the job), else
    one under the cluster's shared checkpoint location (Spark's
    ``spark.sql.streaming.checkpointLocation``, or ``execution.checkpointing.dir``)."""
    if runs_on_one_machine(compiler.spark):
        directory = tempfile.mkdtemp(prefix="pystream-scratch-")
        compiler.temp_dirs.append(directory)
        return directory
    shared = (compiler.spark.conf.get("spark.sql.streaming.checkpointLocation", None)
              or compiler.settings.checkpoint_dir)
    if not shared:
        raise PystreamError(
            "%s: on a cluster (%s), a STREAMING job writes them where its executors can "
            "read them back: set Spark's spark.sql.streaming.checkpointLocation or "
            "execution.checkpointing.dir to storage every node reaches (hdfs://, s3a://, "
            "abfss://, gs://, or a directory every node mounts)"
            % (what, compiler.spark.conf.get("spark.master", "a remote master")))
    return "%s/pystream-scratch-%s" % (shared.rstrip("/"), uuid.uuid4().hex)


def runs_on_one_machine(spark) -> bool:
    """Whether Spark's tasks run on its driver's machine (a local master, also behind a Spark
    Connect server): a temporary directory there then holds what Spark writes and reads back
    (checkpoints, staged rows); on a cluster it must be storage every node reaches."""
    return spark.conf.get("spark.master", "local").startswith("local")


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
