"""KafkaSource and KafkaSink (and the legacy consumer / producer) on Spark.

The source is the ``pystream`` Python data source with ``runtime.kafka.KafkaRead``: Kafka
offsets are the stream's offsets, kept in the checkpoint. The deserializer runs as the first
operator of the fused Python stage. The sink sends records from a ``mapInArrow`` stage, per
micro-batch through ``foreachBatch``.
"""
from __future__ import annotations

from pystream import graph
from pystream.compiler.flow import Flow
from pystream.compiler.sinks import RunningQuery, SinkPlan, sink_plan
from pystream.compiler.sources import read_python_source, translate_source
from pystream.datastream.connectors.kafka import KafkaSink, KafkaSource
from pystream.runtime.kafka import RAW, KafkaRead, KafkaRecordDecoder, KafkaWriteStage, write_batch
from pystream.runtime.layout import Layout


@translate_source.register
def _kafka_source(source: KafkaSource, compiler, node: graph.Source) -> Flow:
    label = node.meta.label()
    p = node.meta.parallelism or compiler.settings.parallelism
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
        write_batch(batch_df, self.stage)


@sink_plan.register
def _kafka_sink(sink: KafkaSink, compiler, node: graph.Sink) -> SinkPlan:
    flow: Flow = compiler.flow(node.input)
    p = compiler.parallelism_of(node, flow.parallelism) or flow.parallelism or 1
    flow = compiler.materialize(compiler.repartitioned(flow, p), Layout(flow.type_info))
    stage = KafkaWriteStage(sink, flow.type_info, node.meta.label())
    df = flow.df

    def start_stream(trigger: dict, checkpoint: str) -> RunningQuery:
        query = (df.writeStream.foreachBatch(_WriteEachBatch(stage)).trigger(**trigger)
                 .option("checkpointLocation", checkpoint).start())
        return RunningQuery(query)

    return SinkPlan(node.meta.label(), lambda: write_batch(df, stage), start_stream)
