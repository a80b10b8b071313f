"""A Table query has the same ``Plan`` as a DataStream job: stages of Spark's own operators,
Python only where the user wrote it, and whether its result is an updating changelog."""
from __future__ import annotations

import subprocess
import sys
import textwrap

from pyshell.explain import graph_text
from pystream.table import EnvironmentSettings, TableEnvironment
from pystream.table.planning import plan_of
from pystream.table.types import DataTypes
from pystream.table.udf import udf


def words(streaming: bool = True):
    settings = (EnvironmentSettings.in_streaming_mode() if streaming
                else EnvironmentSettings.in_batch_mode())
    t_env = TableEnvironment.create(settings)
    return t_env.from_elements([(1, "a"), (2, "b"), (1, "c")], ["k", "v"])


def test_a_group_by_is_a_shuffle_and_an_updating_changelog_when_streaming():
    table = words()
    counts = table.group_by(table.k).select(table.k, table.v.count.alias("n"))
    plan = plan_of(counts)
    assert [s.kind for s in plan.stages] == ["source", "aggregate"]
    assert plan.stages[1].reads == ((1, "hash(group keys)"),)
    assert (plan.mode, plan.bounded, plan.updating) == ("STREAMING", True, True)
    batch = words(streaming=False)
    plan = plan_of(batch.group_by(batch.k).select(batch.k))
    assert (plan.mode, plan.updating) == ("BATCH", False)


def test_python_runs_only_where_the_user_wrote_it():
    table = words()
    upper = udf(lambda s: s.upper(), result_type=DataTypes.STRING(), name="upper")
    plan = plan_of(table.where(table.k > 1).select(upper(table.v).alias("v")))
    (stage,) = plan.stages
    assert stage.kind == "python udf"
    assert [op.runs_python for op in stage.operators] == [False, False, True]
    assert "upper(v)" in stage.operators[-1].text
    assert [s.kind for s in plan_of(table.where(table.k > 1)).stages] == ["source"]


def test_explain_renders_a_table_plan_like_a_stream_plan():
    table = words()
    text = graph_text(plan_of(table.group_by(table.k).select(table.k)))
    assert text.splitlines()[0] == ("pystream plan · STREAMING · bounded · Spark batch "
                                    "DataFrames · 2 stages · changelog (+I/-U/+U/-D)")
    assert "Stage 2 · aggregation · reads stage 1 by hash(group keys)" in text


def test_planning_a_query_needs_no_spark():
    code = textwrap.dedent("""
        import sys
        from pystream.table import EnvironmentSettings, TableEnvironment
        from pystream.table.planning import plan_of
        t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
        t = t_env.from_elements([(1, "a")], ["k", "v"])
        plan = plan_of(t.group_by(t.k).select(t.k, t.v.count.alias("n")))
        print([s.kind for s in plan.stages], "pyspark" in sys.modules)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.stdout.strip() == "['source', 'aggregate'] False", out.stderr
