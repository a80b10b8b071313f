"""AsyncScalarFunction and ``async def`` functions: each batch's calls in flight together (up
to ``table.exec.async-scalar.max-concurrent-operations``), retried, timed out, their results
in the rows' order. Expectations are written here, not recorded: PyFlink 2.3 can pair a row
with another row's result (``db_value_for_2`` beside user ``b`` in its own example's
output, tests/examples/flink/table__async__async_scalar_function.out) and swaps the columns of
an async and a plain function in one select; its job parameters are recorded in
programs/udf_job_parameters.py."""
import asyncio

import pytest

from pystream.errors import JobExecutionError
from pystream.table import DataTypes
from pystream.table.expressions import col
from pystream.table.udf import AsyncScalarFunction, udf
from tests.table.conftest import rows


class Lookup(AsyncScalarFunction):
    """Later rows finish first; the number of calls in flight when each one started."""

    def open(self, function_context):
        self.in_flight = 0

    async def eval(self, key):
        self.in_flight += 1
        seen = self.in_flight
        await asyncio.sleep(0.02 * (13 - key))
        self.in_flight -= 1
        return "%d:%d" % (key * 10, seen)


@pytest.fixture
def t_env(batch_t_env):
    """BATCH mode: the calls run alike in both modes (STREAMING: tests/examples)."""
    batch_t_env.get_config().set("parallelism.default", "1")
    return batch_t_env


@pytest.fixture
def keys(t_env):
    return t_env.from_elements([(k,) for k in range(1, 13)], ["k"])


def test_results_keep_the_rows_order_with_calls_in_flight_together(t_env, keys):
    t_env.get_config().set("table.exec.async-scalar.max-concurrent-operations", "3")

    @udf(result_type=DataTypes.BIGINT())
    async def slow_square(x):
        await asyncio.sleep(0.01)
        return x * x

    lookup = udf(Lookup(), result_type=DataTypes.STRING())
    plus_one = udf(lambda k: k + 1, result_type=DataTypes.BIGINT())
    result = rows(keys.select(col("k"), lookup(col("k")), slow_square(col("k")),
                              plus_one(col("k"))))
    assert [(k, int(v.split(":")[0]), sq, p) for k, v, sq, p in sorted(result)] == \
        [(k, k * 10, k * k, k + 1) for k in range(1, 13)]
    assert max(int(v.split(":")[1]) for _, v, _, _ in result) == 3  # the capacity


def test_an_async_function_by_name_in_sql(t_env, keys):
    t_env.create_temporary_function("lookup", udf(Lookup(), result_type="STRING"))
    t_env.create_temporary_view("keys", keys)
    result = rows(t_env.sql_query("SELECT k, lookup(k) AS v FROM keys WHERE k > 10"))
    assert sorted((k, v.split(":")[0]) for k, v in result) == [(11, "110"), (12, "120")]


class Flaky(AsyncScalarFunction):
    """Fails on each key's first two calls."""

    def open(self, function_context):
        self.calls = {}

    async def eval(self, key):
        self.calls[key] = self.calls.get(key, 0) + 1
        if self.calls[key] <= 2:
            raise ConnectionError("service unavailable for %d" % key)
        return self.calls[key]


def test_a_failing_call_is_retried_after_the_retry_delay(t_env, keys):
    t_env.get_config().set("table.exec.async-scalar.retry-delay", "10 ms")
    flaky = udf(Flaky(), result_type=DataTypes.INT())
    assert sorted(rows(keys.select(col("k"), flaky(col("k"))))) == \
        [(k, 3) for k in range(1, 13)]


def test_without_retries_a_failing_call_fails_the_job_naming_its_row(t_env, keys):
    t_env.get_config().set("table.exec.async-scalar.retry-strategy", "NO_RETRY")
    flaky = udf(Flaky(), result_type=DataTypes.INT())
    with pytest.raises(JobExecutionError) as raised:
        keys.select(flaky(col("k"))).execute().print()
    text = str(raised.value)
    assert "ConnectionError: service unavailable for" in text
    assert "AsyncScalarFunction 'Flaky' (test_async_udf.py:" in text and "record: (" in text


def test_a_call_longer_than_the_timeout_fails_the_job(t_env, keys):
    t_env.get_config().set("table.exec.async-scalar.timeout", "200 ms")

    @udf(result_type=DataTypes.BIGINT())
    async def stuck(x):
        await asyncio.sleep(60)
        return x

    with pytest.raises(JobExecutionError, match=r"Async function call has timed out after "
                                                r"0\.2 s"):
        keys.select(stuck(col("k"))).execute().print()


def test_an_async_function_cannot_be_a_pandas_function():
    async def f(x):
        return x

    with pytest.raises(ValueError, match="Async scalar functions do not support pandas"):
        udf(f, result_type="INT", func_type="pandas")
