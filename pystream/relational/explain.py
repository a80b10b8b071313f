"""A relational tree as text, in the shape of Flink's plans (``Table.explain()``)."""
from __future__ import annotations

from typing import List

from pystream.relational import operations as ops
from pystream.relational.printing import expression_string
from pystream.relational.time_bounded import is_interval_join, is_window_join

__all__ = ["explain", "describe"]


def describe(node: ops.Rel) -> str:
    """One line for one node: ``Calc(select=[a, plus(b, 1) AS c])``."""
    if isinstance(node, ops.Values):
        return "Values(tuples=[%d rows], fields=[%s])" % (len(node.rows),
                                                          ", ".join(node.schema.names))
    if isinstance(node, ops.ConnectorScan):
        return "TableSourceScan(table=[[%s]], fields=[%s])" % (node.name,
                                                               ", ".join(node.schema.names))
    if isinstance(node, ops.Project):
        items = ", ".join(_named(e, n) for e, n in zip(node.exprs, node.schema.names))
        return "Calc(select=[%s])" % items
    if isinstance(node, ops.Filter):
        return "Calc(where=[%s])" % expression_string(node.condition)
    if isinstance(node, (ops.Aggregate, ops.WindowAggregate)):
        kind = "GroupAggregate" if isinstance(node, ops.Aggregate) else "GroupWindowAggregate"
        keys = ", ".join(expression_string(k) for k in node.keys)
        aggs = ", ".join(_named(a.expr, a.names[0]) for a in node.aggregates)
        return "%s(groupBy=[%s], select=[%s])" % (kind, keys, aggs)
    if isinstance(node, ops.TableAggregateRows):
        return "TableAggregateRows(select=[%s])" % ", ".join(node.schema.names)
    if isinstance(node, ops.WindowTable):
        w = node.window
        sizes = ", ".join("%s=[%d ms]" % (k, getattr(w, k))
                          for k in ("slide", "size", "gap") if getattr(w, k) is not None)
        return "WindowTableFunction(window=[%s(time_col=[%s], %s)])" % (
            w.kind.upper(), w.time_field, sizes)
    if isinstance(node, ops.Join):
        cond = expression_string(node.condition) if node.condition is not None else "true"
        kind = "IntervalJoin" if is_interval_join(node) else \
            "WindowJoin" if is_window_join(node) else "Join"
        return "%s(joinType=[%s], where=[%s])" % (kind, node.kind.upper(), cond)
    if isinstance(node, ops.TemporalJoin):
        return "%s(joinType=[%s], time=[%s], where=[%s])" % (
            "LookupJoin" if node.lookup else "TemporalJoin", node.kind.upper(),
            node.time_field, expression_string(node.condition))
    if isinstance(node, ops.MatchRecognize):
        pattern = " ".join("%s{%d,%s}%s" % (v, lo, "" if hi is None else hi,
                                            "" if greedy else "?")
                           for v, lo, hi, greedy in node.pattern)
        return "Match(partitionBy=[%s], orderBy=[%s], pattern=[%s], after=[%s])" % (
            ", ".join(node.partition_by), expression_string(node.order_by[0].expr),
            pattern, node.after)
    if isinstance(node, ops.SetOp):
        return "%s(all=[%s])" % (node.kind.capitalize(), str(node.all).lower())
    if isinstance(node, ops.Sort):
        keys = ", ".join(expression_string(k) for k in node.keys)
        return "Sort(orderBy=[%s], offset=[%d], fetch=[%s])" % (keys, node.offset, node.fetch)
    if isinstance(node, ops.Over):
        return "OverAggregate(select=[%s])" % ", ".join(
            _named(a.expr, a.names[0]) for a in node.aggregates)
    if isinstance(node, ops.ToChangelog):
        return "ToChangelog(op=[op])"
    if isinstance(node, ops.FromChangelog):
        return "FromChangelog(op=[%s])" % node.op
    return type(node).__name__


def _named(expr, name: str) -> str:
    text = expression_string(expr)
    return text if text == name else "%s AS %s" % (text, name)


def explain(root: ops.Rel) -> str:
    """The tree, root first, each input indented below the node that reads it."""
    lines: List[str] = ["== Abstract Syntax Tree =="]

    def visit(node: ops.Rel, depth: int) -> None:
        lines.append("%s%s" % ("+- " if depth else "", describe(node)) if depth == 0 else
                     "%s+- %s" % (":  " * (depth - 1), describe(node)))
        for child in node.inputs:
            visit(child, depth + 1)

    visit(root, 0)
    return "\n".join(lines)
