"""Expressions and relational nodes as text (``str(expr)``, ``explain()``), in Flink's style."""
from __future__ import annotations

from pystream.relational import expressions as ex

__all__ = ["expression_string"]


def expression_string(node: ex.Expr) -> str:
    """Flink's summary string of an expression: ``plus(a, 1)``, ``as(sum(b), 'total')``."""
    if isinstance(node, ex.Column):
        return node.name
    if isinstance(node, ex.Literal):
        return "'%s'" % node.value if isinstance(node.value, str) else str(node.value)
    if isinstance(node, ex.Alias):
        names = ", ".join("'%s'" % n for n in node.names)
        return "as(%s, %s)" % (expression_string(node.expr), names)
    if isinstance(node, ex.Cast):
        return "%s(%s, %s)" % ("tryCast" if node.safe else "cast", expression_string(node.expr),
                               node.to.summary_string())
    if isinstance(node, ex.Call):
        args = ", ".join(expression_string(a) for a in node.args)
        return "%s(%s%s)" % (node.name, "DISTINCT " if node.distinct else "", args)
    if isinstance(node, ex.Ordering):
        return "%s(%s)" % ("asc" if node.ascending else "desc", expression_string(node.expr))
    if isinstance(node, ex.OverCall):
        return "over(%s, %s)" % (expression_string(node.agg), getattr(node.window, "alias", ""))
    if isinstance(node, ex.Star):
        return "*"
    if isinstance(node, (ex.Symbol, ex.WindowRef)):
        return getattr(node, "name", None) or node.alias
    if isinstance(node, ex.UserCall):
        name = getattr(node.function, "name", None)
        name = name() if callable(name) else name or type(node.function).__name__
        return "%s(%s)" % (name, ", ".join(expression_string(a) for a in node.args))
    return repr(node)
