"""JdbcSink on Spark: the statement runs from a ``mapInArrow`` stage, per micro-batch through
``foreachBatch`` (see ``runtime.jdbc``)."""
from __future__ import annotations

from pystream import graph
from pystream.compiler.flow import Flow
from pystream.compiler.sink_helpers import RunningQuery, SinkPlan
from pystream.core.connectors.jdbc import JdbcSink
from pystream.runtime.jdbc import JdbcWriteStage, write_batch
from pystream.runtime.layout import Layout


class _WriteEachBatch:
    """The foreachBatch function of a streaming JdbcSink."""

    def __init__(self, stage: JdbcWriteStage):
        self.stage = stage

    def __call__(self, batch_df, batch_id: int) -> None:
        write_batch(batch_df, self.stage)


def jdbc_sink(sink: JdbcSink, compiler, node: graph.Sink) -> SinkPlan:
    """The statement run for each record, from a ``mapInArrow`` stage."""
    flow: Flow = compiler.flow(node.input)
    p = compiler.parallelism_of(node, flow.parallelism) or flow.parallelism or 1
    flow = compiler.materialize(compiler.repartitioned(flow, p), Layout(flow.type_info))
    stage = JdbcWriteStage(sink, flow.type_info, node.meta.label())
    df = flow.df

    def start_stream(trigger: dict, checkpoint: str) -> RunningQuery:
        query = (df.writeStream.foreachBatch(_WriteEachBatch(stage)).trigger(**trigger)
                 .option("checkpointLocation", checkpoint).start())
        return RunningQuery(query)

    return SinkPlan(node.meta.label(), lambda: write_batch(df, stage), start_stream)
