"""``%explain``: a DataStream's pystream graph as stages, and Spark's plan for it.

Stages follow the compiler's rules (``pystream/compiler/translate.py``): stateless Python
operators chain into one fused ``mapInArrow`` stage; a ``key_by`` ends a stage with a hash
shuffle on the key; keyed operators run in a keyed stage (``transformWithState`` when
streaming, a sort by key in BATCH mode); unions, partitionings, parallelism changes and
chaining breaks start new stages.
"""
from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass, field
from typing import Dict, List, Tuple


@dataclass
class Stage:
    number: int
    kind: str  # source | python | keyed | union | exchange
    operators: List[str] = field(default_factory=list)
    reads: List[Tuple[int, str]] = field(default_factory=list)  # (stage, how)
    closed: bool = False  # chaining disabled: the next operator starts a stage


def _function_name(fn) -> str:
    """``parse``, ``Parser.map``, ``<lambda>`` or the class of a function object."""
    name = getattr(fn, "__qualname__", None) or ""
    if not name or "<locals>" in name:
        name = getattr(fn, "__name__", None) or ""
    return name or type(fn).__name__


def describe(node) -> str:
    """One operator, as a line of the graph."""
    from pystream import graph

    origin = " (%s)" % node.meta.origin if node.meta.origin else ""
    if node.meta.parallelism:
        origin += " · parallelism %d" % node.meta.parallelism
    if isinstance(node, graph.Source):
        return "Source: %s · %r · %s%s" % (node.meta.name, node.source,
                                            "bounded" if node.bounded else "unbounded", origin)
    if isinstance(node, graph.Stateless):
        return "%s · %s%s" % (node.meta.name, _function_name(node.fn), origin)
    if isinstance(node, graph.KeyBy):
        return "KeyBy · %s%s" % (_function_name(node.key_selector), origin)
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
        return name if inner is None else "%s(%s)" % (name, _function_name(inner))
    contents = function.contents_descriptor
    user = [f for f in (getattr(contents, "get_reduce_function", lambda: None)(),
                        getattr(contents, "get_agg_function", lambda: None)(),
                        function.function.function) if f is not None]
    return " · ".join(["%r" % assigner, type(function.trigger).__name__]
                      + [_function_name(f) for f in user])


def runs_python(node) -> bool:
    """Whether ``node`` runs user Python code in its stage (a function, key selector or
    timestamp assigner)."""
    from pystream import graph

    if isinstance(node, (graph.Stateless, graph.KeyBy)):
        return True
    return isinstance(node, graph.AssignTimestamps) and \
        node.strategy.timestamp_assigner is not None


def stages(root) -> List[Stage]:
    """The stages that compute ``root`` (a graph node), in execution order.

    Parallelism shows only where it is set: sources choose their own (see the Spark plan).
    """
    from pystream import graph

    result: List[Stage] = []
    stage_of: Dict[int, Stage] = {}

    def new(kind: str, reads=()) -> Stage:
        stage = Stage(len(result) + 1, kind, reads=list(reads))
        result.append(stage)
        return stage

    for node in graph.walk([root]):
        inputs = node.inputs
        up = stage_of.get(id(inputs[0])) if inputs else None
        if isinstance(node, graph.Source):
            stage = new("source")
        elif isinstance(node, graph.Keyed):
            stage = new("keyed", [(up.number, "hash(key)")])
        elif isinstance(node, graph.Union):
            stage = new("union", [(stage_of[id(i)].number, "union") for i in inputs])
        elif isinstance(node, graph.Partition) and node.strategy != "forward":
            stage = new("exchange", [(up.number, node.strategy)])
        elif isinstance(node, graph.Stateless):
            changes = node.meta.parallelism not in (None, inputs[0].meta.parallelism)
            if isinstance(node.input, graph.KeyBy):
                stage = new("python", [(up.number, "hash(key)")])
            elif changes:
                stage = new("python", [(up.number, "rebalance")])
            elif up.closed or node.meta.chaining in ("new_chain", "disabled"):
                stage = new("python", [(up.number, "forward (chain break)")])
            else:
                stage = up
        else:  # KeyBy, AssignTimestamps, SideOutput, Sink, forward: in the stage they read
            stage = up
        if runs_python(node) and stage.kind in ("source", "exchange", "union"):
            stage.kind = "python"
        stage.closed = ((isinstance(node, graph.Partition) and node.strategy == "forward")
                        or node.meta.chaining == "disabled")
        stage.operators.append(describe(node))
        stage_of[id(node)] = stage
    return result


def stage_title(stage: Stage, batch: bool) -> str:
    kind = {
        "source": "source",
        "python": "fused Python operators (mapInArrow)",
        "keyed": "keyed state, sorted by key (BATCH)" if batch
        else "keyed state and timers (transformWithState)",
        "union": "union",
        "exchange": "repartition",
    }[stage.kind]
    reads = "".join(" · reads stage %d by %s" % r for r in stage.reads)
    return "Stage %d · %s%s" % (stage.number, kind, reads)


def runs_in_batch(ds) -> bool:
    """Whether ``env.execute()`` would run ``ds`` in BATCH mode."""
    from pyshell.preview import is_bounded
    from pystream.datastream import RuntimeExecutionMode

    mode = ds.get_execution_environment().get_runtime_mode()
    if mode is RuntimeExecutionMode.AUTOMATIC:
        return is_bounded(ds)
    return mode is RuntimeExecutionMode.BATCH


def graph_text(ds, batch: bool) -> str:
    """The pystream graph of ``ds``: its stages and their operators."""
    from pyshell.preview import is_bounded, stream_node

    found = stages(stream_node(ds))
    head = "pystream graph · %s · %s · %d stage%s" % (
        "BATCH" if batch else "STREAMING", "bounded" if is_bounded(ds) else "unbounded",
        len(found), "" if len(found) == 1 else "s")
    lines = [head]
    for stage in found:
        lines.append(stage_title(stage, batch))
        lines += ["    " + op for op in stage.operators]
    return "\n".join(lines)


def spark_plan(df, mode: str = "simple") -> str:
    """Spark's plan of ``df`` (``df.explain(mode)`` as text)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        df.explain(mode=mode)
    return out.getvalue().rstrip()
