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


TIMED = ("CREATE TABLE %s (k INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) "
         "WITH ('connector' = 'datagen', 'number-of-rows' = '3')")


def timed_tables():
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    for name in ("a", "b"):
        t_env.execute_sql(TIMED % name)
    return t_env


def test_interval_and_window_joins_and_window_top_n_are_append_only_regular_ones_update():
    t_env = timed_tables()
    queries = {
        "SELECT * FROM a LEFT JOIN b ON a.k = b.k AND b.ts BETWEEN a.ts AND a.ts + "
        "INTERVAL '1' HOUR": False,
        "SELECT * FROM a, b WHERE a.k = b.k AND b.ts >= a.ts AND b.ts < a.ts + "
        "INTERVAL '1' HOUR": False,
        "SELECT * FROM (SELECT * FROM TABLE(TUMBLE(TABLE a, DESCRIPTOR(ts), INTERVAL '1' "
        "MINUTE))) L FULL JOIN (SELECT * FROM TABLE(TUMBLE(TABLE b, DESCRIPTOR(ts), "
        "INTERVAL '1' MINUTE))) R ON L.k = R.k AND L.window_start = R.window_start AND "
        "L.window_end = R.window_end": False,
        "SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end "
        "ORDER BY k) AS rn FROM TABLE(TUMBLE(TABLE a, DESCRIPTOR(ts), INTERVAL '1' MINUTE))) "
        "WHERE rn <= 2": False,
        "SELECT * FROM a LEFT JOIN b ON a.k = b.k": True,
        "SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts DESC) AS rn "
        "FROM a) WHERE rn <= 2": True,
    }
    for sql, updating in queries.items():
        plan = plan_of(t_env.sql_query(sql))
        assert plan.updating is updating, sql
        if not updating:  # Spark's own operators
            assert not any(op.runs_python for s in plan.stages for op in s.operators), sql


def test_the_window_table_function_gives_window_columns_and_a_new_time_attribute():
    t_env = timed_tables()
    table = t_env.sql_query("SELECT * FROM TABLE(HOP(TABLE a, DESCRIPTOR(ts), "
                            "INTERVAL '1' MINUTE, INTERVAL '2' MINUTE))")
    assert [(f.name, f.summary()) for f in table._rel.schema] == [
        ("k", "INT"), ("ts", "TIMESTAMP(3)"), ("window_start", "TIMESTAMP(3) NOT NULL"),
        ("window_end", "TIMESTAMP(3) NOT NULL"),
        ("window_time", "TIMESTAMP(3) NOT NULL *ROWTIME*")]


PYTHON_IN_SPARK = ("ArrowEvalPython", "BatchEvalPython")  # Spark's physical nodes of Python UDFs


def test_explain_renders_the_plan_the_table_job_executes():
    """``%explain`` of a Table renders the plan its job executes: the job runs that ``Plan``,
    translates each of its operators, gives the changelog it names, and Spark runs Python
    only where it marks an operator as Python."""
    from pystream.compiler.table_job import TableJob

    table = words()
    upper = udf(lambda s: s.upper(), result_type=DataTypes.STRING(), name="upper")
    queries = {
        "python": table.where(table.k > 1).select(upper(table.v).alias("v")),
        "relational": table.group_by(table.k).select(table.k, table.v.count.alias("n")),
    }
    for name, query in queries.items():
        plan = plan_of(query)
        text = graph_text(plan)
        job = TableJob(plan)
        assert job.plan is plan and job.rel is plan.roots[0]
        _, updating = job.frame()
        assert updating is plan.updating, name
        python = any(op.runs_python for s in plan.stages for op in s.operators)
        assert any(node in job.spark_plan() for node in PYTHON_IN_SPARK) is python, name
        for stage in plan.stages:
            assert "Stage %d" % stage.number in text
    rows = [(str(r.get_row_kind()), *r) for r in TableJob(plan_of(queries["relational"])).rows()]
    assert rows == [("+I", 1, 1), ("+I", 2, 1), ("-U", 1, 1), ("+U", 1, 2)]


def test_a_job_that_does_not_follow_its_plan_fails_before_it_runs():
    """A plan the compiler did not follow is an internal error, not a silently other job."""
    import dataclasses

    import pytest

    from pystream.compiler.table_job import TableJob
    from pystream.errors import PystreamError

    table = words()
    plan = plan_of(table.group_by(table.k).select(table.k))
    with pytest.raises(PystreamError, match="not compiled as planned: planned inserts only, "
                       "compiled an updating changelog"):
        TableJob(dataclasses.replace(plan, updating=False)).frame()
