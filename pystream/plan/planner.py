"""``plan(roots, settings)``: how a job graph runs, decided once, without Spark.

The plan resolves the runtime mode (AUTOMATIC becomes BATCH when every source is bounded),
decides whether a bounded STREAMING job runs on Spark batch DataFrames (``plan.batch``),
chooses the trigger, and cuts the graph into stages as Flink chains operators into tasks:

- a source starts a stage;
- a stateless Python operator joins the stage of its input (its function fuses into that
  stage's one ``mapInArrow``) unless its parallelism differs (``rebalance``), chaining is
  broken (``disable_operator_chaining``, ``start_new_chain``, ``disable_chaining`` on the
  operator before, a ``forward`` partitioning), or its input is a ``key_by`` (``hash(key)``)
  or another partitioning (it runs in that exchange's stage);
- a keyed operator starts a stage reading its input by key (state and timers: Spark's
  ``transformWithState`` when streaming, a sort by key in BATCH mode);
- a union and a partitioning (other than ``forward``) start a stage;
- key selectors, timestamp assigners, side outputs and sinks stay in their input's stage.

The compiler follows these decisions (``Plan.entry``, ``Plan.parallelism_of``) and checks
what it finds at run time (a source's partitions) against them.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Dict, FrozenSet, Iterable, List, Mapping, Optional, Tuple

from pystream import graph
from pystream.core.connectors.client import CollectSink
from pystream.core.connectors.collection import CollectionSource, SocketSource
from pystream.core.connectors.datagen import DataGeneratorSource
from pystream.core.connectors.table import TableSource
from pystream.errors import InvalidProgramError
from pystream.plan.batch import as_batch_reason
from pystream.plan.describe import describe, runs_python
from pystream.plan.settings import JobSettings
from pystream.relational import operations as ops

__all__ = ["Plan", "Stage", "Operator", "plan", "streams_of", "CHAIN", "REBALANCE",
           "CHAIN_BREAK", "HASH", "EXCHANGE"]

# how a stateless operator reads its input (``Plan.entry``)
CHAIN = "chain"  # fused into its input's stage
REBALANCE = "rebalance"  # its parallelism differs: records are redistributed round-robin
CHAIN_BREAK = "forward (chain break)"  # a stage of its own, reading its input as it is
HASH = "hash(key)"  # after key_by: a stage reading its input partitioned by key
EXCHANGE = "exchange"  # after a partitioning: in the stage the partitioning starts

# relational operators whose STREAMING form keeps state across micro-batches
STATEFUL_RELATIONS = (ops.Aggregate, ops.WindowAggregate, ops.Distinct, ops.Join,
                      ops.TemporalJoin, ops.MatchRecognize, ops.SetOp, ops.Sort, ops.Over)


@dataclass(frozen=True)
class Operator:
    """One node of the graph as its stage lists it."""

    node_id: int
    name: str
    text: str
    runs_python: bool


@dataclass(frozen=True)
class Stage:
    """Operators that run together, as a task of Flink's runs a chain of operators.

    ``kind``: source | python (fused Python operators) | keyed (state and timers) | union |
    exchange (a repartitioning); ``reads``: the stages it reads and how.
    """

    number: int
    kind: str
    operators: Tuple[Operator, ...]
    reads: Tuple[Tuple[int, str], ...]
    parallelism: Optional[int]  # None: the source decides (Spark's partitions of its input)


@dataclass(frozen=True, eq=False)
class Plan:
    """How a job runs: every decision the compiler follows and the shell shows.

    ``roots``: the job's sinks (or one stream's node, for previews); ``settings``: the job's
    settings with the mode resolved (``batch``, ``as_batch``).
    """

    roots: Tuple[graph.Node, ...]
    settings: JobSettings
    stages: Tuple[Stage, ...]
    bounded: bool  # every source is bounded: the job ends by itself
    reasons: Tuple[str, ...]  # why the mode, engine and trigger are what they are
    side_tags: Mapping[int, FrozenSet[str]]  # node id -> the side-output tags read from it
    entries: Mapping[int, str]  # stateless node id -> how it reads its input
    parallelisms: Mapping[int, Optional[int]]  # node id -> partitions of its output
    # a Table API or SQL query's plan (``plan.relational``): what runs it, and whether its
    # result is an updating changelog (-U/+U/-D besides +I)
    query: Optional[Any] = None
    updating: bool = False
    # bounded tables the query reads more than once: read once, with what its uses need
    # (``plan.reads.SharedRead``)
    shared_reads: Mapping[Any, Any] = field(
        default_factory=lambda: MappingProxyType({}))

    @property
    def mode(self) -> str:
        """Flink's runtime mode, as the job's semantics follow it."""
        return "BATCH" if self.settings.batch else "STREAMING"

    @property
    def batch(self) -> bool:
        """Whether the job runs on Spark batch DataFrames (else Structured Streaming)."""
        return self.settings.spark_batch

    @property
    def engine(self) -> str:
        return "Spark batch DataFrames" if self.batch else "Spark Structured Streaming"

    @property
    def trigger(self) -> Optional[dict]:
        """The streaming queries' trigger: all available input then stop (bounded), else
        micro-batches as fast as they come or at the checkpoint interval."""
        if self.batch:
            return None
        if self.bounded:
            return {"availableNow": True}
        return {"processingTime": "%d milliseconds" % (self.settings.checkpoint_interval_ms
                                                       or 0)}

    def nodes(self) -> list:
        """The graph's nodes (a query's relational nodes), inputs first."""
        if self.query is not None:
            return list(ops.walk(self.roots[0]))
        return list(graph.walk(list(self.roots)))

    @property
    def keeps_state(self) -> bool:
        """Whether its STREAMING queries keep state between micro-batches: a keyed operator,
        or a table query that aggregates, joins, sorts, matches or windows its rows."""
        if any(stage.kind == "keyed" for stage in self.stages):
            return True
        queries = [self.roots[0]] if self.query is not None else [
            n.source.rel for n in graph.walk(list(self.roots))
            if isinstance(n, graph.Source) and isinstance(n.source, TableSource)]
        return any(isinstance(rel, STATEFUL_RELATIONS) for query in queries
                   for rel in ops.walk(query))

    def entry(self, node: graph.Stateless) -> str:
        """How stateless ``node`` reads its input: CHAIN, REBALANCE, CHAIN_BREAK, HASH or
        EXCHANGE."""
        return self.entries[node.id]

    def parallelism_of(self, node: graph.Node) -> Optional[int]:
        """The partitions of ``node``'s output (None: as many as its source has)."""
        return self.parallelisms[node.id]


