"""DataStream.cache() (computed once per environment in BATCH mode) and AsyncDataStream
(many calls in flight, order, timeouts, retries, errors). Outputs that PyFlink prints are
in tests/conformance; these check what the output cannot show."""
import asyncio

import pytest

from pystream.common import Time, Types
from pystream.datastream import AsyncDataStream, AsyncFunction, AsyncRetryStrategy
from pystream.datastream.async_retry_predicates import has_exception_predicate
from pystream.errors import JobExecutionError


def collected(ds) -> list:
    with ds.execute_and_collect() as results:
        return list(results)


class CountCalls:
    """A map that appends each record it sees to a file (the workers share this machine)."""

    def __init__(self, path):
        self.path = str(path)

    def __call__(self, x):
        with open(self.path, "a") as f:
            f.write("%d\n" % x)
        return x * 2


def test_a_cached_stream_is_computed_once_for_later_jobs(batch_env, tmp_path):
    calls = tmp_path / "calls"
    cached = batch_env.from_collection([1, 2, 3], type_info=Types.INT()) \
        .map(CountCalls(calls), Types.INT()).cache()
    assert sorted(collected(cached.map(lambda x: x + 1, Types.INT()))) == [3, 5, 7]
    assert sorted(collected(cached)) == [2, 4, 6]
    assert sorted(calls.read_text().split()) == ["1", "2", "3"]
    cached.invalidate()
    assert sorted(collected(cached)) == [2, 4, 6]
    assert len(calls.read_text().split()) == 6


def test_cache_of_a_keyed_stream_is_refused_as_in_pyflink(batch_env):
    keyed = batch_env.from_collection([1]).key_by(lambda x: x)
    with pytest.raises(Exception, match="Cache for KeyedStream is not supported"):
        keyed.cache()


class Concurrent(AsyncFunction):
    """Emits each value with the most calls that were in flight at once so far."""

    def open(self, runtime_context):
        self.in_flight = self.peak = 0

    async def async_invoke(self, value):
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        await asyncio.sleep(0.1)
        self.in_flight -= 1
        return [(value, self.peak)]


def test_async_calls_are_in_flight_together_up_to_the_capacity(env):
    env.set_parallelism(1)
    ds = env.from_collection(list(range(20)), type_info=Types.INT())
    out = collected(AsyncDataStream.ordered_wait(
        ds, Concurrent(), Time.seconds(30), 3, Types.TUPLE([Types.INT(), Types.INT()])))
    assert [value for value, _ in out] == list(range(20))
    assert max(peak for _, peak in out) == 3


class Fails(AsyncFunction):
    async def async_invoke(self, value):
        raise ValueError("service said no to %s" % value)


def test_an_async_function_that_raises_fails_the_job_with_its_line(env):
    ds = env.from_collection([7], type_info=Types.INT())
    with pytest.raises(JobExecutionError) as failure:
        collected(AsyncDataStream.unordered_wait(ds, Fails(), Time.seconds(10)))
    text = str(failure.value)
    assert "service said no to 7" in text and "async wait operator" in text
    assert "test_cache_and_async.py" in text


class Never(AsyncFunction):
    async def async_invoke(self, value):
        await asyncio.sleep(60)
        return [value]


def test_a_timed_out_call_raises_by_default(streaming_env):
    ds = streaming_env.from_collection([5], type_info=Types.INT())
    with pytest.raises(JobExecutionError, match="Async function call has timed out for input: 5"):
        collected(AsyncDataStream.ordered_wait(ds, Never(), Time.milliseconds(200)))


class FailsTwice(AsyncFunction):
    def open(self, runtime_context):
        self.calls = 0

    async def async_invoke(self, value):
        self.calls += 1
        if self.calls <= 2:
            raise ConnectionError("flaky")
        return [(value, self.calls)]


def test_exceptions_are_retried_by_the_strategy(streaming_env):
    streaming_env.set_parallelism(1)
    ds = streaming_env.from_collection([1], type_info=Types.INT())
    strategy = AsyncRetryStrategy.fixed_delay(3, 10, None, has_exception_predicate)
    out = collected(AsyncDataStream.ordered_wait_with_retry(
        ds, FailsTwice(), Time.seconds(10), strategy, output_type=Types.TUPLE(
            [Types.INT(), Types.INT()])))
    assert out == [(1, 3)]


def test_async_invoke_must_be_a_coroutine(streaming_env):
    class Plain(AsyncFunction):
        def async_invoke(self, value):
            return [value]

    ds = streaming_env.from_collection([1])
    with pytest.raises(Exception, match="should be declared as 'async def'"):
        AsyncDataStream.unordered_wait(ds, Plain(), Time.seconds(1))
