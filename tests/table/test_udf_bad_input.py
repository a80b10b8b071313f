"""Bad input to Python functions: each a clear error naming the function, and the job ends
with no query or worker left behind."""
import pytest

from pystream.errors import JobExecutionError
from pystream.table import DataTypes
from pystream.table.expressions import col
from pystream.table.udf import ScalarFunction, udf
from pystream.util.exceptions import ValidationException


@pytest.fixture
def t_env(batch_t_env):
    """BATCH mode: the errors come from the same evaluators in both modes."""
    return batch_t_env


@pytest.fixture
def numbers(t_env):
    return t_env.from_elements([(1, "a"), (2, "b")], ["id", "word"])


def _failure(table) -> str:
    with pytest.raises(JobExecutionError) as raised:
        table.execute().print()
    return str(raised.value)


def test_a_result_that_does_not_fit_its_type_names_function_value_and_type(numbers):
    wrong = udf(lambda i: "not a number %d" % i, result_type=DataTypes.BIGINT())
    text = _failure(numbers.select(wrong(col("id"))))
    assert "ScalarFunction '<lambda>' (test_udf_bad_input.py:" in text
    assert "'not a number 1'" in text and "BIGINT" in text


def test_a_wrong_number_of_arguments_names_the_function(numbers):
    two = udf(lambda a, b: a + b, result_type=DataTypes.BIGINT())
    text = _failure(numbers.select(two(col("id"))))
    assert "ScalarFunction '<lambda>'" in text and "argument" in text


def test_an_unknown_function_in_sql(t_env, numbers):
    t_env.create_temporary_view("numbers", numbers)
    with pytest.raises(ValidationException, match=r"(?i)No match found for function signature "
                                                  r"nope"):
        t_env.sql_query("SELECT nope(id) FROM numbers")


class NoEval(ScalarFunction):
    pass


def test_a_scalar_function_without_eval_cannot_be_made():
    """As in PyFlink: eval is an abstract method."""
    with pytest.raises(TypeError, match=r"abstract method.* 'eval'|abstract method eval"):
        NoEval()


def test_a_pandas_function_giving_a_series_of_the_wrong_length(numbers):
    import pandas as pd

    short = udf(lambda s: pd.Series([1]), result_type=DataTypes.BIGINT(), func_type="pandas")
    text = _failure(numbers.select(short(col("id"))))
    assert "ScalarFunction '<lambda>'" in text and "length" in text


class FailingOpen(ScalarFunction):
    def open(self, function_context):
        raise RuntimeError("no connection to the price service")

    def eval(self, i):
        return i


def test_an_exception_in_open_names_the_function(numbers):
    text = _failure(numbers.select(udf(FailingOpen(), result_type="BIGINT")(col("id"))))
    assert "RuntimeError: no connection to the price service" in text
    assert "ScalarFunction 'FailingOpen'" in text


def test_after_a_failing_function_no_query_is_left_running(numbers):
    from pystream.session import get_session

    wrong = udf(lambda i: 1 // 0, result_type=DataTypes.BIGINT())
    _failure(numbers.select(wrong(col("id"))))
    assert get_session().streams.active == []
