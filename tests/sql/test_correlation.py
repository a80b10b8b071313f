"""Correlated sub-queries that pystream does not decorrelate get an error naming them (the
ones it does: ``tests/sql/programs/correlated_subqueries.py``, recorded on PyFlink)."""
import pytest

from pystream.errors import UnsupportedFeatureError
from pystream.table import EnvironmentSettings, TableEnvironment

REFUSED = [
    ("SELECT a.x, (SELECT b.y FROM b WHERE b.x = a.x) FROM a",
     "a correlated scalar sub-query without an aggregate"),
    ("SELECT a.x, (SELECT MAX(b.y) FROM b WHERE b.x > a.x) FROM a",
     "only equalities between an inner and an outer column"),
    ("SELECT a.x FROM a WHERE EXISTS (SELECT a.x + b.y FROM b WHERE b.x = a.x)",
     "naming the outer column a.x outside its WHERE conjuncts"),
]


@pytest.fixture(scope="module")
def t_env():
    env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    env.create_temporary_view("a", env.from_elements([(1,), (2,)], ["x"]))
    env.create_temporary_view("b", env.from_elements([(1, 5)], ["x", "y"]))
    return env


@pytest.mark.parametrize("query, what", REFUSED)
def test_a_correlation_pystream_cannot_decorrelate_is_named(t_env, query, what):
    with pytest.raises(UnsupportedFeatureError, match=what):
        t_env.sql_query(query)
    assert [list(r) for r in t_env.execute_sql("SELECT COUNT(*) FROM a").collect()] == [[2]]


def test_exists_in_the_select_list_is_true_for_the_rows_where_exists_keeps(t_env):
    """``EXISTS`` and ``NOT EXISTS`` as values (PyFlink 2.3's planner fails on the correlated
    ones, "unexpected correlate variable"): TRUE exactly for the rows a WHERE EXISTS keeps."""
    flags = t_env.execute_sql(
        "SELECT x, EXISTS (SELECT 1 FROM b WHERE b.x = a.x), "
        "NOT EXISTS (SELECT 1 FROM b WHERE b.x = a.x), EXISTS (SELECT 1 FROM b) FROM a "
        "ORDER BY x").collect()
    kept = t_env.execute_sql(
        "SELECT x FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.x = a.x)").collect()
    assert [list(r) for r in flags] == [[1, True, False, True], [2, False, True, True]]
    assert [list(r) for r in kept] == [[1]]
