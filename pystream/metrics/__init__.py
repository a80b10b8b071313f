"""Metrics of user functions, as PyFlink's ``pyflink.metrics``: counters, gauges, meters and
distributions in nested groups, from ``RuntimeContext.get_metrics_group()`` and
``FunctionContext.get_metric_group()``.

A function reads its own metrics (``counter.get_count()`` counts what this instance counted,
where PyFlink's Beam metrics count per bundle). In a job, every update also reaches the
job's totals (a ``Reporter`` the runtime gives the function's context), summed over the
tasks that run the function: the program reads them with ``get_metrics()`` of the job's
``JobClient`` (while it runs) or ``JobExecutionResult`` (at its end), the shell shows them
in ``%jobs``. A metric is named by the function (its task's name) and its groups:
``tokenize.words.count`` is the counter ``count`` of ``add_group("words")`` in ``tokenize``.
"""
from __future__ import annotations

import time
from typing import Callable, Dict, Optional, Tuple

__all__ = ["MetricGroup", "Metric", "Counter", "Meter", "Distribution", "Reporter"]


class Metric:
    """The base of the metrics a MetricGroup registers."""

    def value(self) -> dict:
        """What a report shows of the metric."""
        raise NotImplementedError


class Counter(Metric):
    """A count that goes up and down."""

    def __init__(self, total: Optional["Counter"] = None):
        self._count = 0
        self._total = total  # the job's, in a job

    def inc(self, n: int = 1) -> None:
        self._count += n
        if self._total is not None:
            self._total.inc(n)

    def dec(self, n: int = 1) -> None:
        self.inc(-n)

    def get_count(self) -> int:
        return self._count

    def value(self) -> dict:
        return {"count": self._count}


class Meter(Metric):
    """Events marked over time: their count, and their rate over ``time_span_in_seconds``."""

    def __init__(self, time_span_in_seconds: int = 60, total: Optional["Meter"] = None):
        self._span = time_span_in_seconds
        self._count = 0
        self._marks: list = []
        self._total = total

    def mark_event(self, value: int = 1) -> None:
        now = time.monotonic()
        self._count += value
        self._marks.append((now, value))
        while self._marks and self._marks[0][0] < now - self._span:
            self._marks.pop(0)
        if self._total is not None:
            self._total.mark_event(value)

    def get_count(self) -> int:
        return self._count

    def get_rate(self) -> float:
        """Events per second over the time span."""
        return sum(v for _, v in self._marks) / float(self._span)

    def value(self) -> dict:
        return {"count": self._count, "rate": self.get_rate()}


class Distribution(Metric):
    """The distribution of values: their count, sum, minimum and maximum."""

    def __init__(self, total: Optional["Distribution"] = None):
        self.count, self.sum = 0, 0
        self.min: Optional[int] = None
        self.max: Optional[int] = None
        self._total = total

    def update(self, value) -> None:
        self.count += 1
        self.sum += value
        self.min = value if self.min is None else min(self.min, value)
        self.max = value if self.max is None else max(self.max, value)
        if self._total is not None:
            self._total.update(value)

    def value(self) -> dict:
        return {"count": self.count, "sum": self.sum, "min": self.min, "max": self.max}


class Reporter:
    """Where a job's metrics add up: one metric per name, which the functions' own metrics
    of that name update too (the runtime writes them out for the driver)."""

    def total(self, name: str, kind: type) -> Metric:
        """The job's metric ``name`` of class ``kind``."""
        raise NotImplementedError

    def gauge(self, name: str, obj: Callable[[], object]) -> None:
        """The gauge ``name`` reads ``obj()``."""
        raise NotImplementedError


class MetricGroup:
    """A named group of metrics; ``add_group`` nests groups (``add_group(key, value)``: a
    key-value group, as in Flink). ``owner`` (the function's name) and ``reporter`` (the
    job's totals) come from the runtime."""

    def __init__(self, scope: Tuple[str, ...] = (), owner: str = "",
                 reporter: Optional[Reporter] = None):
        self._scope = scope
        self._owner = owner
        self._reporter = reporter
        self._groups: Dict[Tuple[str, ...], "MetricGroup"] = {}
        self._metrics: Dict[str, object] = {}

    def add_group(self, name: str, extra: Optional[str] = None) -> "MetricGroup":
        scope = (name,) if extra is None else (name, extra)
        if scope not in self._groups:
            self._groups[scope] = MetricGroup(self._scope + scope, self._owner, self._reporter)
        return self._groups[scope]

    def counter(self, name: str) -> Counter:
        return self._register(name, Counter, lambda total: Counter(total))

    def gauge(self, name: str, obj: Callable[[], int]) -> None:
        self._metrics[name] = obj
        if self._reporter is not None:
            self._reporter.gauge(self._name(name), obj)

    def meter(self, name: str, time_span_in_seconds: int = 60) -> Meter:
        return self._register(name, Meter,
                              lambda total: Meter(time_span_in_seconds, total))

    def distribution(self, name: str) -> Distribution:
        return self._register(name, Distribution, lambda total: Distribution(total))

    def _register(self, name: str, kind: type, make):
        metric = self._metrics.get(name)
        if metric is None:
            total = None if self._reporter is None else \
                self._reporter.total(self._name(name), kind)
            metric = self._metrics[name] = make(total)
        return metric

    def _name(self, name: str) -> str:
        return ".".join(p for p in (self._owner, *self._scope, name) if p)

    def get_scope(self) -> Tuple[str, ...]:
        """The names of the groups this one is nested in, and its own."""
        return self._scope
