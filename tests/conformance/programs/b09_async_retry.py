"""Async retries (ordered_wait_with_retry / unordered_wait_with_retry): a fixed-delay strategy
retries while the result predicate holds (empty result) or the exception predicate matches,
up to max_attempts; when attempts run out the last result is emitted; exponential backoff
retries the same way. The function counts its own attempts per input."""
# oracle: ordered
import asyncio

from pyflink.common import Time, Types
from pyflink.datastream import AsyncDataStream, RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.async_retry_predicates import (
    empty_result_predicate,
    exception_type_predicate,
)
from pyflink.datastream.functions import AsyncFunction, AsyncRetryStrategy


class Flaky(AsyncFunction):
    """Input n is empty for its first n - 1 attempts; 10 raises ValueError twice first;
    99 is always empty."""

    def open(self, runtime_context):
        self.attempts = {}

    async def async_invoke(self, value):
        await asyncio.sleep(0)
        n = self.attempts[value] = self.attempts.get(value, 0) + 1
        if value == 10:
            if n <= 2:
                raise ValueError('flaky %d' % n)
            return ['%d ok after %d attempts' % (value, n)]
        if value == 99 or n < value:
            return []
        return ['%d ok after %d attempts' % (value, n)]


env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)
ds = env.from_collection([1, 2, 3, 10, 99], Types.INT())
fixed = AsyncRetryStrategy.fixed_delay(
    5, 10, empty_result_predicate, lambda e: exception_type_predicate(e, ValueError))
result = AsyncDataStream.ordered_wait_with_retry(ds, Flaky(), Time.seconds(20), fixed,
                                                 output_type=Types.STRING())
for line in result.execute_and_collect():
    print('fixed_delay', line)

ds = env.from_collection([1, 2, 4, 99], Types.INT())
backoff = AsyncRetryStrategy.exponential_backoff(3, 5, 40, 2.0, empty_result_predicate, None)
result = AsyncDataStream.unordered_wait_with_retry(ds, Flaky(), Time.seconds(20), backoff,
                                                   output_type=Types.STRING())
for line in sorted(result.execute_and_collect()):
    print('exponential_backoff', line)
