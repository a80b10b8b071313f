"""Bad input gets an error of PyFlink's class that says what is wrong, and the environment
stays usable: a valid query runs right after each one."""
import pytest

from pystream.compiler.table_job import _spark_message
from pystream.errors import UnsupportedFeatureError
from pystream.table import DataTypes, SqlDialect
from pystream.table.expressions import col
from pystream.util.exceptions import TableException, ValidationException
from tests.table.conftest import rows


@pytest.fixture
def orders(t_env):
    return t_env.from_elements([(1, "apple"), (2, "pear")], ["id", "name"])


def still_usable(t_env):
    assert rows(t_env.from_elements([(1,)], ["x"])) == [(1,)]


def test_an_unknown_column_lists_the_columns_there_are(t_env, orders):
    with pytest.raises(ValidationException, match=r"Cannot resolve field \[nme\], "
                                                  r"input field list:\[id, name\]"):
        orders.select(col("nme"))
    still_usable(t_env)


def test_a_type_mismatch_names_both_types(t_env, orders):
    with pytest.raises(ValidationException, match=r"BIGINT.*STRING|STRING.*BIGINT"):
        orders.select(col("id") * col("name"))  # (+ of a string concatenates, as in Flink)
    still_usable(t_env)


def test_a_filter_that_is_not_boolean(t_env, orders):
    with pytest.raises(ValidationException, match=r"BOOLEAN|boolean"):
        orders.where(col("id"))
    still_usable(t_env)


def test_an_unknown_table(t_env):
    with pytest.raises(ValidationException, match="nowhere"):
        t_env.from_path("nowhere")
    still_usable(t_env)


def test_a_duplicate_view(t_env, orders):
    t_env.create_temporary_view("orders", orders)
    with pytest.raises(ValidationException, match=r"orders.*already exists"):
        t_env.create_temporary_view("orders", orders)
    still_usable(t_env)


def test_dropping_a_missing_table_says_so(t_env):
    assert t_env.drop_temporary_table("missing") is False
    t_env.execute_sql("CREATE TABLE gone (x INT) WITH ('connector' = 'blackhole')")
    t_env.execute_sql("DROP TABLE gone")
    with pytest.raises(ValidationException, match=r"gone.* does not exist"):
        t_env.execute_sql("DROP TABLE gone")
    t_env.execute_sql("DROP TABLE IF EXISTS gone")
    still_usable(t_env)
    still_usable(t_env)


def test_a_value_that_does_not_fit_its_type(t_env):
    with pytest.raises(TypeError, match=r"IntType can not accept"):
        t_env.from_elements([("not a number",)],
                            DataTypes.ROW([DataTypes.FIELD("n", DataTypes.INT())]))
    still_usable(t_env)


def test_an_outer_join_beyond_equalities_in_streaming_mode_names_the_construct(
        streaming_t_env):
    left = streaming_t_env.from_elements([(1, "a")], ["k", "v"])
    right = streaming_t_env.from_elements([(1, "b")], ["k2", "w"])
    with left.left_outer_join(right, col("k") == col("k2")).execute().collect() as rows:
        assert [(str(r.get_row_kind()),) + tuple(r) for r in rows] == [
            ("+I", 1, "a", None, None), ("-D", 1, "a", None, None), ("+I", 1, "a", 1, "b")]
    joined = left.left_outer_join(right, col("k") > col("k2"))
    with pytest.raises(UnsupportedFeatureError, match="more than equalities"):
        joined.execute()
    still_usable(streaming_t_env)


def test_errors_are_pyflink_classes():
    assert issubclass(ValidationException, Exception)
    assert issubclass(TableException, Exception)


def test_a_failing_spark_job_is_one_line_naming_spark_error(t_env):
    big = t_env.from_elements([(2 ** 62,)], ["a"])
    with pytest.raises(TableException, match=r"^The Table job failed: \[ARITHMETIC_OVERFLOW\]"):
        big.select(col("a") * 4).execute().print()
    still_usable(t_env)


def test_a_failing_insert_into_files_is_one_line_naming_spark_error(t_env, tmp_path):
    t_env.execute_sql("CREATE TABLE big (a BIGINT) WITH ('connector' = 'filesystem', "
                      "'path' = '%s', 'format' = 'csv')" % tmp_path)
    with pytest.raises(TableException, match=r"^The Table job failed: \[ARITHMETIC_OVERFLOW\]"):
        t_env.from_elements([(2 ** 62,)], ["a"]).select(col("a") * 4) \
            .execute_insert("big").wait()
    still_usable(t_env)


def test_columns_by_attribute_and_an_unknown_one(t_env, orders):
    assert rows(orders.select(orders.name).where(orders.name == "pear")) == [("pear",)]
    with pytest.raises(AttributeError, match=r"no field named 'nme'; fields: \[id, name\]"):
        orders.nme  # noqa: B018 - the attribute access is the test


def test_the_hive_dialect_is_refused_where_it_is_set(t_env):
    with pytest.raises(UnsupportedFeatureError, match="Hive SQL dialect"):
        t_env.get_config().set_sql_dialect(SqlDialect.HIVE)
    assert t_env.get_config().get_sql_dialect() == SqlDialect.DEFAULT
    still_usable(t_env)


def test_from_changelog_of_a_change_it_does_not_know_names_it(streaming_t_env):
    cdc = streaming_t_env.from_elements([("INSERT", 1), ("UPSERT", 2)], ["op", "v"])
    with pytest.raises(Exception, match="unknown change 'UPSERT' in column 'op'"):
        cdc.from_changelog().execute().collect().__next__()
    with pytest.raises(ValidationException, match="a STRING column 'op'"):
        streaming_t_env.from_elements([(1,)], ["v"]).from_changelog()
    with pytest.raises(UnsupportedFeatureError, match="only its default form"):
        cdc.to_changelog(col("v"))
    still_usable(streaming_t_env)


def test_a_failure_in_pystreams_own_python_keeps_what_it_raised():
    """A Table job's Python worker failure that Spark gives no error class of (pystream's
    own runtime, not a user function) still says what was raised, not only where."""
    text = "\n".join(["An exception was thrown from the Python worker:",
                      "Traceback (most recent call last):",
                      '  File "/x/running.py", line 5, in _chunk', "    x[-1]",
                      "IndexError: index -1 is out of bounds for axis 0 with size 0",
                      "\tat org.apache.spark.api.python.BasePythonRunner.read(X.scala:1)"])
    assert _spark_message(text) == ("An exception was thrown from the Python worker: "
                                    "IndexError: index -1 is out of bounds for axis 0 with "
                                    "size 0")
