"""Elements of arrays and maps by index and key, in SQL and in the Table API (the generated
corpus compares them with PyFlink 2.3's answers: fn-180, fn-181, fn-183)."""
import pytest

from pystream.table.expressions import col, lit
from pystream.util.exceptions import TableException
from tests.table.conftest import rows


def test_an_element_at_a_null_index_or_outside_the_array_is_null(batch_t_env):
    """As on Flink (PyFlink 2.3 shows these NULL INTs as -1: a listed deviation); Spark 4.3's
    element_at of a constant array at a NULL index gives the array's last element, and fails
    outside the array."""
    t_env = batch_t_env
    table = t_env.sql_query("SELECT * FROM (VALUES (1, 'x'), (CAST(NULL AS INT), 'z')) "
                            "AS v(i, k)")
    t_env.create_temporary_view("t", table)
    by_sql = rows(t_env.sql_query("""SELECT ARRAY[10, 20, 30][ABS(MOD(i, 3)) + 1],
        ARRAY[10, 20, 30][CAST(NULL AS INT)], MAP['x', 1, 'y', 2][k], ARRAY[10, 20][i + 4],
        ARRAY[10, 20][i - 1], ARRAY[10, 20][i - 3] FROM t"""))
    assert by_sql == [(20, None, 1, None, None, None), (None, None, None, None, None, None)]
    by_api = rows(table.select(
        lit([10, 20, 30]).at(col("i").abs + 1), lit({"x": 1, "y": 2}).at(col("k"))))
    assert by_api == [(20, 1), (None, None)]


def test_element_of_an_array_of_more_than_one_element_fails(batch_t_env):
    """ELEMENT: the only element, NULL for an empty array; more than one fails the job, as on
    PyFlink 2.3."""
    assert rows(batch_t_env.sql_query(
        "SELECT ELEMENT(ARRAY[7]), ELEMENT(ARRAY_REMOVE(ARRAY[1], 1))")) == [(7, None)]
    with pytest.raises(TableException, match="ELEMENT of an array of more than one element"):
        rows(batch_t_env.sql_query("SELECT ELEMENT(ARRAY[1, 2])"))
