"""``%explain``: the plan of a DataStream, as stages, and Spark's plan for it.

The shell only renders: the stages, modes and reasons are the plan's (``pystream.plan``),
the same value the compiler follows when the job runs.
"""
from __future__ import annotations

import contextlib
import io

from pystream.plan import Plan, Stage

KINDS = {
    "source": "source",
    "python": "fused Python operators (mapInArrow)",
    "union": "union",
    "exchange": "repartition",
    # a table query's stages: Spark's own operators, Python only for the user's functions
    "python udf": "Python UDFs (Arrow batches)",
    "aggregate": "aggregation",
    "window aggregate": "window aggregation",
    "join": "join",
    "set operation": "set operation",
    "sort": "sort",
    "over window": "over window",
}


def stage_title(stage: Stage, batch: bool) -> str:
    """``Stage 2 · keyed state and timers (transformWithState) · reads stage 1 by hash(key)``."""
    if stage.kind == "keyed":
        kind = ("keyed state, sorted by key (BATCH)" if batch
                else "keyed state and timers (transformWithState)")
    else:
        kind = KINDS[stage.kind]
    reads = "".join(" · reads stage %d by %s" % r for r in stage.reads)
    python = stage.kind not in ("python", "python udf", "source", "keyed") and any(op.runs_python
                                                            for op in stage.operators)
    return "Stage %d · %s%s%s" % (stage.number, kind, " · calls Python" if python else "",
                                  reads)


def graph_text(plan: Plan) -> str:
    """The plan: its mode and engine, why, and its stages with their operators."""
    count = len(plan.stages)
    lines = ["pystream plan · %s · %s · %s · %d stage%s" % (
        plan.mode, "bounded" if plan.bounded else "unbounded", plan.engine, count,
        "" if count == 1 else "s")]
    if plan.query is not None:
        lines[0] += " · %s" % ("changelog (+I/-U/+U/-D)" if plan.updating else "insert-only")
    lines += ["  (%s)" % reason for reason in plan.reasons]
    for stage in plan.stages:
        lines.append(stage_title(stage, plan.settings.batch))
        lines += ["    " + op.text for op in stage.operators]
    return "\n".join(lines)


def spark_plan(df, mode: str = "simple") -> str:
    """Spark's plan of ``df`` (``df.explain(mode)`` as text)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        df.explain(mode=mode)
    return out.getvalue().rstrip()