def plan(roots: Iterable[graph.Node], settings: JobSettings) -> Plan:
    """The plan of the job whose sinks (or previewed stream) are ``roots``: pure, no Spark.

    >>> plan(env_sinks, settings).stages            # doctest: +SKIP
    """
    roots = tuple(roots)
    nodes = list(graph.walk(list(roots)))
    nested = list(_streams_in_queries(nodes))
    if nested:  # planned with the job: they compile in its compiler
        nodes = list(graph.walk(list(roots) + nested))
    bounded = all(n.bounded for n in nodes if isinstance(n, graph.Source))
    reasons: List[str] = []
    mode = settings.runtime_mode
    if mode is not None:
        batch = mode == "BATCH" or (mode == "AUTOMATIC" and bounded)
        reasons.append(_mode_reason(mode, batch))
        settings = replace(settings, batch=batch)
    settings = replace(settings, as_batch=as_batch_reason(roots, settings))
    if settings.as_batch:
        reasons.append(settings.as_batch)
    elif not settings.batch:
        reasons.append("bounded input: streaming queries read all of it, then stop"
                       if bounded else "unbounded input: streaming queries run until cancelled")
    if not settings.chaining:
        reasons.append("operator chaining disabled: every Python operator is a stage")
    side_tags: Dict[int, set] = {}
    for node in nodes:
        if isinstance(node, graph.SideOutput):
            side_tags.setdefault(node.input.id, set()).add(node.tag.tag_id)
    planner = _Stages(settings, {k: frozenset(v) for k, v in side_tags.items()})
    for node in nodes:
        planner.add(node)
    return Plan(roots=roots, settings=settings, stages=planner.frozen(), bounded=bounded,
                reasons=tuple(reasons), side_tags=MappingProxyType(planner.side_tags),
                entries=MappingProxyType(planner.entries),
                parallelisms=MappingProxyType(planner.parallelism))


def _mode_reason(mode: str, batch: bool) -> str:
    if mode != "AUTOMATIC":
        return "runtime mode %s" % mode
    return "runtime mode AUTOMATIC: %s" % ("every source is bounded, so BATCH" if batch
                                           else "a source is unbounded, so STREAMING")


def _streams_in_queries(nodes: List[graph.Node]) -> Iterable[graph.Node]:
    """The DataStreams that table queries read in a job (``from_data_stream`` in the query of
    a ``TableSource``)."""
    for node in nodes:
        if isinstance(node, graph.Source) and isinstance(node.source, TableSource):
            yield from streams_of(node.source.rel)


def streams_of(query: ops.Rel) -> List[graph.Node]:
    """The graph nodes of the DataStreams a table query reads (``from_data_stream``)."""
    return [rel.node for rel in ops.walk(query)
            if isinstance(rel, ops.StreamScan)]


def source_parallelism(node: graph.Source, settings: JobSettings) -> Optional[int]:
    """A source's partitions: one for sources that read in order (collections, sockets,
    data generators unless set), none known for a table query's rows, else its own or the
    environment's parallelism."""
    if isinstance(node.source, (CollectionSource, SocketSource)):
        return 1
    if isinstance(node.source, DataGeneratorSource):
        return node.meta.parallelism or 1
    if isinstance(node.source, TableSource):
        return None
    return node.meta.parallelism or settings.parallelism


