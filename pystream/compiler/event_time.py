"""``assign_timestamps_and_watermarks``: the record timestamps and the watermark delay.

Timestamps are computed in the fused Python stage (the user's TimestampAssigner) into the
``__ts`` column. Spark's watermark is ``max(__ts) - delay``; Flink's bounded-out-of-orderness
watermark is ``max - bound - 1 ms``, so the delay is ``bound + 1 ms``. The watermark itself is
declared (``withWatermark``) right before each operator that needs event time.
"""
from __future__ import annotations

from dataclasses import replace

from pystream import graph
from pystream.common.typeinfo import Types
from pystream.compiler.flow import Flow
from pystream.compiler.source_helpers import read_python_source
from pystream.runtime import pysource
from pystream.runtime.keyed_stream import END_OF_INPUT_KEY, END_OF_INPUT_MS, INPUT, TS_MILLIS
from pystream.runtime.layout import KEY, SEQ, TS, WM, Layout
from pystream.runtime.records import VALUE_COLUMN


def watermark_delay_ms(strategy) -> int:
    if strategy.kind == "bounded":
        return strategy.max_out_of_orderness_ms + 1
    return 1


def assign_timestamps(compiler, node: graph.AssignTimestamps) -> Flow:
    flow = compiler.flow(node.input)
    strategy = node.strategy
    if strategy.timestamp_assigner is not None:
        op = compiler.op(node, "timestamps", strategy.timestamp_assigner, flow.parallelism)
        # over a bounded input that carries arrivals, one assigner replays Flink's periodic
        # watermarks (``runtime.arrivals``); parallel ones would each have their own
        replays = flow.layout.arrival and strategy.has_watermarks and flow.parallelism == 1
        if replays:
            op = replace(op, emission=(watermark_delay_ms(strategy),
                                       compiler.settings.auto_watermark_interval_ms))
        flow = compiler.materialize(flow.then(op, flow.type_info),
                                    Layout(flow.type_info, timestamped=True, watermarks=replays))
    elif not flow.layout.timestamped:
        flow = compiler.materialize(flow, Layout(flow.type_info, timestamped=True))
    if not strategy.has_watermarks:
        return flow.but(event_time=False, watermark_delay_ms=None, watermarked=False)
    return flow.but(event_time=True, watermark_delay_ms=watermark_delay_ms(strategy),
                    watermarked=False)


def end_of_input_marker(compiler, columns):
    """A streaming DataFrame of one end-of-input marker with ``columns`` (a keyed operator's
    input; see ``pystream.runtime.keyed_stream.END_OF_INPUT_KEY``)."""
    import pyarrow as pa
    from pyspark.sql import functions as F


    sink = pa.BufferOutputStream()
    batch = pa.record_batch([pa.array([0], pa.int64())], names=["value"])
    with pa.ipc.new_stream(sink, batch.schema) as writer:
        writer.write_batch(batch)
    spec = pysource.ArrowRead(Layout(Types.LONG()).spark_schema(), [sink.getvalue().to_pybytes()])
    end = F.lit(END_OF_INPUT_MS)
    fields = {KEY: F.lit(END_OF_INPUT_KEY), VALUE_COLUMN: F.lit(None).cast("binary"),
              TS_MILLIS: end, TS: F.timestamp_millis(end), INPUT: F.lit(0),
              SEQ: F.lit(0).cast("long"), WM: F.lit(None).cast("long")}
    return read_python_source(compiler, spec).select(
        *[fields[name].alias(name) for name in columns])
