"""The magics inside an IPython shell (no terminal), on the test run's Spark session."""
import time

import pytest
from IPython.core.interactiveshell import InteractiveShell

from pystream.common import Types


@pytest.fixture(scope="module")
def ip():
    """Plain IPython with ``%load_ext pyshell`` (no warm-up: the session is already up)."""
    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "pyshell")
    return shell


def test_load_ext_preloads_the_api(ip):
    names = {"env", "spark", "Types", "WatermarkStrategy", "KeyedProcessFunction",
             "ValueStateDescriptor", "TumblingEventTimeWindows", "DataGeneratorSource",
             "FileSource", "KafkaSource", "CsvSchema"}
    assert sorted(names - set(ip.user_ns)) == []


def test_preview_line_and_cell_forms(ip, streaming_env):
    ip.user_ns["nums"] = streaming_env.from_collection([1, 2, 3], Types.LONG())
    line = ip.run_line_magic("preview", "nums -n 2 -o --timeout 120")
    cell = ip.run_cell_magic(
        "head", "-o --timeout 120", "x = nums.map(lambda v: v + 1, Types.LONG())\nx"
    )
    assert (line.rows, line.reason, sorted(cell.rows), cell.reason) == ([1, 2], "rows", [2, 3, 4],
                                                                    "end")


def test_preview_of_tables_shows_rows_and_changelogs(ip):
    from pystream.table.expressions import col

    t_env, bt_env = ip.user_ns["t_env"], ip.user_ns["bt_env"]
    rows = [(1, "a"), (2, "b"), (3, "a")]
    ip.user_ns["orders"] = bt_env.from_elements(rows, ["id", "name"])
    ip.user_ns["counts"] = t_env.from_elements(rows, ["id", "name"]).group_by(
        col("name")).select(col("name"), col("id").count.alias("n"))
    batch = ip.run_line_magic("preview", "orders -n 2 -o")
    changes = ip.run_line_magic("preview", "counts -o")
    assert (batch.columns, batch.rows, batch.reason) == (["id", "name"], [[1, "a"], [2, "b"]],
                                                          "rows")
    assert changes.columns == ["op", "name", "n"]
    assert changes.rows == [["+I", "a", 1], ["+I", "b", 1], ["-U", "a", 1], ["+U", "a", 2]]
    current = ip.run_line_magic("preview", "counts --mode table -o")
    assert (current.columns, current.rows) == (["name", "n"], [["b", 1], ["a", 2]])


def test_preview_of_an_unbounded_table_stops_its_query(ip):
    from pystream.session import get_session

    t_env = ip.user_ns["t_env"]
    t_env.execute_sql("CREATE TEMPORARY TABLE ticks (n INT) WITH ('connector' = 'datagen', "
                      "'rows-per-second' = '20', 'fields.n.min' = '1', 'fields.n.max' = '9')")
    ip.user_ns["ticks"] = t_env.from_path("ticks")
    first = ip.run_line_magic("preview", "ticks -n 3 -o --timeout 120")
    assert (first.columns, len(first.rows), first.reason) == (["op", "n"], 3, "rows")
    assert all(r[0] == "+I" and 1 <= r[1] <= 9 for r in first.rows)
    assert not get_session().streams.active
    t_env.execute_sql("DROP TEMPORARY TABLE ticks")


def test_sql_over_an_unbounded_table_shows_rows_as_they_come_and_stops(ip, capsys):
    from pystream.session import get_session

    ip.run_cell_magic("sql", "", "CREATE TEMPORARY TABLE beats (n INT) WITH ("
                      "'connector' = 'datagen', 'rows-per-second' = '20', 'fields.n.min' = '4', "
                      "'fields.n.max' = '4');\nSELECT n, COUNT(*) AS c FROM beats GROUP BY n")
    ip.run_line_magic("sql", "--mode changelog -n 2 -o seen SELECT n FROM beats")
    out = capsys.readouterr().out.splitlines()
    assert out[:4] == ["OK", "+----+-------------+----------------------+",
                       "| op |           n |                    c |",
                       "+----+-------------+----------------------+"]
    assert out[4:8] == ["| +I |           4 |                    1 |",
                        "| -U |           4 |                    1 |",
                        "| +U |           4 |                    2 |",
                        "| -U |           4 |                    2 |"]
    assert out[14:19] == ["+----+-------------+----------------------+", "10 rows in set",
                          "op | n", "+I 4", "+I 4"]
    assert ip.user_ns["seen"].to_dict("records") == [{"n": 4}, {"n": 4}]
    assert not get_session().streams.active
    ip.run_line_magic("sql", "DROP TEMPORARY TABLE beats")


