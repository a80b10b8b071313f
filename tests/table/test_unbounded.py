"""STREAMING Table jobs over unbounded tables (datagen without 'number-of-rows'): Structured
Streaming queries whose rows arrive while they run; closing the result stops the query."""
from __future__ import annotations

import time

import pytest

from pystream.compiler.job import JobCancelled
from pystream.errors import UnsupportedFeatureError
from pystream.session import get_session
from pystream.util.exceptions import TableException, ValidationException

ENDLESS = """CREATE TABLE clicks (user_id INT, url STRING, ts TIMESTAMP_LTZ(3),
    WATERMARK FOR ts AS ts - INTERVAL '0.2' SECOND)
    WITH ('connector' = 'datagen', 'rows-per-second' = '50',
          'fields.user_id.min' = '1', 'fields.user_id.max' = '3',
          'fields.url.length' = '4', 'fields.ts.max-past' = '0')"""


@pytest.fixture
def t_env(streaming_t_env):
    streaming_t_env.get_config().set("parallelism.default", "1")
    streaming_t_env.execute_sql(ENDLESS)
    return streaming_t_env


def _take(result, n: int) -> list:
    taken = []
    with result.collect() as rows:
        for row in rows:
            taken.append(row)
            if len(taken) == n:
                break
    return taken


def _no_query_left() -> bool:
    return not get_session().streams.active


def test_leading_rows_of_an_unbounded_query_and_the_query_stops(t_env):
    rows = _take(t_env.execute_sql("SELECT user_id, UPPER(url) AS u FROM clicks "
                                   "WHERE user_id > 1"), 5)
    assert len(rows) == 5
    assert all(r[0] in (2, 3) and r[1] == r[1].upper() and len(r[1]) == 4 for r in rows)
    assert {str(r.get_row_kind()) for r in rows} == {"+I"}
    assert _no_query_left()


def test_a_group_by_over_an_unbounded_table_emits_each_change(t_env):
    rows = _take(t_env.execute_sql("SELECT user_id, COUNT(*) AS n FROM clicks "
                                   "GROUP BY user_id"), 30)
    last = {}
    for row in rows:  # per key: +I 1, then -U n / +U n+1
        kind, key, n = str(row.get_row_kind()), row[0], row[1]
        if kind == "+I":
            assert key not in last and n == 1
        elif kind == "-U":
            assert last[key] == n
        else:
            assert kind == "+U" and n == last[key] + 1
        last[key] = n
    assert _no_query_left()


def test_tumbling_windows_fire_as_the_watermark_passes_them(t_env):
    result = t_env.execute_sql("""
        SELECT window_start, window_end, COUNT(*) AS n FROM TABLE(
            TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' SECOND))
        GROUP BY window_start, window_end""")
    rows = _take(result, 2)
    assert all(str(r.get_row_kind()) == "+I" and r[2] > 0 for r in rows)
    assert all((r[1] - r[0]).total_seconds() == 1 for r in rows)
    assert _no_query_left()


def test_cumulating_windows_fire_as_the_watermark_passes_each_end(t_env):
    result = t_env.execute_sql("""
        SELECT window_start, window_end, COUNT(*) AS n FROM TABLE(
            CUMULATE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' SECOND, INTERVAL '3' SECOND))
        GROUP BY window_start, window_end""")
    rows = _take(result, 8)
    assert {str(r.get_row_kind()) for r in rows} == {"+I"}
    by_start: dict = {}
    # 1 s, 2 s, 3 s from a start: counts that only grow (windows one micro-batch closes
    # come in any order)
    for start, end, n in sorted(tuple(r) for r in rows):
        assert (end - start).total_seconds() in (1, 2, 3)
        assert n >= by_start.get(start, 0)
        by_start[start] = n
    assert _no_query_left()


def test_insert_into_print_runs_until_cancelled(t_env, capsys):
    t_env.execute_sql("CREATE TABLE out (u INT) WITH ('connector' = 'print', "
                      "'print-identifier' = 'clicks')")
    result = t_env.execute_sql("INSERT INTO out SELECT user_id FROM clicks")
    printed, deadline = "", time.monotonic() + 120
    while "\n" not in printed and time.monotonic() < deadline:  # its first line
        result.wait(100)  # still running: an unbounded job ends when cancelled
        printed += capsys.readouterr().out
    result.get_job_client().cancel()
    with pytest.raises(JobCancelled):  # as Flink's wait() of a cancelled job
        result.wait()
    lines = (printed + capsys.readouterr().out).splitlines()
    assert lines and all(line.startswith("clicks> +I[") for line in lines)
    assert _no_query_left()


