"""VALUES of constants: one table of rows in the columns' common types (no Spark for the
plan; the rows through Spark)."""
import datetime
from decimal import Decimal

import pytest

from pystream.relational import expressions as ex
from pystream.relational.constants import as_literal
from pystream.sql.parse import parse_expression
from pystream.sql.translate import to_expr
from pystream.table import DataTypes, EnvironmentSettings, TableEnvironment


def constant(sql: str) -> ex.Expr:
    return as_literal(to_expr(parse_expression(sql), None))


@pytest.mark.parametrize(("sql", "value"), [
    ("TIMESTAMP '2024-01-01 00:00:01'", datetime.datetime(2024, 1, 1, 0, 0, 1)),
    ("CAST('2024-01-01 00:00:05.999' AS TIMESTAMP(3))",
     datetime.datetime(2024, 1, 1, 0, 0, 5, 999000)),
    ("DATE '2024-02-29'", datetime.date(2024, 2, 29)),
    ("-3", -3), ("CAST(-7.50 AS DECIMAL(10, 2))", Decimal("-7.50")),
    ("CAST(NULL AS STRING)", None), ("CAST(1.5 AS DOUBLE)", 1.5),
])
def test_exact_constants_are_literals(sql, value):
    folded = constant(sql)
    assert isinstance(folded, ex.Literal) and folded.value == value


@pytest.mark.parametrize("sql", [
    "CAST(1.255 AS DECIMAL(10, 2))",  # rounds
    "CAST(2147483648 AS INT)",  # overflows
    "CAST('2024-13-01 00:00:00' AS TIMESTAMP(3))",  # no such month
    "CAST('2024-01-01 00:00:05.999' AS TIMESTAMP(0))",  # drops digits
    "CAST('abcdef' AS VARCHAR(3))",  # truncates
    "1 + 1",
])
def test_other_expressions_stay_as_they_are(sql):
    assert not isinstance(constant(sql), ex.Literal)


def test_values_of_mixed_constants_are_rows_of_their_common_types(spark):
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    table = t_env.sql_query(
        "SELECT * FROM (VALUES (1, 'tea', TIMESTAMP '2024-01-01 00:00:01'), "
        "(2.5e0, CAST(NULL AS STRING), CAST('2024-01-01 00:00:02' AS TIMESTAMP(3))), "
        "(-3, 'cake', TIMESTAMP '2024-01-01 00:00:03')) AS v(x, s, ts)")
    assert [f.data_type for f in table.get_schema().to_row_data_type().fields] == [
        DataTypes.DOUBLE().not_null(), DataTypes.STRING(),
        DataTypes.TIMESTAMP(3)]  # PyFlink: TIMESTAMP(3) NOT NULL
    with table.execute().collect() as rows:
        assert [tuple(r) for r in rows] == [
            (1.0, "tea", datetime.datetime(2024, 1, 1, 0, 0, 1)),
            (2.5, None, datetime.datetime(2024, 1, 1, 0, 0, 2)),
            (-3.0, "cake", datetime.datetime(2024, 1, 1, 0, 0, 3))]
