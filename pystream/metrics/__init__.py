"""Metrics of user functions, as PyFlink's ``pyflink.metrics``: counters, gauges, meters and
distributions in nested groups, from ``RuntimeContext.get_metrics_group()`` and
``FunctionContext.get_metric_group()``.

pystream keeps a function's metrics in the task that runs it: the function reads its own
(``counter.get_count()`` counts everything the task counted, where PyFlink's Beam metrics
count per bundle). They are not exported to a metrics system: Spark's DataFrame API has no
per-function metrics. A program written for PyFlink's metrics runs unchanged.
"""
from __future__ import annotations

import time
from typing import Callable, Dict, Optional, Tuple

__all__ = ["MetricGroup", "Metric", "Counter", "Meter", "Distribution"]


class Metric:
    """The base of the metrics a MetricGroup registers."""


class Counter(Metric):
    """A count that goes up and down."""

    def __init__(self):
        self._count = 0

    def inc(self, n: int = 1) -> None:
        self._count += n

    def dec(self, n: int = 1) -> None:
        self._count -= n

    def get_count(self) -> int:
        return self._count


class Meter(Metric):
    """Events marked over time: their count, and their rate over ``time_span_in_seconds``."""

    def __init__(self, time_span_in_seconds: int = 60):
        self._span = time_span_in_seconds
        self._count = 0
        self._marks: list = []

    def mark_event(self, value: int = 1) -> None:
        now = time.monotonic()
        self._count += value
        self._marks.append((now, value))
        while self._marks and self._marks[0][0] < now - self._span:
            self._marks.pop(0)

    def get_count(self) -> int:
        return self._count

    def get_rate(self) -> float:
        """Events per second over the time span."""
        return sum(v for _, v in self._marks) / float(self._span)


class Distribution(Metric):
    """The distribution of values: their count, sum, minimum and maximum."""

    def __init__(self):
        self.count, self.sum = 0, 0
        self.min: Optional[int] = None
        self.max: Optional[int] = None

    def update(self, value) -> None:
        self.count += 1
        self.sum += value
        self.min = value if self.min is None else min(self.min, value)
        self.max = value if self.max is None else max(self.max, value)


class MetricGroup:
    """A named group of metrics; ``add_group`` nests groups (``add_group(key, value)``: a
    key-value group, as in Flink)."""

    def __init__(self, scope: Tuple[str, ...] = ()):
        self._scope = scope
        self._groups: Dict[Tuple[str, ...], "MetricGroup"] = {}
        self._metrics: Dict[str, object] = {}

    def add_group(self, name: str, extra: Optional[str] = None) -> "MetricGroup":
        scope = (name,) if extra is None else (name, extra)
        if scope not in self._groups:
            self._groups[scope] = MetricGroup(self._scope + scope)
        return self._groups[scope]

    def counter(self, name: str) -> Counter:
        return self._register(name, Counter)

    def gauge(self, name: str, obj: Callable[[], int]) -> None:
        self._metrics[name] = obj

    def meter(self, name: str, time_span_in_seconds: int = 60) -> Meter:
        return self._register(name, lambda: Meter(time_span_in_seconds))

    def distribution(self, name: str) -> Distribution:
        return self._register(name, Distribution)

    def _register(self, name: str, make):
        metric = self._metrics.get(name)
        if metric is None:
            metric = self._metrics[name] = make()
        return metric

    def get_scope(self) -> Tuple[str, ...]:
        """The names of the groups this one is nested in, and its own."""
        return self._scope