class _Stages:
    """Assigns nodes (inputs first) to stages; records parallelism and entries."""

    def __init__(self, settings: JobSettings, side_tags: Mapping[int, FrozenSet[str]]):
        self.settings = settings
        self.side_tags = dict(side_tags)
        self.parallelism: Dict[int, Optional[int]] = {}
        self.entries: Dict[int, str] = {}
        self.closed: Dict[int, bool] = {}  # the next operator cannot chain to this one
        self.stage_of: Dict[int, dict] = {}
        self.stages: List[dict] = []

    def own(self, node: graph.Node) -> int:
        return node.meta.parallelism or self.settings.parallelism

    def new(self, kind: str, reads=(), parallelism: Optional[int] = None) -> dict:
        stage = {"number": len(self.stages) + 1, "kind": kind, "operators": [],
                 "reads": list(reads), "parallelism": parallelism}
        self.stages.append(stage)
        return stage

    def reads(self, node: graph.Node, how: str) -> Tuple[int, str]:
        return (self.stage_of[node.id]["number"], how)

    def partitioned(self, node: graph.Partition, p: int) -> Optional[int]:
        """The partitions after ``node`` for a reader of parallelism ``p``."""
        if node.strategy == "forward":
            return self.parallelism[node.input.id]
        return 1 if node.strategy == "global" else p

    def check_forward(self, partition: graph.Partition, reader: str, p: int) -> None:
        """Flink's job graph refuses a forward partitioning into another parallelism."""
        before = self.parallelism[partition.input.id]
        if partition.strategy == "forward" and before != p:
            raise InvalidProgramError(
                "Forward partitioning does not allow change of parallelism. Upstream "
                "operation: %s parallelism: %d, downstream operation: %s parallelism: %d You "
                "must use another partitioning strategy, such as broadcast, rebalance, shuffle "
                "or global." % (partition.input.meta.name, before, reader, p))

    def add(self, node: graph.Node) -> None:
        inputs = node.inputs
        up = self.stage_of[inputs[0].id] if inputs else None
        closed = False
        if isinstance(node, graph.Source):
            p = source_parallelism(node, self.settings)
            stage = self.new("source", parallelism=p)
        elif isinstance(node, graph.Stateless):
            stage, p = self.stateless(node, up)
            closed = node.meta.chaining == "disabled"
        elif isinstance(node, graph.Keyed):
            p = self.own(node)
            reads = [self.reads(node.input, HASH)]
            if node.input2 is not None:
                reads.append(self.reads(node.input2, "broadcast" if node.broadcast else HASH))
            stage = self.new("keyed", reads, p)
        elif isinstance(node, graph.Union):
            p = sum(self.parallelism[i.id] or 1 for i in inputs)
            stage = self.new("union", [self.reads(i, "union") for i in inputs], p)
        elif isinstance(node, graph.Partition):
            p = self.partitioned(node, self.own(node))
            closed = True
            stage = up if node.strategy == "forward" else \
                self.new("exchange", [self.reads(node.input, node.strategy)], p)
        elif isinstance(node, graph.KeyBy):
            p, stage = self.own(node), up
        elif isinstance(node, graph.Cache):
            p, stage = self.parallelism[node.input.id], up
            closed = self.settings.batch or self.closed[node.input.id]
        elif isinstance(node, graph.AssignTimestamps):
            p, stage = self.parallelism[node.input.id], up
            closed = node.strategy.timestamp_assigner is None and self.closed[node.input.id]
        else:  # SideOutput, Sink: in the stage of what they read
            p, stage = self.parallelism[node.input.id], up
            if isinstance(node, graph.Sink) and isinstance(node.sink, CollectSink) \
                    and isinstance(node.input, graph.Partition):  # one subtask collects
                self.check_forward(node.input, "Sink: Data stream collect sink", 1)
        if runs_python(node) and stage["kind"] in ("source", "exchange", "union"):
            stage["kind"] = "python"
        stage["operators"].append(Operator(node.id, node.meta.name, describe(node),
                                           runs_python(node)))
        self.stage_of[node.id] = stage
        self.parallelism[node.id] = p
        # a node whose side outputs are read hands its main output on as a new selection
        self.closed[node.id] = closed and node.id not in self.side_tags

    def stateless(self, node: graph.Stateless, up: dict) -> Tuple[dict, int]:
        """A stateless operator's stage and parallelism, and how it reads its input."""
        source = node.input
        p = self.own(node)
        if isinstance(source, graph.Partition):
            before = self.partitioned(source, p)
            self.check_forward(source, node.meta.name, p)
        else:
            before = self.parallelism[source.id]
        if p != before:
            entry = REBALANCE
        elif isinstance(source, graph.Partition) and source.strategy != "forward":
            entry = EXCHANGE
        elif isinstance(source, graph.KeyBy):
            entry = HASH
        elif (self.closed[source.id] or not self.settings.chaining
              or node.meta.chaining in ("new_chain", "disabled")):
            entry = CHAIN_BREAK
        else:
            entry = CHAIN
        self.entries[node.id] = entry
        if entry == CHAIN or entry == EXCHANGE:
            return up, p
        return self.new("python", [self.reads(source, entry)], p), p

    def frozen(self) -> Tuple[Stage, ...]:
        return tuple(Stage(s["number"], s["kind"], tuple(s["operators"]), tuple(s["reads"]),
                           s["parallelism"]) for s in self.stages)
