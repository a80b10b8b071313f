"""The async wait operator: a batch of records through an ``AsyncFunction`` at once.

Each parallel instance keeps one event loop (opened with the function, so clients the
function creates in ``open`` live on it). A batch's records are called concurrently, at most
``capacity`` at a time; each call has the operator's timeout over all its attempts, and the
retry strategy decides on another attempt from the results or the exception, as PyFlink's
``RetryableResultHandler`` does. Ordered waits emit in input order, unordered ones as calls
finish; every result keeps its input record's timestamp.
"""
from __future__ import annotations

import asyncio
from typing import Any, Iterable, List, Optional, Tuple

from pystream.core.functions import AsyncFunctionDescriptor
from pystream.runtime.errors import operator_failure

__all__ = ["AsyncRunner"]


class AsyncRunner:
    def __init__(self, descriptor: AsyncFunctionDescriptor, label: str):
        self.function = descriptor.async_function
        self.timeout_seconds = descriptor.timeout.to_milliseconds() / 1000
        self.capacity = max(1, descriptor.capacity)
        self.retry_strategy = descriptor.async_retry_strategy
        self.ordered = descriptor.output_mode is AsyncFunctionDescriptor.OutputMode.ORDERED
        self.label = label
        predicate = self.retry_strategy.get_retry_predicate()
        self.retry_on_result = predicate.result_predicate() or (lambda _: False)
        self.retry_on_error = predicate.exception_predicate() or (lambda _: False)
        self.loop: Optional[asyncio.AbstractEventLoop] = None

    def open(self) -> None:
        self.loop = asyncio.new_event_loop()

    def close(self) -> None:
        if self.loop is not None:
            self.loop.close()
            self.loop = None

    def run(self, values: list, ts: Optional[list]) -> Tuple[list, Optional[list]]:
        """The results of ``values`` (and their timestamps, when records have them)."""
        stamps = ts if ts is not None else [None] * len(values)
        finished = self.loop.run_until_complete(self._all(values))
        out, out_ts = [], []
        for index, results in finished:
            for result in results:
                out.append(result)
                out_ts.append(stamps[index])
        return out, (out_ts if ts is not None else None)

    async def _all(self, values: list) -> List[Tuple[int, list]]:
        slots = asyncio.Semaphore(self.capacity)
        finished: List[Tuple[int, list]] = []

        async def one(index: int, value) -> None:
            async with slots:
                finished.append((index, await self._call(value)))

        tasks = [asyncio.ensure_future(one(i, v)) for i, v in enumerate(values)]
        try:
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
        if self.ordered:
            finished.sort(key=lambda item: item[0])
        return finished

    async def _call(self, value) -> list:
        timeout = self.timeout_seconds
        try:
            if timeout > 0:
                results = await asyncio.wait_for(self._attempts(value), timeout)
            else:
                results = await self._attempts(value)
        except asyncio.TimeoutError:  # wait_for's; the function's own errors are _Failed
            results = self._timed_out(value)
        except _Failed as failed:
            raise operator_failure(failed.error, self.label, value) from None
        return _checked(results, self.function)

    async def _attempts(self, value) -> list:
        strategy, attempt = self.retry_strategy, 1
        while True:
            try:
                results, error = await self.function.async_invoke(value), None
            except Exception as e:  # noqa: BLE001 - the user's error, maybe retried
                results, error = None, e
            retry = ((error is None and results is not None and self.retry_on_result(results))
                     or (error is not None and self.retry_on_error(error)))
            if not (retry and strategy.can_retry(attempt)):
                break
            await asyncio.sleep(strategy.get_backoff_time_millis(attempt) / 1000)
            attempt += 1
        if error is not None:
            raise _Failed(error)
        return results

    def _timed_out(self, value) -> list:
        try:
            return self.function.timeout(value)
        except Exception as e:  # noqa: BLE001 - timeout() raises by default
            raise operator_failure(e, self.label, value) from None


class _Failed(Exception):
    def __init__(self, error: BaseException):
        self.error = error


def _checked(results: Any, function) -> Iterable:
    if results is None:
        raise RuntimeError("The result of AsyncFunction cannot be none, please check the "
                           "methods 'async_invoke' and 'timeout' of class '%s'." % type(function))
    if isinstance(results, (str, bytes)) or not isinstance(results, Iterable):
        raise RuntimeError("The result of AsyncFunction should be of list type, please check "
                           "the methods 'async_invoke' and 'timeout' of class '%s'."
                           % type(function))
    return results
