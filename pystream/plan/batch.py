"""Whether a STREAMING job may run on Spark batch DataFrames instead of streaming queries.

The configuration key ``pystream.execution.bounded-as-batch`` (default true) allows it.

A bounded STREAMING job whose operators see no time prints and collects exactly what the
same job run as a Spark batch job gives, in the same order (a bounded source is read in one
micro-batch either way), without Structured Streaming's seconds of per-query start. Its keyed
operators keep their STREAMING semantics there (every update emitted, records of each key in
arrival order; ``runtime.keyed_batch.BoundedKeyedStage``): what transformWithState does in
that one micro-batch. Anything else keeps its streaming queries: timers and windows of time,
broadcast state (its order against the keyed input is the arrival's), timestamps and
watermarks, caches, checkpointing, and sources or sinks whose streaming behaviour differs
(files roll and commit, Kafka keeps offsets).
"""
from __future__ import annotations

from typing import Iterable, Optional

from pystream import graph
from pystream.datastream.connectors.client import CollectSink, PrintSink
from pystream.datastream.connectors.collection import CollectionSource
from pystream.datastream.connectors.datagen import DataGeneratorSource
from pystream.datastream.connectors.discarding import DiscardingSink
from pystream.datastream.connectors.number_seq import NumberSequenceSource
from pystream.plan.settings import JobSettings

TIMELESS_NODES = (graph.Source, graph.Stateless, graph.Union, graph.Partition, graph.KeyBy,
                  graph.SideOutput, graph.Sink, graph.Keyed)
REPLAYABLE_SINKS = (PrintSink, CollectSink, DiscardingSink)


def as_batch_reason(roots: Iterable[graph.Node], settings: JobSettings) -> Optional[str]:
    """Why the STREAMING job of ``roots`` (its sinks, or a previewed stream) may run as a
    Spark batch job, or None if it may not."""
    if settings.batch or settings.checkpoint_interval_ms or not settings.may_run_as_batch:
        return None
    for node in graph.walk(list(roots)):
        if not isinstance(node, TIMELESS_NODES):
            return None
        if isinstance(node, graph.Keyed) and (node.broadcast or uses_timers(node)):
            return None
        if isinstance(node, graph.Source) and not _fixed_records(node.source):
            return None
        if isinstance(node, graph.Sink) and not isinstance(node.sink, REPLAYABLE_SINKS):
            return None
    return ("bounded input and no time: run as a Spark batch job, the same records in the "
            "same order without a streaming query's start")


def _fixed_records(source) -> bool:
    """A bounded source that produces its records at once."""
    if isinstance(source, (CollectionSource, NumberSequenceSource)):
        return True
    return isinstance(source, DataGeneratorSource) and source.count is not None \
        and not source.rows_per_second


def uses_timers(node: graph.Keyed) -> bool:
    """Whether a keyed operator needs timers: it names a time domain, or its function
    defines its own ``on_timer`` (not the base class's no-op); pystream's own functions say
    which timers they use in ``streaming_time_domain``."""
    from pystream.datastream.functions import (
        KeyedBroadcastProcessFunction,
        KeyedCoProcessFunction,
        KeyedProcessFunction,
        overrides,
    )

    function = node.function
    if node.time_domain is not None:
        return True
    if hasattr(function, "streaming_time_domain"):
        return function.streaming_time_domain is not None
    for base in (KeyedProcessFunction, KeyedCoProcessFunction, KeyedBroadcastProcessFunction):
        if isinstance(function, base):
            return overrides(function, base, "on_timer")
    return callable(getattr(function, "on_timer", None))
