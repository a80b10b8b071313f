"""Durations, time intervals and instants (pure Python, no JVM)."""
from __future__ import annotations

import re

__all__ = ["Duration", "Instant", "Time"]


class Duration:
    """An amount of time, such as 34.5 seconds, held in milliseconds.

    >>> Duration.of_seconds(2).to_milliseconds()
    2000
    """

    __slots__ = ("_nanos",)

    def __init__(self, nanos: int):
        self._nanos = int(nanos)

    @staticmethod
    def of_days(days: int) -> "Duration":
        return Duration(days * 86_400_000_000_000)

    @staticmethod
    def of_hours(hours: int) -> "Duration":
        return Duration(hours * 3_600_000_000_000)

    @staticmethod
    def of_minutes(minutes: int) -> "Duration":
        return Duration(minutes * 60_000_000_000)

    @staticmethod
    def of_seconds(seconds: int) -> "Duration":
        return Duration(seconds * 1_000_000_000)

    @staticmethod
    def of_millis(millis: int) -> "Duration":
        return Duration(millis * 1_000_000)

    @staticmethod
    def of_nanos(nanos: int) -> "Duration":
        return Duration(nanos)

    def to_milliseconds(self) -> int:
        return self._nanos // 1_000_000

    def to_nanos(self) -> int:
        return self._nanos

    def __eq__(self, other):
        return isinstance(other, Duration) and self._nanos == other._nanos

    def __hash__(self):
        return hash(self._nanos)

    def __repr__(self):
        return "Duration(%d ms)" % self.to_milliseconds()


class Instant:
    """A point on the time line, like java.time.Instant."""

    __slots__ = ("seconds", "nanos")

    def __init__(self, seconds: int, nanos: int):
        self.seconds = seconds
        self.nanos = nanos

    def to_epoch_milli(self) -> int:
        return self.seconds * 1000 + self.nanos // 1_000_000

    @staticmethod
    def of_epoch_milli(epoch_milli: int) -> "Instant":
        return Instant(epoch_milli // 1000, (epoch_milli % 1000) * 1_000_000)

    def __eq__(self, other):
        return (isinstance(other, Instant) and self.seconds == other.seconds
                and self.nanos == other.nanos)

    def __hash__(self):
        return hash((self.seconds, self.nanos))

    def __repr__(self):
        return "Instant<{}, {}>".format(self.seconds, self.nanos)


class Time:
    """A time interval in milliseconds (used by windows and TTL).

    >>> Time.minutes(1).to_milliseconds()
    60000
    """

    __slots__ = ("_milliseconds",)

    def __init__(self, milliseconds: int):
        self._milliseconds = milliseconds

    def to_milliseconds(self) -> int:
        return self._milliseconds

    @staticmethod
    def milliseconds(milliseconds: int) -> "Time":
        return Time(milliseconds)

    @staticmethod
    def seconds(seconds: int) -> "Time":
        return Time(seconds * 1000)

    @staticmethod
    def minutes(minutes: int) -> "Time":
        return Time(minutes * 60_000)

    @staticmethod
    def hours(hours: int) -> "Time":
        return Time(hours * 3_600_000)

    @staticmethod
    def days(days: int) -> "Time":
        return Time(days * 86_400_000)

    def __eq__(self, other):
        return isinstance(other, Time) and self._milliseconds == other._milliseconds

    def __hash__(self):
        return hash(self._milliseconds)

    def __str__(self):
        return "{} ms".format(self._milliseconds)

    __repr__ = __str__


def to_millis(duration) -> int:
    """Milliseconds of a ``Duration``, ``Time`` or plain number of milliseconds."""
    if isinstance(duration, (Duration, Time)):
        return duration.to_milliseconds()
    return int(duration)


_UNIT_MILLIS = {"ms": 1, "milli": 1, "millis": 1, "millisecond": 1, "milliseconds": 1,
                "s": 1000, "sec": 1000, "secs": 1000, "second": 1000, "seconds": 1000,
                "m": 60_000, "min": 60_000, "mins": 60_000, "minute": 60_000,
                "minutes": 60_000, "h": 3_600_000, "hour": 3_600_000, "hours": 3_600_000,
                "d": 86_400_000, "day": 86_400_000, "days": 86_400_000}


def duration_text(millis: int) -> str:
    """A duration as Flink writes it, in the largest unit that holds it whole: ``1 h``,
    ``90 s``, ``1500 ms``."""
    for unit, size in (("d", 86_400_000), ("h", 3_600_000), ("min", 60_000), ("s", 1000)):
        if millis and millis % size == 0:
            return "%d %s" % (millis // size, unit)
    return "%d ms" % millis


def duration_millis(text: str) -> int:
    """Milliseconds of a Flink duration setting: ``"500"`` (ms), ``"5 s"``, ``"1min"``."""
    match = re.fullmatch(r"\s*(-?\d+)\s*([a-zA-Z]*)\s*", text)
    unit = match.group(2).lower() if match else None
    if unit is not None and (not unit or unit in _UNIT_MILLIS):
        return int(match.group(1)) * _UNIT_MILLIS.get(unit, 1)
    raise ValueError("Could not parse duration %r: expected a number with an optional unit "
                     "(ms, s, min, h, d)" % text)
