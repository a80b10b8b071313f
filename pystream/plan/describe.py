"""Operators as one line of text each, for a Plan's stages (what ``%explain`` prints)."""
from __future__ import annotations

from pystream import graph

__all__ = ["describe", "function_name", "keyed_function", "runs_python"]


def function_name(fn) -> str:
    """``parse``, ``Parser.map``, ``<lambda>`` or the class of a function object."""
    name = getattr(fn, "__qualname__", None) or ""
    if not name or "<locals>" in name:
        name = getattr(fn, "__name__", None) or ""
    return name or type(fn).__name__


def describe(node: graph.Node) -> str:
    """One operator: ``Map · parse (job.py:12) · parallelism 2``."""
    origin = " (%s)" % node.meta.origin if node.meta.origin else ""
    if node.meta.parallelism:
        origin += " · parallelism %d" % node.meta.parallelism
    if isinstance(node, graph.Source):
        name = node.meta.name if node.meta.name.startswith("Source:") else \
            "Source: " + node.meta.name
        return "%s · %r · %s%s" % (name, node.source,
                                   "bounded" if node.bounded else "unbounded", origin)
    if isinstance(node, graph.Stateless):
        return "%s · %s%s" % (node.meta.name, function_name(node.fn), origin)
    if isinstance(node, graph.KeyBy):
        return "KeyBy · %s%s" % (function_name(node.key_selector), origin)
    if isinstance(node, graph.Keyed):
        return "%s · %s%s" % (node.meta.name, keyed_function(node.function), origin)
    if isinstance(node, graph.AssignTimestamps):
        return "Timestamps/Watermarks · %r%s" % (node.strategy, origin)
    if isinstance(node, graph.Sink):
        return "Sink: %s · %r" % (node.meta.name, node.sink)
    return "%s%s" % (node.meta.name, origin)


def keyed_function(function) -> str:
    """A keyed operator's function: the user's class, pystream's adapter around the user's
    function (``RollingReduce(add)``), or a window's assigner, trigger and functions."""
    assigner = getattr(function, "assigner", None)
    if assigner is None:
        inner = getattr(function, "function", None)
        name = type(function).__name__
        return name if inner is None else "%s(%s)" % (name, function_name(inner))
    contents = function.contents_descriptor
    user = [f for f in (getattr(contents, "get_reduce_function", lambda: None)(),
                        getattr(contents, "get_agg_function", lambda: None)(),
                        function.function.function) if f is not None]
    return " · ".join(["%r" % assigner, type(function.trigger).__name__]
                      + [function_name(f) for f in user])


def runs_python(node: graph.Node) -> bool:
    """Whether ``node`` runs user Python code in its stage (a function, key selector or
    timestamp assigner); keyed operators run Python in a stage of their own."""
    if isinstance(node, (graph.Stateless, graph.KeyBy, graph.Keyed)):
        return True
    return isinstance(node, graph.AssignTimestamps) and \
        node.strategy.timestamp_assigner is not None