def test_sql_table_mode_shows_the_rows_a_changelog_leaves(ip, capsys):
    from pystream.session import get_session

    ip.run_line_magic("sql", "CREATE TEMPORARY TABLE pulses (n INT) WITH ('connector' = "
                      "'datagen', 'rows-per-second' = '20', 'fields.n.min' = '5', "
                      "'fields.n.max' = '5')")
    ip.run_line_magic("sql", "--mode table -n 7 SELECT n, COUNT(*) AS c FROM pulses GROUP BY n")
    out = capsys.readouterr().out.splitlines()  # the CREATE's OK (and any earlier line) first
    assert "| n | c |" in out, out
    assert out[out.index("| n | c |"):] == ["| n | c |", "|---|---|", "| 5 | 4 |",
                                            "1 rows · 7 changes"]
    assert not get_session().streams.active
    ip.run_line_magic("sql", "DROP TEMPORARY TABLE pulses")


def test_sql_lines_complete_keywords_tables_and_columns(ip):
    ip.user_ns["t_env"].execute_sql("CREATE TEMPORARY VIEW orders_view AS SELECT 1 AS "
                                    "amount_paid")
    def completions(line: str) -> list:
        return ip.complete("", line, len(line))[1]

    assert completions("%sql SEL") == ["SELECT"]
    assert "orders_view" in completions("%sql SELECT * FROM orders_v")
    assert "amount_paid" in completions("%sql SELECT amount_p")
    assert completions("t_env.from_path('orders_v") == ["orders_view"]
    assert "orders_view" in completions('t_env.sql_query("SELECT amount_paid FROM ord')
    ip.user_ns["t_env"].execute_sql("DROP TEMPORARY VIEW orders_view")


def test_sql_runs_statements_and_shows_their_results(ip, capsys):
    ip.run_cell_magic("sql", "--batch", "CREATE TEMPORARY VIEW fruit AS SELECT * FROM "
                      "(VALUES (1, 'apple'), (2, 'pear')) AS T(id, name);\n"
                      "SELECT name FROM fruit WHERE id > 1")
    ip.user_ns["threshold"] = 0
    ip.run_line_magic("sql", "--batch -n 1 -o first SELECT id FROM fruit WHERE id > {threshold}")
    ip.run_line_magic("sql", "SELEC 1")
    out, err = capsys.readouterr()
    assert out.splitlines()[:6] == [
        "OK",
        "+--------------------------------+",
        "|                           name |",
        "+--------------------------------+",
        "|                           pear |",
        "+--------------------------------+",
    ]
    assert ip.user_ns["first"].to_dict("records") == [{"id": 1}]
    assert "SQL parse failed" in err and "SELEC 1" in err


def test_explain_shows_graph_and_spark_plan(ip, streaming_env, capsys):
    ip.user_ns["nums"] = streaming_env.from_collection([1, 2, 3], Types.LONG())
    ip.run_line_magic("explain", "nums.map(lambda v: v + 1)")
    out = capsys.readouterr().out
    assert [("· fused Python operators" in out), ("== Physical Plan ==" in out)] == [True, True]


def test_conf_reads_and_sets_spark_and_env_settings(ip, capsys):
    ip.run_line_magic("conf", "spark.sql.session.timeZone")
    ip.run_line_magic("conf", "pipeline.name=teaching")
    assert capsys.readouterr().out.splitlines() == [
        "spark.sql.session.timeZone=UTC",
        "pipeline.name=teaching",
    ]


