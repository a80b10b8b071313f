"""Retry strategies of asynchronous calls: none, a fixed delay, an exponential backoff, and
their interfaces (``AsyncRetryStrategy``, ``AsyncRetryPredicate``; ``pystream.datastream.
functions`` shows them under PyFlink's path too).

Attempts are counted from 1; ``can_retry(n)`` says whether attempt ``n`` may be followed by
another, so ``max_attempts=3`` allows up to four calls, as in PyFlink.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Callable, Generic, List, Optional, TypeVar

__all__ = ["AsyncRetryPredicate", "AsyncRetryStrategy", "RetryPredicate", "NoRetryStrategy",
           "FixedDelayRetryStrategy", "ExponentialBackoffDelayRetryStrategy", "NO_RETRY_STRATEGY"]

OUT = TypeVar("OUT")


class AsyncRetryPredicate(ABC, Generic[OUT]):
    """When an asynchronous call is tried again: on its result, or on its exception."""

    @abstractmethod
    def result_predicate(self) -> Optional[Callable[[List[OUT]], bool]]:
        """A predicate on the results that asks for another attempt, or None."""

    @abstractmethod
    def exception_predicate(self) -> Optional[Callable[[Exception], bool]]:
        """A predicate on the exception that asks for another attempt, or None."""


class AsyncRetryStrategy(ABC, Generic[OUT]):
    """How often and after which delay an asynchronous call is tried again."""

    @abstractmethod
    def can_retry(self, current_attempts: int) -> bool:
        """Whether another attempt may follow attempt number ``current_attempts``."""

    @abstractmethod
    def get_backoff_time_millis(self, current_attempts: int) -> int:
        """The delay before the next attempt."""

    @abstractmethod
    def get_retry_predicate(self) -> AsyncRetryPredicate[OUT]:
        """When to try again."""

    @staticmethod
    def no_restart() -> "AsyncRetryStrategy":
        return NO_RETRY_STRATEGY

    @staticmethod
    def fixed_delay(max_attempts: int, backoff_time_millis: int,
                    result_predicate: Optional[Callable[[List[OUT]], bool]],
                    exception_predicate: Optional[Callable[[Exception], bool]]
                    ) -> "AsyncRetryStrategy":
        return FixedDelayRetryStrategy(max_attempts, backoff_time_millis, result_predicate,
                                       exception_predicate)

    @staticmethod
    def exponential_backoff(max_attempts: int, initial_delay: int, max_retry_delay: int,
                            multiplier: float,
                            result_predicate: Optional[Callable[[List[OUT]], bool]],
                            exception_predicate: Optional[Callable[[Exception], bool]]
                            ) -> "AsyncRetryStrategy":
        return ExponentialBackoffDelayRetryStrategy(max_attempts, initial_delay,
                                                    max_retry_delay, multiplier,
                                                    result_predicate, exception_predicate)



class RetryPredicate(AsyncRetryPredicate, Generic[OUT]):
    """A retry predicate made of an optional result predicate and exception predicate."""

    def __init__(self, result_predicate: Optional[Callable[[List[OUT]], bool]],
                 exception_predicate: Optional[Callable[[Exception], bool]]):
        self._result_predicate = result_predicate
        self._exception_predicate = exception_predicate

    def result_predicate(self) -> Optional[Callable[[List[OUT]], bool]]:
        return self._result_predicate

    def exception_predicate(self) -> Optional[Callable[[Exception], bool]]:
        return self._exception_predicate


class NoRetryStrategy(AsyncRetryStrategy, Generic[OUT]):
    """Never try again."""

    def can_retry(self, current_attempts: int) -> bool:
        return False

    def get_backoff_time_millis(self, current_attempts: int) -> int:
        return -1

    def get_retry_predicate(self) -> AsyncRetryPredicate[OUT]:
        return RetryPredicate(None, None)


class FixedDelayRetryStrategy(AsyncRetryStrategy, Generic[OUT]):
    """Try again after the same delay each time, while the predicates ask for it."""

    def __init__(self, max_attempts: int, backoff_time_millis: int,
                 result_predicate: Optional[Callable[[List[OUT]], bool]],
                 exception_predicate: Optional[Callable[[Exception], bool]]):
        assert max_attempts > 0, "max_attempts should be greater than zero."
        assert backoff_time_millis > 0, "backoff_time_millis should be greater than zero."
        self._max_attempts = max_attempts
        self._backoff_time_millis = backoff_time_millis
        self._predicate = RetryPredicate(result_predicate, exception_predicate)

    def can_retry(self, current_attempts: int) -> bool:
        return current_attempts <= self._max_attempts

    def get_backoff_time_millis(self, current_attempts: int) -> int:
        return self._backoff_time_millis

    def get_retry_predicate(self) -> AsyncRetryPredicate[OUT]:
        return self._predicate


class ExponentialBackoffDelayRetryStrategy(AsyncRetryStrategy, Generic[OUT]):
    """Try again after a delay that grows by ``multiplier`` up to ``max_retry_delay``."""

    def __init__(self, max_attempts: int, initial_delay: int, max_retry_delay: int,
                 multiplier: float, result_predicate: Optional[Callable[[List[OUT]], bool]],
                 exception_predicate: Optional[Callable[[Exception], bool]]):
        assert max_attempts > 0, "max_attempts should be greater than zero."
        assert initial_delay > 0, "initial_delay should be greater than zero."
        assert max_retry_delay > 0, "max_retry_delay should be greater than zero."
        assert multiplier > 0, "multiplier should be greater than zero."
        self._max_attempts = max_attempts
        self._initial_delay = initial_delay
        self._max_retry_delay = max_retry_delay
        self._multiplier = multiplier
        self._last_retry_delay = initial_delay
        self._predicate = RetryPredicate(result_predicate, exception_predicate)

    def can_retry(self, current_attempts: int) -> bool:
        return current_attempts <= self._max_attempts

    def get_backoff_time_millis(self, current_attempts: int) -> int:
        if current_attempts <= 1:
            self._last_retry_delay = self._initial_delay
        else:
            self._last_retry_delay = int(min(self._last_retry_delay * self._multiplier,
                                             self._max_retry_delay))
        return self._last_retry_delay

    def get_retry_predicate(self) -> AsyncRetryPredicate[OUT]:
        return self._predicate


NO_RETRY_STRATEGY: AsyncRetryStrategy = NoRetryStrategy()