def test_print_of_an_unbounded_query_shows_rows_as_they_come(t_env, capsys):
    t_env.execute_sql("SELECT user_id FROM clicks WHERE user_id = 2").print(max_rows=2)
    assert capsys.readouterr().out.splitlines() == [
        "+----+-------------+",
        "| op |     user_id |",
        "+----+-------------+",
        "| +I |           2 |",
        "| +I |           2 |",
        "+----+-------------+",
        "2 rows in set"]
    assert _no_query_left()


def test_to_pandas_of_an_unbounded_table_says_it_would_never_end(t_env):
    with pytest.raises(ValidationException, match="never end"):
        t_env.from_path("clicks").to_pandas()


def test_a_limited_unbounded_table_gives_its_first_rows_and_stops(t_env, capsys):
    from pystream.table.expressions import col

    clicks = t_env.from_path("clicks").select(col("user_id"))
    frame = clicks.limit(3).to_pandas()
    assert list(frame.columns) == ["user_id"] and len(frame) == 3
    t_env.execute_sql("SELECT user_id FROM clicks LIMIT 2").print()
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 7 and lines[-1] == "2 rows in set"
    with clicks.fetch(2).execute().collect() as rows:
        assert len(list(rows)) == 2
    assert _no_query_left()


@pytest.mark.parametrize("query, construct", [
    ("SELECT user_id, COUNT(*) OVER (PARTITION BY user_id ORDER BY url) FROM clicks",
     "OVER window not ordered by a time attribute"),
    ("SELECT user_id FROM clicks EXCEPT SELECT user_id + 1 FROM clicks",
     "EXCEPT in STREAMING mode over an unbounded table"),
    ("SELECT user_id FROM clicks INTERSECT ALL SELECT user_id FROM clicks",
     "INTERSECT ALL in STREAMING mode over an unbounded table"),
])
def test_what_does_not_run_on_unbounded_tables_is_named(t_env, query, construct):
    with pytest.raises(UnsupportedFeatureError, match=construct):
        t_env.execute_sql(query)
    assert _no_query_left()


def test_an_over_window_in_processing_time_counts_each_key_as_rows_come(t_env):
    t_env.execute_sql("""CREATE TABLE visits (user_id INT, pt AS PROCTIME())
        WITH ('connector' = 'datagen', 'rows-per-second' = '50',
              'fields.user_id.min' = '1', 'fields.user_id.max' = '3')""")
    rows = _take(t_env.execute_sql("""SELECT user_id, COUNT(*) OVER (PARTITION BY user_id
        ORDER BY pt ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS n FROM visits"""),
        30)
    seen: dict = {}
    for row in rows:  # append-only: 1, 2, 3, ... per key
        assert str(row.get_row_kind()) == "+I" and row[1] == seen.get(row[0], 0) + 1
        seen[row[0]] = row[1]
    assert _no_query_left()


def test_order_by_the_rowtime_of_an_unbounded_table_emits_rows_in_time_order(t_env):
    rows = _take(t_env.execute_sql("SELECT user_id, ts FROM clicks ORDER BY ts, user_id"),
                 20)
    assert [(r[1], r[0]) for r in rows] == sorted((r[1], r[0]) for r in rows)
    assert {str(r.get_row_kind()) for r in rows} == {"+I"}
    assert _no_query_left()


def test_order_by_limit_of_an_unbounded_table_is_a_top_n(t_env):
    rows = _take(t_env.execute_sql("SELECT user_id, ts FROM clicks ORDER BY ts DESC "
                                   "LIMIT 2"), 8)
    kept: list = []
    for row in rows:  # a newer row comes in (+I), the older of the two kept goes (-D)
        if str(row.get_row_kind()) == "-D":
            assert row[1] == min(kept)
            kept.remove(row[1])
        else:
            kept.append(row[1])
        assert len(kept) <= 2
    assert {str(r.get_row_kind()) for r in rows} == {"+I", "-D"}
    assert _no_query_left()


def test_order_by_limit_offset_of_an_unbounded_table_updates_its_ranks(t_env):
    rows = _take(t_env.execute_sql("SELECT user_id, ts FROM clicks ORDER BY ts DESC "
                                   "LIMIT 1 OFFSET 1"), 7)
    kinds = [str(r.get_row_kind()) for r in rows]
    assert kinds[0] == "+I" and set(kinds[1:]) == {"-U", "+U"}  # the second newest row
    for before, after in zip(rows[1::2], rows[2::2]):  # -U the one it was, +U a newer one
        assert str(before.get_row_kind()) == "-U" and before[1] <= after[1]
    assert _no_query_left()


