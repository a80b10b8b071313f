"""Watermark strategies and timestamp assigners (the object model; the compiler reads it)."""
from __future__ import annotations

import abc
from typing import Any, Callable, Optional, Union

from pystream.common.time import Duration

__all__ = ["WatermarkStrategy", "TimestampAssigner", "AssignerWithPeriodicWatermarksWrapper"]


class TimestampAssigner(abc.ABC):
    """Assigns an event-time timestamp (milliseconds since the epoch) to each record."""

    @abc.abstractmethod
    def extract_timestamp(self, value: Any, record_timestamp: int) -> int:
        """The timestamp of ``value``; ``record_timestamp`` is its previous one (or a minimum)."""


class WatermarkStrategy:
    """How event time advances: a timestamp assigner plus a watermark generator.

    >>> strategy = WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(5)) \\
    ...     .with_timestamp_assigner(MyAssigner())                     # doctest: +SKIP
    """

    def __init__(self, kind: str, max_out_of_orderness_ms: int = 0,
                 timestamp_assigner: Optional[TimestampAssigner] = None,
                 idleness_ms: Optional[int] = None):
        self.kind = kind  # 'monotonous' | 'bounded' | 'none'
        self.max_out_of_orderness_ms = max_out_of_orderness_ms
        self._timestamp_assigner = timestamp_assigner
        self.idleness_ms = idleness_ms
        self.watermark_alignment: Optional[tuple] = None  # (group, max drift, update interval)

    @property
    def timestamp_assigner(self) -> Optional[TimestampAssigner]:
        return self._timestamp_assigner

    @property
    def has_watermarks(self) -> bool:
        return self.kind != "none"

    def with_timestamp_assigner(
            self, timestamp_assigner: Union[TimestampAssigner, Callable[[Any, int], int]]
    ) -> "WatermarkStrategy":
        """Use ``timestamp_assigner`` (or a function ``(value, record_timestamp) -> int``)."""
        self._timestamp_assigner = timestamp_assigner
        return self

    def with_idleness(self, idle_timeout: Duration) -> "WatermarkStrategy":
        """Mark an input idle when it has no records for ``idle_timeout``."""
        return WatermarkStrategy(self.kind, self.max_out_of_orderness_ms, self._timestamp_assigner,
                                 idle_timeout.to_milliseconds())

    def with_watermark_alignment(self, watermark_group: str, max_allowed_watermark_drift: Duration,
                                 update_interval: Optional[Duration] = None
                                 ) -> "WatermarkStrategy":
        """Recorded (``watermark_alignment``): Spark has one global watermark per query and
        does not pause fast sources, which only changes how far sources drift apart."""
        strategy = WatermarkStrategy(self.kind, self.max_out_of_orderness_ms,
                                     self._timestamp_assigner, self.idleness_ms)
        strategy.watermark_alignment = (watermark_group, max_allowed_watermark_drift,
                                        update_interval or Duration.of_seconds(1))
        return strategy

    @staticmethod
    def for_monotonous_timestamps() -> "WatermarkStrategy":
        """Timestamps only grow: the watermark follows the largest timestamp seen."""
        return WatermarkStrategy("monotonous", 0)

    @staticmethod
    def for_bounded_out_of_orderness(max_out_of_orderness: Duration) -> "WatermarkStrategy":
        """Records are at most ``max_out_of_orderness`` late."""
        return WatermarkStrategy("bounded", max_out_of_orderness.to_milliseconds())

    @staticmethod
    def no_watermarks() -> "WatermarkStrategy":
        """No event time: for pure processing-time jobs."""
        return WatermarkStrategy("none")

    def __repr__(self):
        return "WatermarkStrategy(%s, out_of_orderness=%dms)" % (self.kind,
                                                                 self.max_out_of_orderness_ms)


class AssignerWithPeriodicWatermarksWrapper:
    """A legacy assigner of timestamps and periodic watermarks (PyFlink wraps a Java one): holds
    the assigner it was given."""

    def __init__(self, assigner: Any = None):
        self._assigner = assigner
