"""``plan_query(rel, settings)``: the plan of a Table API or SQL query, without Spark.

The same ``Plan`` as a DataStream job's, so the shell renders both halves alike. Relational
stages keep their own expression trees (they become Spark expressions when the plan runs,
in ``pystream.compiler.relational``):

- a scan starts a stage;
- projections and filters run in the stage they read, as Spark expressions, unless they
  call a Python UDF (then the stage runs Python: Arrow batches through the user's function);
- aggregations, joins, set operations, sorts and over-windows start a stage reading their
  input shuffled by key (in STREAMING mode, with state: their results are a changelog).
"""
from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Any, Dict, List, Optional, Tuple

from pystream import graph
from pystream.plan.planner import Operator, Plan, Stage
from pystream.plan.reads import shared_reads
from pystream.plan.settings import JobSettings
from pystream.relational import expressions as ex
from pystream.relational import operations as ops
from pystream.relational.explain import describe
from pystream.relational.time_bounded import (
    groups_by_window,
    is_interval_join,
    is_window_join,
    is_window_ranking,
)
from pystream.util.exceptions import TableException

__all__ = ["plan_query", "calls_python", "is_bounded", "is_updating", "by_proctime",
           "rank_filter",
           "streams_over", "one_window", "time_ordered",
           "by_rowtime"]

# relational operators that start a stage, and how they read their input
SHUFFLES = {
    ops.Aggregate: ("aggregate", "hash(group keys)"),
    ops.WindowAggregate: ("window aggregate", "hash(group keys)"),
    ops.Distinct: ("aggregate", "hash(all fields)"),
    ops.Join: ("join", "hash(join keys)"),
    ops.TemporalJoin: ("temporal join", "hash(join keys)"),
    ops.MatchRecognize: ("pattern match", "hash(partition keys)"),
    ops.SetOp: ("set operation", "hash(all fields)"),
    ops.Sort: ("sort", "range(sort keys)"),
    ops.Over: ("over window", "hash(partition keys)"),
}


def calls_python(node: ops.Rel) -> bool:
    """Whether ``node`` calls a user's Python function (a UDF, UDTF or UDAF)."""
    exprs: List[ex.Expr] = []
    for name in ("exprs", "aggregates", "keys", "properties"):
        exprs += list(getattr(node, name, ()) or ())
    for name in ("condition", "call"):
        value = getattr(node, name, None)
        if value is not None:
            exprs.append(value)
    return any(isinstance(e, ex.UserCall) for expr in exprs for e in ex.walk(expr))


def is_updating(node: ops.Rel, streaming: bool, unbounded: bool = False) -> bool:
    """Whether ``node`` emits updates (-U/+U/-D) in STREAMING mode (Flink's changelog mode),
    over ``unbounded`` tables or bounded ones."""
    if not streaming:
        return False
    if isinstance(node, ops.Aggregate) and node.aggregates and not unbounded and \
            groups_by_window(node) and not is_updating(node.input, streaming, unbounded):
        return False  # a cascaded window aggregate: each window once, when it closes
    if isinstance(node, (ops.Aggregate, ops.Distinct, ops.FromChangelog)):
        return True
    if isinstance(node, ops.ToChangelog):
        return False
    if isinstance(node, ops.ConnectorScan) and node.options.get("connector") == "upsert-kafka":
        return not node.bounded
    if isinstance(node, ops.ConnectorScan) and reads_changelog(node.options):
        return True
    if isinstance(node, ops.StreamScan):
        return node.changelog  # from_changelog_stream: each Row's kind
    if isinstance(node, ops.SetOp) and (node.kind != "union" or not node.all):
        return True
    if isinstance(node, ops.Join) and node.kind in ("left", "right", "full") and not (
            is_interval_join(node) or is_window_join(node)):
        return True
    if isinstance(node, ops.Over) and not is_window_ranking(node) and any(
            _ranks_updating(a.expr, node.input.schema) for a in node.aggregates):
        return True
    if isinstance(node, ops.Over) and not unbounded and not any(
            getattr(_over_call(a).agg, "name", None) in _RANKINGS for a in node.aggregates):
        return False  # each row once; of an updating input, the rows its changes leave
    if isinstance(node, ops.Sort) and node.keys and node.fetch is not None:  # a Top-N
        return True
    if isinstance(node, ops.Filter) and _keeps_ranks_over_one(node):
        return True  # a Top-N by time (to rank 1 by time ascending: deduplication)
    if isinstance(node, ops.TemporalJoin):  # each row joined once: as its left side
        return is_updating(node.left, streaming, unbounded)
    return any(is_updating(i, streaming, unbounded) for i in node.inputs)


