"""Restart strategies (PyFlink's ``pyflink.common.restart_strategy``).

Recorded only: a failed pystream job fails (Spark retries failed tasks by itself, see
``spark.task.maxFailures``); the ``restart-strategy.*`` configuration keys are kept likewise.
"""
from __future__ import annotations

from abc import ABCMeta
from datetime import timedelta
from typing import Optional, Union

__all__ = ["RestartStrategies", "RestartStrategyConfiguration"]


def _interval(value: Union[int, timedelta, None], name: str) -> Optional[timedelta]:
    if value is None or isinstance(value, timedelta):
        return value
    if isinstance(value, int):
        return timedelta(milliseconds=value)
    raise TypeError("The parameter '%s' only supports integer and datetime.timedelta, current "
                    "input type is %s." % (name, type(value)))


class RestartStrategyConfiguration(metaclass=ABCMeta):
    """Abstract configuration for restart strategies."""

    def get_description(self) -> str:
        """A description of the restart strategy."""
        return ""

    def __eq__(self, other):
        return isinstance(other, self.__class__) and self.__dict__ == other.__dict__

    def __hash__(self):
        return hash((type(self).__name__, tuple(sorted(self.__dict__.items()))))

    def __repr__(self):
        return self.get_description()


class RestartStrategies:
    """Generates RestartStrategyConfigurations."""

    class NoRestartStrategyConfiguration(RestartStrategyConfiguration):
        """Configuration representing no restart strategy."""

        def get_description(self) -> str:
            return "Restart deactivated."

    class FixedDelayRestartStrategyConfiguration(RestartStrategyConfiguration):
        """Configuration representing a fixed delay restart strategy."""

        def __init__(self, restart_attempts: Optional[int] = None,
                     delay_between_attempts_interval: Union[int, timedelta, None] = None):
            self._restart_attempts = restart_attempts
            self._delay = _interval(delay_between_attempts_interval,
                                    "delay_between_attempts_interval")

        def get_restart_attempts(self) -> int:
            return self._restart_attempts

        def get_delay_between_attempts_interval(self) -> timedelta:
            return self._delay

        def get_description(self) -> str:
            return "Restart with fixed delay (%s). #%s restart attempts." % (
                self._delay, self._restart_attempts)

    class FailureRateRestartStrategyConfiguration(RestartStrategyConfiguration):
        """Configuration representing a failure rate restart strategy."""

        def __init__(self, max_failure_rate: Optional[int] = None,
                     failure_interval: Union[int, timedelta, None] = None,
                     delay_between_attempts_interval: Union[int, timedelta, None] = None):
            self._max_failure_rate = max_failure_rate
            self._failure_interval = _interval(failure_interval, "failure_interval")
            self._delay = _interval(delay_between_attempts_interval,
                                    "delay_between_attempts_interval")

        def get_max_failure_rate(self) -> int:
            return self._max_failure_rate

        def get_failure_interval(self) -> timedelta:
            return self._failure_interval

        def get_delay_between_attempts_interval(self) -> timedelta:
            return self._delay

        def get_description(self) -> str:
            return "Failure rate restart with maximum of %s failures within interval %s and " \
                   "fixed delay %s." % (self._max_failure_rate, self._failure_interval,
                                        self._delay)

    class FallbackRestartStrategyConfiguration(RestartStrategyConfiguration):
        """Use the cluster level restart strategy."""

        def get_description(self) -> str:
            return "Cluster level default restart strategy"

    @staticmethod
    def no_restart() -> "RestartStrategies.NoRestartStrategyConfiguration":
        """Generates NoRestartStrategyConfiguration."""
        return RestartStrategies.NoRestartStrategyConfiguration()

    @staticmethod
    def fall_back_restart() -> "RestartStrategies.FallbackRestartStrategyConfiguration":
        return RestartStrategies.FallbackRestartStrategyConfiguration()

    @staticmethod
    def fixed_delay_restart(restart_attempts: int, delay_between_attempts: Union[int, timedelta]
                            ) -> "RestartStrategies.FixedDelayRestartStrategyConfiguration":
        """A FixedDelayRestartStrategyConfiguration: ``restart_attempts`` attempts,
        ``delay_between_attempts`` (milliseconds or a timedelta) apart."""
        return RestartStrategies.FixedDelayRestartStrategyConfiguration(restart_attempts,
                                                                        delay_between_attempts)

    @staticmethod
    def failure_rate_restart(failure_rate: int, failure_interval: Union[int, timedelta],
                             delay_interval: Union[int, timedelta]
                             ) -> "RestartStrategies.FailureRateRestartStrategyConfiguration":
        """A FailureRateRestartStrategyConfiguration: at most ``failure_rate`` restarts within
        ``failure_interval``, ``delay_interval`` apart (milliseconds or timedeltas)."""
        return RestartStrategies.FailureRateRestartStrategyConfiguration(
            failure_rate, failure_interval, delay_interval)
