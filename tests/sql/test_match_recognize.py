"""MATCH_RECOGNIZE's errors (what it computes is the oracle program
``programs/match_recognize.py``, recorded on PyFlink; the matcher alone:
``tests/runtime/test_matching.py``)."""
import pytest

from pystream.errors import UnsupportedFeatureError
from pystream.table import EnvironmentSettings, TableEnvironment
from pystream.table.planning import plan_of
from pystream.util.exceptions import SqlParserException, TableException, ValidationException

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
