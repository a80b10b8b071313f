"""MATCH_RECOGNIZE's errors, and over an unbounded table (what it computes over bounded ones
is the oracle program ``programs/match_recognize.py``, recorded on PyFlink; the matcher
alone: ``tests/runtime/test_matching.py``)."""
from pathlib import Path

import pytest

from pystream.errors import UnsupportedFeatureError
from pystream.table import EnvironmentSettings, TableEnvironment
from pystream.table.planning import plan_of
from pystream.util.exceptions import SqlParserException, TableException, ValidationException
from tests.connectors.test_kafka_tables import _env, _take
from tests.oracle.runner import recorded_changes

QUERY = """SELECT * FROM ticks MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY %s
    MEASURES A.price AS a %s)"""


@pytest.fixture
def t_env():
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.execute_sql("""CREATE TABLE ticks (symbol STRING, price INT, ts TIMESTAMP(3),
        WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen', 'number-of-rows' = '3')""")
    return t_env


@pytest.mark.parametrize("clause, error", [
    ("PATTERN (A (B | C)) DEFINE A AS A.price > 1", UnsupportedFeatureError),
    ("PATTERN (A B+*) DEFINE A AS A.price > 1", SqlParserException),
    ("PATTERN (A B) DEFINE B AS B.price > PREV(B.price)", TableException),
    (", PREV(B.price) AS pb PATTERN (A B) DEFINE B AS B.price > 1", ValidationException),
    ("PATTERN (A) DEFINE X AS X.price > 1", ValidationException),
    ("ALL ROWS PER MATCH PATTERN (A) DEFINE A AS A.price > 1", UnsupportedFeatureError),
])
def test_what_match_recognize_refuses_is_named(t_env, clause, error):
    with pytest.raises(error):
        t_env.sql_query(QUERY % ("ts", clause))


def test_match_recognize_orders_by_a_time_attribute(t_env):
    with pytest.raises(TableException, match="rowtime or proctime"):
        t_env.sql_query(QUERY % ("price", "PATTERN (A) DEFINE A AS A.price > 1"))


def test_the_plan_shows_the_match_and_its_python_pass(t_env):
    table = t_env.sql_query(QUERY % ("ts", "PATTERN (A B+?) DEFINE A AS A.price > 1"))
    stage = plan_of(table).stages[-1]
    assert stage.kind == "pattern match" and stage.operators[0].runs_python
    assert "Match(partitionBy=[symbol], orderBy=[ts], pattern=[A{1,1} B{1,}?]" in \
        table.explain()


def test_match_recognize_over_an_unbounded_table_matches_as_the_watermark_passes(tmp_path):
    """The V shape of tests/sql/programs/match_recognize.py over a monitored directory."""
    prices = [12, 17, 19, 21, 25, 18, 15, 14, 24, 25, 19]
    (tmp_path / "part-0.csv").write_text("".join(
        "ACME,%d,1,2024-04-01 10:00:%02d\nBETA,%d,1,2024-04-01 10:00:%02d\n"
        % (p, s, 30 - p, s) for s, p in enumerate(prices)))
    t_env = _env()
    t_env.execute_sql("""CREATE TABLE ticker (symbol STRING, price BIGINT, tax BIGINT,
        rowtime TIMESTAMP(3), WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND)
        WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv',
        'source.monitor-interval' = '1 s')""" % tmp_path)
    result = t_env.execute_sql("""SELECT * FROM ticker MATCH_RECOGNIZE (
        PARTITION BY symbol ORDER BY rowtime
        MEASURES START_ROW.rowtime AS start_tstamp, LAST(PRICE_DOWN.rowtime) AS bottom_tstamp,
                 LAST(PRICE_UP.rowtime) AS end_tstamp
        ONE ROW PER MATCH
        AFTER MATCH SKIP TO LAST PRICE_UP
        PATTERN (START_ROW PRICE_DOWN+ PRICE_UP)
        DEFINE PRICE_DOWN AS (LAST(PRICE_DOWN.price, 1) IS NULL
                              AND PRICE_DOWN.price < START_ROW.price)
                             OR PRICE_DOWN.price < LAST(PRICE_DOWN.price, 1),
               PRICE_UP AS PRICE_UP.price > LAST(PRICE_DOWN.price, 1)) MR""")
    (tmp_path / "part-1.csv").write_text("ACME,1,1,2024-04-01 11:00:00\n"
                                         "BETA,1,1,2024-04-01 11:00:00\n")  # the watermark
    program = Path(__file__).with_name("programs") / "match_recognize.py"
    expected = sorted(tuple(c[:19] if c.startswith("2024") else c for c in r)
                      for r in recorded_changes(program)[0])
    assert sorted(tuple(str(v) for v in r) for r in _take(result, 3)) == expected


def test_rows_behind_the_watermark_are_dropped_as_flinks_cep_drops_them(tmp_path):
    """A V that arrives after the watermark passed its rows matches nothing; the same V on
    time does (Flink's CEP operator drops a row older than its last watermark)."""
    def v_shape(hour: int) -> str:
        return "".join("ACME,%d,1,2024-04-01 %02d:00:%02d\n" % (p, hour, s)
                       for s, p in enumerate((50, 40, 35, 45)))

    (tmp_path / "part-0.csv").write_text(v_shape(10) + "ACME,1,1,2024-04-01 10:30:00\n")
    t_env = _env()
    t_env.execute_sql("""CREATE TABLE ticker (symbol STRING, price BIGINT, tax BIGINT,
        rowtime TIMESTAMP(3), WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND)
        WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv',
        'source.monitor-interval' = '1 s')""" % tmp_path)
    result = t_env.execute_sql("""SELECT * FROM ticker MATCH_RECOGNIZE (
        PARTITION BY symbol ORDER BY rowtime
        MEASURES START_ROW.rowtime AS start_tstamp ONE ROW PER MATCH
        AFTER MATCH SKIP PAST LAST ROW PATTERN (START_ROW DOWN{2} UP)
        DEFINE DOWN AS DOWN.price < 45, UP AS UP.price > 44) MR""")
    starts = []
    with result.collect() as rows:
        for row in rows:
            starts.append(str(row[1]))
            if len(starts) == 1:  # the watermark is at 10:29:59: a V at 09:00 is late
                (tmp_path / "part-1.csv").write_text(v_shape(9))
                (tmp_path / "part-2.csv").write_text(v_shape(11) +
                                                     "ACME,1,1,2024-04-01 12:00:00\n")
            if len(starts) == 2:
                break
    assert starts == ["2024-04-01 10:00:00", "2024-04-01 11:00:00"]