def _keeps_ranks_over_one(node: ops.Rel) -> bool:
    """A rank filter (``rank_filter``) over a ranking by time that keeps more than rank 1."""
    found = rank_filter(node)
    return found is not None and found[1] > 1 and not is_window_ranking(found[0])


def rank_filter(node: ops.Filter) -> Optional[Tuple[ops.Over, int, str]]:
    """``WHERE rn <= N`` (or ``rn < N + 1``, ``rn = 1``) over a ROW_NUMBER, the only aggregate
    of its Over node, read directly or through a projection that keeps it: the Over node, N
    and the rank's name at the filter (Top-N, or deduplication in STREAMING mode). None for
    any other filter."""
    condition = node.condition
    if not (isinstance(condition, ex.Call) and len(condition.args) == 2
            and isinstance(condition.args[0], ex.Column)
            and isinstance(condition.args[1], ex.Literal)
            and isinstance(condition.args[1].value, int)):
        return None
    value = condition.args[1].value
    n = {"equals": 1 if value == 1 else None, "less_than_or_equal": value,
         "less_than": value - 1}.get(condition.name)
    if not n or n < 1:
        return None
    name = rank = condition.args[0].name
    over = node.input
    if isinstance(over, ops.Project) and over.schema.has(rank):
        expr = _over_call(over.exprs[over.schema.names.index(rank)])
        if not isinstance(expr, ex.Column):
            return None
        rank, over = expr.name, over.input
    if not (isinstance(over, ops.Over) and len(over.aggregates) == 1
            and over.schema.names[-1] == rank):
        return None
    call = _over_call(over.aggregates[0].expr)
    if isinstance(call, ex.OverCall) and getattr(call.agg, "name", None) == "row_number":
        return over, n, name
    return None


CHANGELOG_FORMATS = ("debezium-json", "canal-json", "maxwell-json")


def reads_changelog(options) -> bool:
    """Whether a table of these connector options holds a changelog (a changelog format)."""
    return (options.get("value.format") or options.get("format")) in CHANGELOG_FORMATS


_RANKINGS = ("row_number", "rank", "dense_rank")


def _over_call(aggregate: ex.Expr) -> ex.OverCall:
    return aggregate.expr if isinstance(aggregate, ex.Alias) else aggregate


def _ranks_updating(expr: ex.Expr, schema) -> bool:
    """A ranking over a window (Top-N, or deduplication keeping the last row) updates its
    result as rows arrive; ROW_NUMBER ascending on a time attribute keeps each key's first
    row (deduplication, append-only: on event time, once the watermark passes it)."""
    call = _over_call(expr)
    if not (isinstance(call, ex.OverCall) and getattr(call.agg, "name", None) in _RANKINGS):
        return False
    order = call.window.order_by
    by_time = _time_of_order(order, schema) is not None
    return not (call.agg.name == "row_number" and order[0].ascending and by_time)


def _time_of_order(order: Tuple[ex.Ordering, ...], schema) -> Optional[str]:
    """``"rowtime"`` or ``"proctime"`` when ``order`` is by one time attribute alone
    (``PROCTIME()`` itself too, as Flink's docs write deduplication)."""
    if len(order) == 1 and isinstance(order[0].expr, ex.Call) \
            and order[0].expr.name == "proctime":
        return "proctime"
    if len(order) != 1 or not isinstance(order[0].expr, ex.Column) \
            or not schema.has(order[0].expr.name):
        return None
    return schema.field(order[0].expr.name).time or None


def by_proctime(expr: ex.Expr, schema) -> bool:
    """A ranking ordered by a processing-time attribute alone (deduplication)."""
    return _time_of_order(_over_call(expr).window.order_by, schema) == "proctime"


def _replays_ranking(node: ops.Rel) -> bool:
    """A STREAMING Top-N: each partition's ranking is replayed in Python."""
    return isinstance(node, ops.Over) and not is_window_ranking(node) and \
        not by_rowtime(node) and any(
            _ranks_updating(a.expr, node.input.schema)
            and not by_proctime(a.expr, node.input.schema) for a in node.aggregates)


_NOT_ONE_WINDOW = ("Over Agg: Unsupported use of OVER windows. All aggregates must be computed "
                   "on the same window. please re-check the over window statement.")


def one_window(over: ops.Over):
    """The window all of ``over``'s aggregates are over (Flink's streaming over aggregate
    takes one: else its error)."""
    windows = {(w.partition_by, w.order_by, w.rows, w.preceding, w.following)
               for w in (_over_call(a).window for a in over.aggregates)}
    if len(windows) > 1:
        raise TableException(_NOT_ONE_WINDOW)
    return _over_call(over.aggregates[0]).window


