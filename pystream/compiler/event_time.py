"""``assign_timestamps_and_watermarks``: the record timestamps and the watermark delay.

Timestamps are computed in the fused Python stage (the user's TimestampAssigner) into the
``__ts`` column. Spark's watermark is ``max(__ts) - delay``; Flink's bounded-out-of-orderness
watermark is ``max - bound - 1 ms``, so the delay is ``bound + 1 ms``. The watermark itself is
declared (``withWatermark``) right before each operator that needs event time.
"""
from __future__ import annotations

from pystream import graph
from pystream.compiler.flow import Flow
from pystream.runtime.layout import Layout


def watermark_delay_ms(strategy) -> int:
    if strategy.kind == "bounded":
        return strategy.max_out_of_orderness_ms + 1
    return 1


def assign_timestamps(compiler, node: graph.AssignTimestamps) -> Flow:
    flow = compiler.flow(node.input)
    strategy = node.strategy
    if strategy.timestamp_assigner is not None:
        op = compiler.op(node, "timestamps", strategy.timestamp_assigner, flow.parallelism)
        flow = compiler.materialize(flow.then(op, flow.type_info),
                                    Layout(flow.type_info, timestamped=True))
    elif not flow.layout.timestamped:
        flow = compiler.materialize(flow, Layout(flow.type_info, timestamped=True))
    if not strategy.has_watermarks:
        return flow.but(event_time=False, watermark_delay_ms=None)
    return flow.but(event_time=True, watermark_delay_ms=watermark_delay_ms(strategy))
