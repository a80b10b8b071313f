"""Aggregates OVER time-ordered windows in STREAMING mode: over an unbounded table (what
they compute over bounded ones is the oracle program ``programs/over_aggregates.py``,
recorded on PyFlink; one partition alone: ``tests/runtime/test_time_ordered.py``), and what
Flink refuses."""
from pathlib import Path

import pytest

from pystream.table import EnvironmentSettings, TableEnvironment
from pystream.util.exceptions import TableException
from tests.oracle.runner import recorded_changes

PROGRAM = Path(__file__).with_name("programs") / "over_aggregates.py"
ON_TIME = ("a,1,2024-01-01 00:00:01\na,2,2024-01-01 00:00:02\nb,5,2024-01-01 00:00:02\n"
           "a,8,2024-01-01 00:00:04\na,3,2024-01-01 00:00:04\nb,7,2024-01-01 00:00:05\n"
           "a,4,2024-01-01 00:00:10\n")
# once the watermark is at 9 s: the row of 7 s is behind it
LATER = "a,9,2024-01-01 00:00:07\na,16,2024-01-01 00:00:12\nb,1,2024-01-01 00:00:20\n"
FAR_LATER = "z,0,2024-01-01 01:00:00\n"  # moves the watermark past every row above


def _env(directory) -> TableEnvironment:
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.get_config().set("parallelism.default", "1")
    t_env.execute_sql("""CREATE TABLE clicks (k STRING, v BIGINT, ts TIMESTAMP(3),
        WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem',
        'path' = '%s', 'format' = 'csv', 'source.monitor-interval' = '1 s')""" % directory)
    return t_env


@pytest.mark.parametrize("table, query", [
    (0, """SELECT k, v, ts, SUM(v) OVER w AS total, COUNT(v) OVER w AS n,
           AVG(v) OVER w AS mean, MIN(v) OVER w AS low, MAX(v) OVER w AS high FROM clicks
           WINDOW w AS (PARTITION BY k ORDER BY ts
                        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"""),
    (1, """SELECT k, v, SUM(v) OVER (PARTITION BY k ORDER BY ts
           ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS last_three FROM clicks"""),
])
def test_over_an_unbounded_table_rows_are_emitted_as_the_watermark_passes(tmp_path, table,
                                                                         query):
    """The program's first two queries (its tables 0 and 1): the row of 7 s comes once the
    watermark is at 9 s; the unbounded frame drops it, the frame of 2 rows keeps it (its
    last timer fired at 4 s), as on PyFlink."""
    expected = [tuple(c[:19] if c.startswith("2024") else c for c in r)
                for r in recorded_changes(PROGRAM)[table]]
    rows = _changes(tmp_path, _env(tmp_path), query, len(expected))
    assert sorted(("+I",) + tuple(v[:19] if v.startswith("2024") else v for v in r)
                  for r in rows) == sorted(expected)


def _changes(directory, t_env, query: str, n: int) -> list:
    """The first ``n`` rows of ``query`` (as text) over the rows on time, then the later
    ones: written once the first rows came (the watermark at 9 s)."""
    (directory / "part-0.csv").write_text(ON_TIME)
    rows = []
    with t_env.execute_sql(query).collect() as changes:
        for row in changes:
            rows.append(tuple(str(v) for v in row))
            if len(rows) == 5:  # those of up to 4 s: the watermark is at 9 s
                (directory / "part-1.csv").write_text(LATER)
                (directory / "part-2.csv").write_text(FAR_LATER)
            if len(rows) == n:
                return rows
    return rows


def test_every_aggregate_of_a_streaming_over_is_over_one_window(tmp_path):
    (tmp_path / "part-0.csv").write_text(ON_TIME)
    with pytest.raises(TableException, match="All aggregates must be computed on the same"):
        _env(tmp_path).execute_sql("""SELECT k, SUM(v) OVER (ORDER BY ts ROWS BETWEEN
            1 PRECEDING AND CURRENT ROW), COUNT(v) OVER (ORDER BY ts) FROM clicks""")


def test_a_python_aggregate_function_over_an_unbounded_table(tmp_path):
    """A general Python aggregate in the streaming over aggregate: its running totals are
    the recorded SUM's (the program's first table)."""
    from pystream.table import DataTypes
    from pystream.table.udf import AggregateFunction, udaf

    class Total(AggregateFunction):
        def create_accumulator(self):
            return [0]

        def accumulate(self, accumulator, value):
            accumulator[0] += value

        def get_value(self, accumulator):
            return accumulator[0]

    t_env = _env(tmp_path)
    t_env.create_temporary_function("total", udaf(Total(), result_type=DataTypes.BIGINT()))
    expected = sorted((r[1], r[2], r[4]) for r in recorded_changes(PROGRAM)[0])
    rows = _changes(tmp_path, t_env, """SELECT k, v, total(v) OVER (PARTITION BY k ORDER BY ts
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS t FROM clicks""", len(expected))
    assert sorted(rows) == expected


def test_over_an_updating_bounded_table_is_over_the_rows_its_changes_leave():
    """Flink refuses an OVER window over an updating table in STREAMING mode (its OVER
    operator does not take retractions); pystream computes it over the rows the changes
    leave, once, insert-only: the BATCH answer (Nexmark's q6 has this shape)."""
    query = """SELECT k, total, SUM(total) OVER (PARTITION BY k ORDER BY m
                   ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS pair
               FROM (SELECT k, m, SUM(v) AS total FROM t GROUP BY k, m)"""
    rows = "(1, 'a', 1), (2, 'a', 2), (1, 'a', 3), (3, 'b', 4), (2, 'a', 5), (3, 'b', 6)"
    results = {}
    for mode in ("streaming", "batch"):
        settings = getattr(EnvironmentSettings, "in_%s_mode" % mode)()
        t_env = TableEnvironment.create(settings)
        t_env.execute_sql("CREATE TEMPORARY VIEW t AS SELECT * FROM (VALUES %s) AS t(m, k, v)"
                          % rows)
        with t_env.execute_sql(query).collect() as changes:
            results[mode] = sorted((str(r.get_row_kind()), *r) for r in changes)
    assert results["streaming"] == results["batch"] == [
        ("+I", "a", 4, 4), ("+I", "a", 7, 11), ("+I", "b", 10, 10)]