def test_a_session_time_zone_set_with_conf_is_the_one_table_jobs_use(ip, capsys):
    """``%conf spark.sql.session.timeZone=...`` is the zone of the table jobs that follow
    (whose ``table.local-time-zone`` is the default), not only until the first one runs."""
    from pystream.session import session_time_zone
    from pystream.table import EnvironmentSettings, TableEnvironment

    ip.run_line_magic("conf", "spark.sql.session.timeZone=Asia/Tokyo")
    try:
        t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
        t_env.execute_sql("SELECT CAST(TO_TIMESTAMP_LTZ(0, 3) AS STRING) AS t").print()
        ip.run_line_magic("conf", "spark.sql.session.timeZone")
    finally:
        ip.run_line_magic("conf", "spark.sql.session.timeZone=UTC")
    out = capsys.readouterr().out
    assert ["1970-01-01 09:00:00" in out, "spark.sql.session.timeZone=Asia/Tokyo" in out,
            session_time_zone()] == [True, True, "UTC"]


def test_jobs_lists_a_running_job_and_stop_cancels_it(ip, streaming_env, capsys):
    from pystream.common import JobStatus, WatermarkStrategy
    from pystream.datastream.connectors import DataGeneratorSource

    ds = streaming_env.from_source(
        DataGeneratorSource(lambda i: i, rows_per_second=5),
        WatermarkStrategy.no_watermarks(),
        "gen",
        Types.LONG(),
    )
    ds.filter(lambda x: x < 0).print()
    client = streaming_env.execute_async("clicks")
    while client.get_job_status().result() is not JobStatus.RUNNING:
        time.sleep(0.1)
    ip.run_line_magic("jobs", "")
    ip.run_line_magic("stop", "all")
    client.get_job_execution_result().exception(timeout=60)
    ip.run_line_magic("jobs", "")
    lines = capsys.readouterr().out.splitlines()
    assert ([("clicks" in line) for line in lines[2:3]], lines[-1]) == ([True], "No running jobs.")


def test_a_failing_function_is_a_short_error_in_a_magic_and_in_a_cell(ip, streaming_env,
                                                                     capsys):
    ip.user_ns["bad"] = streaming_env.from_collection([1, 2], Types.LONG()).map(lambda v: v // 0)
    ip.run_line_magic("preview", "bad")
    in_magic = capsys.readouterr().err
    result = ip.run_cell("bad.execute_and_collect(limit=2)")
    in_cell = capsys.readouterr().err
    assert [(e.startswith("Job failed: ZeroDivisionError"), "Traceback (most" in e)
            for e in (in_magic, in_cell)] + [result.success] == [(True, False), (True, False),
                                                                   False]


def test_explain_shows_a_tables_plan_and_spark_plan(ip, capsys):
    from pystream.table import EnvironmentSettings, TableEnvironment

    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    ip.user_ns["t"] = t_env.from_elements([(1, "a"), (1, "b")], ["k", "v"])
    ip.run_line_magic("explain", "t.group_by(t.k).select(t.k, t.v.count.alias('n'))")
    out = capsys.readouterr().out
    assert ["Stage 2 · aggregation" in out, "changelog (+I/-U/+U/-D)" in out,
            "== Physical Plan ==" in out] == [True, True, True]


def test_jobs_all_shows_the_final_metrics_of_a_job_that_ended(ip, capsys):
    ip.run_cell("""
from pystream.datastream.functions import MapFunction

class Seen(MapFunction):
    def open(self, runtime_context):
        self.seen = runtime_context.get_metrics_group().counter("seen")

    def map(self, value):
        self.seen.inc()
        return value

benv = StreamExecutionEnvironment.get_execution_environment()
benv.set_runtime_mode(RuntimeExecutionMode.BATCH)
benv.from_collection([1, 2, 3], Types.INT()).map(Seen(), Types.INT()).name("tally") \\
    .sink_to(DiscardingSink())
benv.execute("tallied")
""")
    capsys.readouterr()
    ip.run_line_magic("jobs", "--all")
    lines = capsys.readouterr().out.splitlines()
    ended = [line for line in lines if "tallied" in line]
    assert (len(ended), "FINISHED (batch)" in ended[-1], [line.split() for line in lines
                                                          if "tally.seen" in line][-1][-2:]) \
        == (1, True, ["3", "|"])