def test_order_by_another_field_of_an_unbounded_table_is_refused_as_flink_does(t_env):
    with pytest.raises(TableException, match="Sort on a non-time-attribute field"):
        t_env.execute_sql("SELECT * FROM clicks ORDER BY url")
    assert _no_query_left()


def test_distinct_over_an_unbounded_table_emits_each_row_the_first_time(t_env):
    rows = _take(t_env.execute_sql("SELECT DISTINCT user_id FROM clicks"), 3)
    assert sorted(r[0] for r in rows) == [1, 2, 3]  # datagen's three users, once each
    assert {str(r.get_row_kind()) for r in rows} == {"+I"}
    rows = _take(t_env.execute_sql("SELECT user_id FROM clicks UNION "
                                   "SELECT user_id + 10 FROM clicks"), 6)
    assert sorted(r[0] for r in rows) == [1, 2, 3, 11, 12, 13]
    assert _no_query_left()


def test_an_inner_join_of_two_unbounded_tables_emits_each_match(t_env):
    rows = _take(t_env.execute_sql("""SELECT a.user_id, b.url FROM clicks a
        JOIN clicks b ON a.user_id = b.user_id"""), 5)
    assert len(rows) == 5 and {str(r.get_row_kind()) for r in rows} == {"+I"}
    assert _no_query_left()


def test_explain_of_an_unbounded_query_shows_the_streaming_plan(t_env):
    plan = t_env.sql_query("SELECT user_id, COUNT(*) FROM clicks GROUP BY user_id").explain()
    assert "TransformWithState" in plan


def test_an_unbounded_data_stream_as_a_table_in_streaming_jobs():
    from pystream.common import Types, WatermarkStrategy
    from pystream.datastream import StreamExecutionEnvironment
    from pystream.datastream.connectors import DataGeneratorSource
    from pystream.table import Schema, StreamTableEnvironment

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    t_env = StreamTableEnvironment.create(env)
    ds = env.from_source(DataGeneratorSource(lambda i: (i % 2, i), rows_per_second=40),
                         WatermarkStrategy.no_watermarks(), "gen",
                         Types.ROW_NAMED(["k", "i"], [Types.INT(), Types.LONG()]))
    table = t_env.from_data_stream(ds, Schema.new_builder()
                                   .column_by_expression("ts", "TO_TIMESTAMP_LTZ(i * 100, 3)")
                                   .watermark("ts", "ts - INTERVAL '0.1' SECOND").build())
    t_env.create_temporary_view("gen", table)
    counts = _take(t_env.execute_sql("SELECT k, COUNT(*) AS n FROM gen GROUP BY k"), 5)
    first = [(str(r.get_row_kind()), tuple(r)) for r in counts][:3]
    assert first == [("+I", (0, 1)), ("-U", (0, 1)), ("+U", (0, 2))] or \
        first == [("+I", (1, 1)), ("-U", (1, 1)), ("+U", (1, 2))] or \
        [c[0] for c in first] == ["+I", "+I", "-U"]
    windows = _take(t_env.execute_sql("""
        SELECT window_start, COUNT(*) AS n FROM TABLE(
            TUMBLE(TABLE gen, DESCRIPTOR(ts), INTERVAL '1' SECOND))
        GROUP BY window_start, window_end"""), 2)
    assert [r[1] for r in windows] == [10, 10]
    assert _no_query_left()


def test_group_windows_over_a_local_zoned_rowtime_are_aligned_to_the_local_wall_clock(
        streaming_t_env):
    """In Asia/Kolkata (UTC+05:30) an hour's TUMBLE over a TIMESTAMP_LTZ rowtime starts on
    the local hour, as Flink's does (UTC's hours would start at :30 there)."""
    streaming_t_env.get_config().set("parallelism.default", "1")
    streaming_t_env.get_config().set("table.local-time-zone", "Asia/Kolkata")
    streaming_t_env.execute_sql("""CREATE TABLE past_clicks (user_id INT, ts TIMESTAMP_LTZ(3),
        WATERMARK FOR ts AS ts - INTERVAL '0.2' SECOND)
        WITH ('connector' = 'datagen', 'rows-per-second' = '200',
              'fields.ts.max-past' = '10800000')""")  # event times of the last three hours
    rows = _take(streaming_t_env.execute_sql("""
        SELECT TUMBLE_START(ts, INTERVAL '1' HOUR) AS s, COUNT(*) AS n FROM past_clicks
        GROUP BY TUMBLE(ts, INTERVAL '1' HOUR)"""), 1)
    assert [(r[0].minute, r[0].second) for r in rows] == [(0, 0)]
    assert _no_query_left()
