"""Sinks -> Spark actions (BATCH) or streaming queries (STREAMING): the planner of the sink's
class, from the table ``compiler.connectors.SINKS``."""
from __future__ import annotations

from pystream import graph
from pystream.compiler.connectors import SINKS, lookup
from pystream.compiler.sink_helpers import SinkPlan
from pystream.errors import UnsupportedFeatureError

__all__ = ["plan_sink"]


def plan_sink(compiler, node: graph.Sink) -> SinkPlan:
    """How to run the Sink node ``node``."""
    plan = lookup(SINKS, node.sink)
    if plan is None:
        raise UnsupportedFeatureError("sink %r is not supported by pystream" % (node.sink,))
    return plan(node.sink, compiler, node)
