"""Whether a STREAMING job may run on Spark batch DataFrames instead of streaming queries.

The configuration key ``pystream.execution.bounded-as-batch`` (default true) allows it.

A bounded STREAMING job over fixed records (collections, number sequences, generators with
a count) prints and collects what the same job run as a Spark batch job gives, in the same
order (Spark reads such a source in one micro-batch either way), without Structured
Streaming's seconds of per-query start. Its keyed operators keep their STREAMING semantics
there (``runtime.keyed_batch.BoundedKeyedStage``): every update emitted, each key's records
in arrival order, event-time timers fired as the watermark each record came with passes them
and the rest at the end: what transformWithState does in the input's micro-batch and in the
one after it. Anything else keeps its streaming queries: timers without event time (windows
of processing time, a function's timers over records without watermarks), an operator with
timers downstream of another, broadcast state (its order
against the keyed input is the arrival's), caches, checkpointing, and sources or sinks whose
streaming behaviour differs (files roll and commit, Kafka keeps offsets).
"""
from __future__ import annotations

from typing import Dict, Iterable, Optional, Set

from pystream import graph
from pystream.core.connectors.client import CollectSink, PrintSink
from pystream.core.connectors.collection import CollectionSource
from pystream.core.connectors.datagen import DataGeneratorSource
from pystream.core.connectors.discarding import DiscardingSink
from pystream.core.connectors.number_seq import NumberSequenceSource
from pystream.core.functions import (
    KeyedBroadcastProcessFunction,
    KeyedCoProcessFunction,
    KeyedProcessFunction,
    overrides,
)
from pystream.plan.settings import JobSettings

BATCHABLE_NODES = (graph.Source, graph.Stateless, graph.Union, graph.Partition, graph.KeyBy,
                   graph.SideOutput, graph.Sink, graph.Keyed, graph.AssignTimestamps)
REPLAYABLE_SINKS = (PrintSink, CollectSink, DiscardingSink)


def as_batch_reason(roots: Iterable[graph.Node], settings: JobSettings) -> Optional[str]:
    """Why the STREAMING job of ``roots`` (its sinks, or a previewed stream) may run as a
    Spark batch job, or None if it may not."""
    if settings.batch or settings.checkpoint_interval_ms or not settings.may_run_as_batch:
        return None
    event_time: Dict[int, bool] = {}  # node id -> its records have event time
    after_timers: Set[int] = set()  # the nodes downstream of an operator with timers
    for node in graph.walk(list(roots)):
        if not isinstance(node, BATCHABLE_NODES):
            return None
        if isinstance(node, graph.Source) and not _fixed_records(node.source):
            return None
        if isinstance(node, graph.Sink) and not isinstance(node.sink, REPLAYABLE_SINKS):
            return None
        inputs = node.inputs
        if any(i.id in after_timers for i in inputs):
            after_timers.add(node.id)
        if isinstance(node, graph.AssignTimestamps):
            event_time[node.id] = node.strategy.has_watermarks
        else:
            event_time[node.id] = bool(inputs) and all(event_time[i.id] for i in inputs)
        if isinstance(node, graph.Keyed) and not _replayable_keyed(
                node, event_time[node.input.id], node.id in after_timers):
            return None
        if isinstance(node, graph.Keyed) and uses_timers(node):
            after_timers.add(node.id)
    return ("bounded input read at once: run as a Spark batch job, the same records in the "
            "same order without a streaming query's start")


def _replayable_keyed(node: graph.Keyed, event_time: bool, after_timers: bool) -> bool:
    """Whether a batch stage gives what a keyed operator's streaming queries give: without
    timers; or with timers over records with watermarks, where Spark's timers are of event
    time (processing-time ones fire when the key is visited, in both), and no operator with
    timers upstream (its input's records then all come in the input's micro-batch, before
    the final watermark). Broadcast state keeps its streaming query (its order against the
    keyed input is the arrival's)."""
    if node.broadcast:
        return False
    if not uses_timers(node):
        return True
    return node.time_domain != "processing" and event_time and not after_timers


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
    function = node.function
    if node.time_domain is not None:
        return True
    if hasattr(function, "streaming_time_domain"):
        return function.streaming_time_domain is not None
    for base in (KeyedProcessFunction, KeyedCoProcessFunction, KeyedBroadcastProcessFunction):
        if isinstance(function, base):
            return overrides(function, base, "on_timer")
    return callable(getattr(function, "on_timer", None))


def registers_event_timers_only(node: graph.Keyed) -> bool:
    """Whether a keyed operator's function registers event-time timers and never
    processing-time ones, as its methods' code reads (a function that names neither, or
    both, is not known to)."""
    names: Set[str] = set()
    for attribute in vars(type(node.function)).values():
        code = getattr(attribute, "__code__", None)
        if code is not None:
            names |= _names_in(code)
    return "register_event_time_timer" in names and \
        "register_processing_time_timer" not in names


def _names_in(code) -> Set[str]:
    """The attribute and global names ``code`` and the functions defined in it use."""
    names = set(code.co_names)
    for constant in code.co_consts:
        if hasattr(constant, "co_names"):
            names |= _names_in(constant)
    return names
