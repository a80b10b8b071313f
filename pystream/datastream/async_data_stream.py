"""``AsyncDataStream``: apply an ``AsyncFunction`` to a stream, many calls in flight at once."""
from __future__ import annotations

import inspect
from typing import Optional

from pystream.common.typeinfo import TypeInformation
from pystream.core.functions import (
    AsyncFunction,
    AsyncFunctionDescriptor,
    AsyncRetryStrategy,
)
from pystream.datastream import async_retry_strategies
from pystream.datastream.data_stream import DataStream

__all__ = ["AsyncDataStream"]


class AsyncDataStream:
    """Apply an ``AsyncFunction`` to a data stream.

    Within each batch of records up to ``capacity`` calls run at once on one event loop per
    parallel instance; ``ordered_wait`` emits results in input order, ``unordered_wait`` as
    calls finish. A call that takes longer than ``timeout`` gives ``timeout(value)``'s
    results (by default it raises, failing the job).
    """

    @staticmethod
    def unordered_wait(data_stream: DataStream, async_function: AsyncFunction, timeout,
                       capacity: int = 100,
                       output_type: Optional[TypeInformation] = None) -> DataStream:
        """Results in the order the calls finish."""
        return AsyncDataStream.unordered_wait_with_retry(
            data_stream, async_function, timeout, async_retry_strategies.NO_RETRY_STRATEGY,
            capacity, output_type)

    @staticmethod
    def unordered_wait_with_retry(data_stream: DataStream, async_function: AsyncFunction,
                                  timeout, async_retry_strategy: AsyncRetryStrategy,
                                  capacity: int = 100,
                                  output_type: Optional[TypeInformation] = None) -> DataStream:
        """Results in the order the calls finish; failed calls tried again by the strategy."""
        return _async_wait(data_stream, async_function, timeout, async_retry_strategy,
                           capacity, output_type, ordered=False)

    @staticmethod
    def ordered_wait(data_stream: DataStream, async_function: AsyncFunction, timeout,
                     capacity: int = 100,
                     output_type: Optional[TypeInformation] = None) -> DataStream:
        """Results in the order of the input records."""
        return AsyncDataStream.ordered_wait_with_retry(
            data_stream, async_function, timeout, async_retry_strategies.NO_RETRY_STRATEGY,
            capacity, output_type)

    @staticmethod
    def ordered_wait_with_retry(data_stream: DataStream, async_function: AsyncFunction,
                                timeout, async_retry_strategy: AsyncRetryStrategy,
                                capacity: int = 100,
                                output_type: Optional[TypeInformation] = None) -> DataStream:
        """Results in the order of the input records; failed calls tried again."""
        return _async_wait(data_stream, async_function, timeout, async_retry_strategy,
                           capacity, output_type, ordered=True)


def _async_wait(data_stream: DataStream, function: AsyncFunction, timeout,
                strategy: AsyncRetryStrategy, capacity: int,
                output_type: Optional[TypeInformation], ordered: bool) -> DataStream:
    if not inspect.iscoroutinefunction(function.async_invoke):
        raise Exception("Method 'async_invoke' of class '%s' should be declared as "
                        "'async def'." % type(function))
    if strategy is None:
        raise Exception("Async retry strategy should not be None.")
    timeout_millis = timeout.to_milliseconds()
    if strategy is not async_retry_strategies.NO_RETRY_STRATEGY and timeout_millis <= 0:
        raise Exception("Timeout should be configured when do async with retry.")
    if strategy.get_retry_predicate() is None:
        raise Exception("Retry predicate of the async retry strategy '%s' is None."
                        % type(strategy))
    mode = AsyncFunctionDescriptor.OutputMode
    descriptor = AsyncFunctionDescriptor(function, timeout, capacity, strategy,
                                         mode.ORDERED if ordered else mode.UNORDERED)
    return data_stream._stateless("async", descriptor, "async wait operator", output_type)
