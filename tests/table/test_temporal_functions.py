"""The Table API's temporal functions give what their SQL forms give (which the generated
corpus compares with PyFlink 2.3's answers: fn-148, fn-149, fn-152, fn-153):
``floor``/``ceil`` to a unit, ``timestamp_diff`` and TIMESTAMPADD."""
import datetime

from pystream.table.expression import TimePointUnit
from pystream.table.expressions import col, lit, timestamp_diff
from tests.table.conftest import rows

SQL = """SELECT FLOOR(ts TO HOUR), CEIL(ts TO HOUR), FLOOR(d TO MONTH), CEIL(d TO MONTH),
    TIMESTAMPDIFF(MONTH, TIMESTAMP '2024-01-31 00:00:00', ts), TIMESTAMPDIFF(DAY, ts, d),
    TIMESTAMPADD(WEEK, 1, ts) FROM t"""


def test_floor_ceil_and_timestamp_diff_as_in_sql(batch_t_env):
    t_env = batch_t_env
    table = t_env.sql_query("SELECT * FROM (VALUES (TIMESTAMP '2024-02-29 13:45:30', "
                            "DATE '2024-02-01'), (TIMESTAMP '2024-03-01 00:00:00', "
                            "DATE '2024-03-01')) AS v(ts, d)")
    t_env.create_temporary_view("t", table)
    by_sql = rows(t_env.sql_query(SQL))
    by_api = rows(table.select(
        col("ts").floor(TimePointUnit.HOUR), col("ts").ceil(TimePointUnit.HOUR),
        col("d").floor(TimePointUnit.MONTH), col("d").ceil(TimePointUnit.MONTH),
        timestamp_diff(TimePointUnit.MONTH, lit(datetime.datetime(2024, 1, 31)).cast(
            table.get_schema().get_field_data_type("ts")), col("ts")),
        timestamp_diff(TimePointUnit.DAY, col("ts"), col("d"))))
    assert [r[:6] for r in by_sql] == by_api
    # as PyFlink 2.3 answers the same expressions in the corpus (fn-148, fn-149, fn-153)
    assert by_sql[0][:5] == (datetime.datetime(2024, 2, 29, 13),
                             datetime.datetime(2024, 2, 29, 14), datetime.date(2024, 2, 1),
                             datetime.date(2024, 2, 1), 1)
