"""Whether a STREAMING job may run on Spark batch DataFrames instead of streaming queries.

The configuration key ``pystream.execution.bounded-as-batch`` (default true) allows it.

A bounded STREAMING job whose operators keep no state and see no time prints and collects
exactly what the same job run as a Spark batch job gives, in the same order (a bounded
source is read in one micro-batch either way), without Structured Streaming's seconds of
per-query start. Anything else keeps its streaming queries: keyed state, windows and timers
(STREAMING emits every update), timestamps and watermarks, caches, checkpointing, and sources
or sinks whose streaming behaviour differs (files roll and commit, Kafka keeps offsets).
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

STATELESS_NODES = (graph.Source, graph.Stateless, graph.Union, graph.Partition, graph.KeyBy,
                   graph.SideOutput, graph.Sink)
REPLAYABLE_SINKS = (PrintSink, CollectSink, DiscardingSink)


def as_batch_reason(roots: Iterable[graph.Node], settings: JobSettings) -> Optional[str]:
    """Why the STREAMING job of ``roots`` (its sinks, or a previewed stream) may run as a
    Spark batch job, or None if it may not."""
    if settings.batch or settings.checkpoint_interval_ms or not settings.may_run_as_batch:
        return None
    for node in graph.walk(list(roots)):
        if not isinstance(node, STATELESS_NODES):
            return None
        if isinstance(node, graph.Source) and not _fixed_records(node.source):
            return None
        if isinstance(node, graph.Sink) and not isinstance(node.sink, REPLAYABLE_SINKS):
            return None
    return ("bounded input and no state or time: run as a Spark batch job, the same "
            "records in the same order without a streaming query's start")


def _fixed_records(source) -> bool:
    """A bounded source that produces its records at once."""
    if isinstance(source, (CollectionSource, NumberSequenceSource)):
        return True
    return isinstance(source, DataGeneratorSource) and source.count is not None \
        and not source.rows_per_second
