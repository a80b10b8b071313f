"""Ranking in STREAMING mode: deduplication on a processing-time attribute and Top-N run (their
outputs are the oracle programs ``programs/dedup_streaming.py`` and
``programs/top_n_streaming.py``); what does not yet says what it is."""
import pytest

from pystream.errors import UnsupportedFeatureError
from pystream.table import EnvironmentSettings, TableEnvironment
from pystream.table.planning import plan_of

RANKED = """SELECT id FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY %s) AS rn
    FROM t) WHERE rn %s"""


@pytest.fixture
def t_env():
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.execute_sql("""CREATE TABLE t (id BIGINT, k AS id % 2, pt AS PROCTIME(),
        ts AS CAST(TO_TIMESTAMP_LTZ(id * 1000, 3) AS TIMESTAMP(3)),
        WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen', 'number-of-rows' = '4',
        'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '4')""")
    return t_env


@pytest.mark.parametrize(("order", "rank", "what"), [
    ("pt", "<= 2", "Top-N on a processing-time attribute in STREAMING mode"),
    ("id DESC", "> 1", "ROW_NUMBER OVER a window in STREAMING mode other than Top-N"),
])
def test_what_streaming_ranking_does_not_do_yet_is_named(t_env, order, rank, what):
    with pytest.raises(UnsupportedFeatureError, match=what.replace("(", r"\(")):
        t_env.execute_sql(RANKED % (order, rank)).collect()


def test_keeping_the_last_row_is_an_updating_changelog(t_env):
    """The plan says which result updates; the rows are the oracle programs'."""
    assert plan_of(t_env.sql_query(RANKED % ("pt DESC", "= 1"))).updating
    assert not plan_of(t_env.sql_query(RANKED % ("pt", "= 1"))).updating


def test_a_top_n_by_a_field_is_an_updating_changelog(t_env):
    assert plan_of(t_env.sql_query(RANKED % ("id", "= 1"))).updating