def time_ordered(over: ops.Over) -> Optional[str]:
    """``"rowtime"`` or ``"proctime"`` when ``over``'s window is ordered by a time attribute
    alone, ascending, up to the current row (what Flink runs in STREAMING mode); else None."""
    window = _over_call(over.aggregates[0]).window
    if window.following not in (0, None) or not all(o.ascending for o in window.order_by):
        return None
    return _time_of_order(window.order_by, over.input.schema)


def streams_over(over: ops.Over, unbounded: bool) -> bool:
    """Whether ``over`` runs as Flink's streaming over aggregate in STREAMING mode
    (``compiler.time_ordered``, in Python): aggregates OVER one window ordered by a time
    attribute, over an unbounded table; over a bounded one, by the rowtime with built-in
    aggregates only (processing time and Python aggregate functions run as Spark window
    functions there)."""
    calls = [_over_call(a) for a in over.aggregates]
    if is_window_ranking(over) or any(getattr(c.agg, "name", None) in _RANKINGS
                                      for c in calls):
        return False
    one_window(over)
    time = time_ordered(over)
    if time is None:
        return False
    return unbounded or (time == "rowtime" and
                         not any(isinstance(c.agg, ex.UserCall) for c in calls))


def by_rowtime(over: ops.Over) -> bool:
    """A ROW_NUMBER ordered by an event-time attribute alone (deduplication on event time)."""
    window = _over_call(over.aggregates[0].expr).window
    return _time_of_order(window.order_by, over.input.schema) == "rowtime"


def is_bounded(node: ops.Rel) -> bool:
    """Whether the rows a scan reads end (a connector's bounded table, a DataStream whose
    sources all end)."""
    if isinstance(node, ops.ConnectorScan):
        return node.bounded
    if isinstance(node, ops.StreamScan):
        return all(n.bounded for n in graph.walk([node.node])
                   if isinstance(n, graph.Source))
    return True


def plan_query(rel: ops.Rel, settings: JobSettings, query: Optional[Any] = None) -> Plan:
    """The plan of query ``rel`` with ``settings`` (``batch``: BATCH mode); ``query`` is what
    runs it (``pystream.table.planning.TableQuery``). Pure: no Spark."""
    nodes = list(ops.walk(rel))
    bounded = all(is_bounded(n) for n in nodes)
    reasons = ["runtime mode %s" % ("BATCH" if settings.batch else "STREAMING")]
    updating = is_updating(rel, streaming=not settings.batch, unbounded=not bounded)
    if settings.batch:
        reasons.append("bounded tables: Spark batch DataFrames, the final rows")
    elif bounded:
        reasons.append("bounded tables: the changelog is computed on Spark batch DataFrames%s"
                       % (" (+I/-U/+U/-D)" if updating else " (+I only)"))
    else:
        settings = replace(settings, as_batch=None)
        reasons.append("unbounded tables: a streaming query, %s" % (
            "its changelog emitted as it updates" if updating else "insert-only"))
    if bounded and not settings.batch:
        settings = replace(settings, as_batch=reasons[-1])
    shared = shared_reads(rel) if bounded else {}
    for (table, _), read in shared.items():
        reasons.append("table '%s' is read once for all its uses when the query runs to its "
                       "end and a sample shows they keep a quarter of its rows or less, into "
                       "Spark's cache (%s)" % (table, read.describe()))
    stages: List[dict] = []
    stage_of: Dict[int, dict] = {}
    for node in nodes:
        python = calls_python(node) or isinstance(node, ops.MatchRecognize) or (
            not settings.batch and (_replays_ranking(node) or (
                isinstance(node, ops.Over) and streams_over(node, not bounded))))
        if not node.inputs:
            stage = {"kind": "source", "reads": []}
            stages.append(stage)
        elif type(node) in SHUFFLES:
            kind, how = SHUFFLES[type(node)]
            stage = {"kind": kind, "reads": [(stage_of[id(i)]["number"], how)
                                             for i in node.inputs]}
            stages.append(stage)
        else:
            stage = stage_of[id(node.inputs[0])]
        stage.setdefault("number", len(stages))
        stage.setdefault("operators", []).append(
            Operator(id(node), type(node).__name__, describe(node), python))
        if python and stage["kind"] == "source":
            stage["kind"] = "python udf"
        stage_of[id(node)] = stage
    frozen = tuple(Stage(s["number"], s["kind"], tuple(s["operators"]), tuple(s["reads"]),
                         settings.parallelism) for s in stages)
    empty: MappingProxyType = MappingProxyType({})
    return Plan(roots=(rel,), settings=settings, stages=frozen, bounded=bounded,
                reasons=tuple(reasons), side_tags=empty, entries=empty, parallelisms=empty,
                query=query, updating=updating, shared_reads=MappingProxyType(shared))
