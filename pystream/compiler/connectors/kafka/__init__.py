"""KafkaSource and KafkaSink (and the legacy consumer / producer) on Spark.

Where Spark's own Kafka connector (the ``spark-sql-kafka`` jar) is on the classpath and the
source's offsets map onto its options, the source is Spark's ``kafka`` format. Otherwise it is
the ``pystream`` Python data source with ``runtime.kafka.KafkaRead``: Kafka offsets are the
stream's offsets, kept in the checkpoint. Either way the deserializer runs as the first
operator of the fused Python stage. The sink sends records from a ``mapInArrow`` stage, per
micro-batch through ``foreachBatch``; EXACTLY_ONCE names its transactions after the checkpoint
(so a restart finds what the run before it committed) and the micro-batch.
"""
from __future__ import annotations

import dataclasses
import json
import uuid
from typing import Optional

from pystream import graph
from pystream.compiler.flow import Flow
from pystream.compiler.sink_helpers import RunningQuery, SinkPlan
from pystream.compiler.source_helpers import read_python_source
from pystream.core.connectors.kafka import KafkaSink, KafkaSource
from pystream.runtime import records
from pystream.runtime.kafka import (
    RAW,
    KafkaRead,
    KafkaRecordDecoder,
    KafkaWriteStage,
    query_token,
    write_batch,
)
from pystream.runtime.layout import TS, Layout


def spark_kafka_options(source: KafkaSource, batch: bool) -> Optional[dict]:
    """The options of Spark's ``kafka`` format reading what ``source`` reads, or None when
    its offsets need pystream's reader (committed offsets, stopping offsets other than
    latest, or unbounded stopping offsets)."""
    options = {"kafka." + k: str(v) for k, v in source.properties.items()
               if k not in ("client.id.prefix", "commit.offsets.on.checkpoint")}
    options["kafka.bootstrap.servers"] = source.bootstrap_servers
    options["includeHeaders"] = "false"
    if source.partitions:
        assign: dict = {}
        for tp in source.partitions:
            assign.setdefault(tp.topic, []).append(tp.partition)
        options["assign"] = json.dumps({t: sorted(p) for t, p in assign.items()})
    elif source.topic_pattern:
        options["subscribePattern"] = source.topic_pattern
    else:
        options["subscribe"] = ",".join(source.topics)
    start = source.starting_offsets
    if start.kind in ("earliest", "latest"):
        options["startingOffsets"] = start.kind
    elif start.kind == "timestamp":
        options["startingTimestamp"] = str(start.timestamp)
    elif start.kind == "offsets" and start.reset.name == "EARLIEST":
        offsets: dict = {}
        for tp, offset in start.offsets.items():
            offsets.setdefault(tp.topic, {})[str(tp.partition)] = offset
        options["startingOffsets"] = json.dumps(offsets)
    else:
        return None
    stop = source.stopping_offsets
    if stop is not None and (stop.kind != "latest" or not source.bounded):
        return None
    if batch:
        options["endingOffsets"] = "latest"
    return options


def has_spark_kafka(spark) -> bool:
    """Whether Spark's ``kafka`` format is on the classpath (asked once per session)."""
    known = getattr(spark, "_pystream_spark_kafka", None)
    if known is None:
        try:
            spark.read.format("kafka").load().schema  # noqa: B018 - analysed: Connect is lazy
            known = True
        except Exception as e:  # noqa: BLE001 - missing options mean the format exists
            known = not any(sign in str(e) for sign in (
                "DATA_SOURCE_NOT_FOUND", "KAFKA_DATA_SOURCE_NOT_ENABLED", "Failed to find"))
        try:
            spark._pystream_spark_kafka = known
        except AttributeError:  # pragma: no cover - a session object that refuses attributes
            pass
    return known


def _spark_kafka_df(compiler, options: dict):
    from pyspark.sql import functions as F

    reader = compiler.spark.read if compiler.settings.spark_batch else compiler.spark.readStream
    df = reader.format("kafka").options(**options).load()
    return df.select(F.col("key"), F.col("value"), F.col("topic"),
                     F.col("partition").cast("int").alias("partition"),
                     F.col("offset"),
                     F.lit(None).cast("map<string,binary>").alias("headers"),  # not asked for
                     records.row_kind_column(), F.col("timestamp").alias(TS))


def kafka_source(source: KafkaSource, compiler, node: graph.Source) -> Flow:
    """Spark's ``kafka`` format where it can read the source, pystream's reader otherwise;
    the deserializer runs as the first operator of the Python stage."""
    label = node.meta.label()
    p = node.meta.parallelism or compiler.settings.parallelism
    options = spark_kafka_options(source, compiler.settings.spark_batch)
    if options is not None and has_spark_kafka(compiler.spark):
        df = _spark_kafka_df(compiler, options)
    else:
        df = read_python_source(compiler, KafkaRead(source, label))
    flow = Flow(df=df, layout=Layout(RAW, timestamped=True), type_info=RAW, parallelism=p,
                bounded=source.bounded)
    op = compiler.op(node, "flat_map", KafkaRecordDecoder(source.deserializer, label), p)
    return flow.then(op, node.output_type)


class _WriteEachBatch:
    """The foreachBatch function of a streaming KafkaSink."""

    def __init__(self, stage: KafkaWriteStage):
        self.stage = stage

    def __call__(self, batch_df, batch_id: int) -> None:
        write_batch(batch_df, dataclasses.replace(self.stage, batch_id=batch_id))


def kafka_sink(sink: KafkaSink, compiler, node: graph.Sink) -> SinkPlan:
    """Records sent from a ``mapInArrow`` stage (``runtime.kafka``)."""
    flow: Flow = compiler.flow(node.input)
    p = compiler.parallelism_of(node, flow.parallelism) or flow.parallelism or 1
    flow = compiler.materialize(compiler.repartitioned(flow, p), Layout(flow.type_info))
    stage = KafkaWriteStage(sink, flow.type_info, node.meta.label())
    df = flow.df

    def run_batch() -> None:
        write_batch(df, dataclasses.replace(stage, query=uuid.uuid4().hex[:12]))

    def start_stream(trigger: dict, checkpoint: str) -> RunningQuery:
        write = _WriteEachBatch(dataclasses.replace(stage, query=query_token(checkpoint)))
        query = (df.writeStream.foreachBatch(write).trigger(**trigger)
                 .option("checkpointLocation", checkpoint).start())
        return RunningQuery(query)

    return SinkPlan(node.meta.label(), run_batch, start_stream)
