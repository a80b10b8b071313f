"""Operators over rows in time order, as Flink's streaming SQL runs them: aggregates OVER a
time-ordered window (``OverPartition``) and ORDER BY the rowtime (``TemporalSort``).

Both are a ``TimeOrdered`` buffer: rows ``arrive`` with their time and wait, each time with a
timer (Flink's); ``advance(watermark)`` fires the timers the watermark passed, in time
order, and returns what they emit: ``(row, extra)`` pairs, a row and the values that follow
its fields (an OVER aggregate's results; nothing for a sort).

An OVER aggregate's frame reaches back

* ``ROWS``: the current row and ``preceding`` rows before it (None: all), rows of equal time
  in arrival order;
* ``RANGE``: the rows up to ``preceding`` milliseconds earlier (None: all) and every row of
  the same time (its peers, which get the same results).

Which rows are late follows Flink's functions: an unbounded OVER frame drops a row not later
than the watermark at its arrival; a bounded frame and the sort drop a row not later than
the last timer that fired, and a bounded RANGE frame also has Flink's state-cleanup timers
(``preceding * 1.5`` after a row), which count as fired timers and clear the partition when
nothing came in between.

``TimeOrderedState`` runs one per key in Spark's state store over an unbounded table
(``transformWithState``, event time: Spark's timers wake it as the watermark passes);
``TimeOrderedReplay`` over one key of a bounded input in STREAMING mode, replaying the
watermark each record saw (``applyInPandas``).
"""
from __future__ import annotations

import bisect
import functools
import pickle
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from pyspark import cloudpickle  # accumulators of user functions are classes of the job
from pyspark.sql import Row as SparkRow
from pyspark.sql.streaming import StatefulProcessor, StatefulProcessorHandle

from pystream.runtime.changelog import Accumulators, AggregateSpec, _python_values
from pystream.runtime.records import epoch_millis

__all__ = ["OverFrame", "OverPartition", "SortOrder", "TemporalSort", "TimeOrderedState",
           "TimeOrderedReplay", "EmittedWatermarks", "END_OF_INPUT"]

END_OF_INPUT = float("inf")
Emitted = List[Tuple[dict, tuple]]


class TimeOrdered:
    """Rows waiting for the watermark, a timer per time (see the module's docstring).
    ``save()`` and ``restore()`` keep it between micro-batches without its ``spec`` (which
    holds the job's functions)."""

    def __init__(self, spec):
        self.spec = spec
        self.waiting: Dict[int, List[dict]] = {}  # time -> rows not emitted, arrival order
        self.timers: List[int] = []  # sorted, each once (Flink's timers of this key)
        self.last_fired: Optional[int] = None  # Flink's lastTriggeringTs

    def save(self) -> bytes:
        state = dict(self.__dict__)
        del state["spec"]
        return cloudpickle.dumps(state)  # user functions' accumulators are the job's classes

    @classmethod
    def restore(cls, saved: bytes, spec) -> "TimeOrdered":
        buffer = spec.new()
        buffer.__dict__.update(pickle.loads(saved))
        return buffer

    def late(self, time: int, watermark: float) -> bool:
        """Flink's rule for most of its operators: not later than the last timer fired."""
        return self.last_fired is not None and time <= self.last_fired

    def arrive(self, time: int, row: dict, watermark: float) -> bool:
        """Take a row (False: late, dropped) at ``watermark``, the watermark it came at."""
        if self.late(time, watermark):
            return False
        if time not in self.waiting:
            self.waiting[time] = []
            self.register(time)
        self.waiting[time].append(row)
        return True

    def register(self, time: int) -> None:
        at = bisect.bisect_left(self.timers, time)
        if at == len(self.timers) or self.timers[at] != time:
            self.timers.insert(at, time)

    def advance(self, watermark: float) -> Emitted:
        """Fire the timers up to ``watermark``: what they emit."""
        out: Emitted = []
        while self.timers and self.timers[0] <= watermark:
            self.fire(self.timers.pop(0), out)
        return out

    def fire(self, time: int, out: Emitted) -> None:
        raise NotImplementedError


class SortOrder:
    """ORDER BY the rowtime, then ``keys`` (column, ascending, nulls first) among rows of
    equal time."""

    results = 0  # values a row is emitted with after its fields

    def __init__(self, keys: Sequence[Tuple[str, bool, bool]]):
        self.keys = list(keys)

    def new(self) -> "TemporalSort":
        return TemporalSort(self)


class TemporalSort(TimeOrdered):
    """Flink's temporal sort: the rows of a time, sorted by the other keys (stable), when
    the watermark passes it."""

    def fire(self, time: int, out: Emitted) -> None:
        rows = self.waiting.pop(time, None)
        if rows is None:
            return
        for column, ascending, nulls_first in reversed(self.spec.keys):
            rows = sorted(rows, key=functools.partial(_sort_key, column, ascending,
                                                      nulls_first), reverse=not ascending)
        out.extend((row, ()) for row in rows)
        self.last_fired = time


def _sort_key(column: str, ascending: bool, nulls_first: bool, row: dict) -> tuple:
    value = row[column]
    first = nulls_first if ascending else not nulls_first  # reverse=True flips it back
    return (0, 0) if value is None and first else (2, 0) if value is None else (1, value)


class OverFrame:
    """The frame of an OVER window and its aggregate calls (``AggregateSpec`` over the row's
    argument columns)."""

    def __init__(self, rows: bool, preceding: Optional[int], specs: List[AggregateSpec]):
        self.rows = rows
        self.preceding = preceding  # rows, or milliseconds (RANGE); None: unbounded
        self.accumulators = Accumulators(specs)

    @property
    def results(self) -> int:
        """Values a row is emitted with after its fields: one per aggregate call."""
        return len(self.accumulators.specs)

    @property
    def unbounded(self) -> bool:
        return self.preceding is None

    @property
    def cleans_up(self) -> bool:
        """A bounded RANGE frame: Flink registers state-cleanup timers in event time."""
        return not self.rows and self.preceding is not None

    def new(self) -> "OverPartition":
        return OverPartition(self)


class OverPartition(TimeOrdered):
    """One partition of an OVER aggregation: each row with its frame's results."""

    def __init__(self, frame: OverFrame):
        super().__init__(frame)
        self.history: List[Tuple[int, dict]] = []  # emitted rows a bounded frame still needs
        self.accs: Optional[list] = None  # an unbounded frame's running accumulators
        self.cleanup_at: Optional[int] = None  # a bounded RANGE frame's cleanup timer

    def late(self, time: int, watermark: float) -> bool:
        if self.spec.unbounded:
            return time <= watermark
        return time <= (self.last_fired or 0)

    def arrive(self, time: int, row: dict, watermark: float) -> bool:
        if not super().arrive(time, row, watermark):
            return False
        preceding = self.spec.preceding
        if self.spec.cleans_up and (self.cleanup_at is None or
                                    self.cleanup_at < time + preceding + 1):
            self.cleanup_at = time + int(preceding * 1.5) + 1
            self.register(self.cleanup_at)
        return True

    def fire(self, time: int, out: Emitted) -> None:
        if self.spec.cleans_up and self.cleanup_at is not None and self.cleanup_at <= time:
            self.waiting, self.history, self.last_fired, self.cleanup_at = {}, [], None, None
            return
        rows = self.waiting.pop(time, None)
        if rows is not None:
            if self.spec.unbounded:
                self._running(rows, out)
            elif self.spec.rows:
                self._last_rows(time, rows, out)
            else:
                self._recent(time, rows, out)
        self.last_fired = time

    def _running(self, rows: List[dict], out: Emitted) -> None:
        accumulators = self.spec.accumulators
        if self.accs is None:
            self.accs = accumulators.create()
        if self.spec.rows:
            for row in rows:
                accumulators.add(self.accs, row)
                out.append((row, accumulators.results(self.accs)))
            return
        for row in rows:
            accumulators.add(self.accs, row)
        results = accumulators.results(self.accs)
        out.extend((row, results) for row in rows)

    def _last_rows(self, time: int, rows: List[dict], out: Emitted) -> None:
        accumulators, preceding = self.spec.accumulators, self.spec.preceding
        for row in rows:
            frame = [r for _, r in self.history[len(self.history) - preceding:]] \
                if preceding else []
            accs = accumulators.create()
            for r in frame + [row]:
                accumulators.add(accs, r)
            out.append((row, accumulators.results(accs)))
            self.history.append((time, row))
            del self.history[:max(0, len(self.history) - preceding)]

    def _recent(self, time: int, rows: List[dict], out: Emitted) -> None:
        accumulators = self.spec.accumulators
        self.history = [(t, r) for t, r in self.history if time - t <= self.spec.preceding]
        accs = accumulators.create()
        for _, r in self.history:
            accumulators.add(accs, r)
        for row in rows:
            accumulators.add(accs, row)
        results = accumulators.results(accs)
        out.extend((row, results) for row in rows)
        self.history.extend((time, row) for row in rows)


def _time_of(value) -> int:
    return int(epoch_millis(value))


class TimeOrderedState(StatefulProcessor):
    """``groupBy(keys).transformWithState(TimeOrderedState(spec, ...), "EventTime")`` over an
    unbounded table: a key's ``spec.new()`` buffer is its state, each of its timers one of
    Spark's, which fire as Spark's watermark passes. Ordered by processing time
    (``proctime``, time mode "ProcessingTime"), a micro-batch's rows arrive at its time and
    are emitted at once."""

    def __init__(self, spec, fields: List[str], time_field: str, output: List[str],
                 proctime: bool = False):
        self.spec = spec
        self.fields = fields  # what a row keeps: the input's fields and the arguments
        self.time_field = time_field
        self.output = output  # the fields a row is emitted with, then its extra values
        self.proctime = proctime
        self.emitted = output[:len(output) - spec.results]  # the fields

    def init(self, handle: StatefulProcessorHandle) -> None:
        self._handle = handle
        self._state = handle.getValueState("buffer", "blob binary")
        self._row = SparkRow(*self.output)

    def _load(self) -> TimeOrdered:
        stored = self._state.get()
        return TimeOrdered.restore(stored[0], self.spec) if stored is not None \
            else self.spec.new()

    def _save(self, buffer: TimeOrdered, before: List[int]) -> None:
        for time in sorted(set(buffer.timers) - set(before)):
            self._handle.registerTimer(time)
        self._state.update((buffer.save(),))

    def handleInputRows(self, key, rows, timerValues) -> Iterator[SparkRow]:
        buffer = self._load()
        if self.proctime:
            now = timerValues.getCurrentProcessingTimeInMs()
            for row in rows:
                buffer.arrive(now, {f: row[f] for f in self.fields}, float("-inf"))
            emitted = buffer.advance(now)
            self._state.update((buffer.save(),))
            return self._rows(emitted)
        before = list(buffer.timers)
        watermark = timerValues.getCurrentWatermarkInMs()
        for row in rows:
            values = {f: row[f] for f in self.fields}
            buffer.arrive(_time_of(values[self.time_field]), values, watermark)
        self._save(buffer, before)
        return iter(())

    def handleExpiredTimer(self, key, timerValues, expiredTimerInfo) -> Iterator[SparkRow]:
        buffer = self._load()
        watermark = max(timerValues.getCurrentWatermarkInMs(),
                        expiredTimerInfo.getExpiryTimeInMs())
        emitted = buffer.advance(watermark)
        self._save(buffer, buffer.timers)
        return self._rows(emitted)

    def _rows(self, emitted: Emitted) -> Iterator[SparkRow]:
        return iter([self._row(*[row[f] for f in self.emitted], *extra)
                     for row, extra in emitted])

    def close(self) -> None:
        pass


class TimeOrderedReplay:
    """``groupBy(keys).applyInPandas(TimeOrderedReplay(spec, ...))`` over a bounded input in
    STREAMING mode: one key's rows in arrival order (``seq``), each with the watermark it
    came at (``watermark``: milliseconds, None before the first); the end of the input
    fires every timer left. An emitted row keeps its own place (``seq``), or, ``in_order``
    (one key for all rows: a sort), the emitted rows take the input's places in the order
    they are emitted."""

    def __init__(self, spec, fields: List[str], time_field: str, output: List[str],
                 seq: str, watermark: str, in_order: bool = False):
        self.spec = spec
        self.in_order = in_order
        self.fields = fields
        self.time_field = time_field
        self.output = output  # the fields a row is emitted with, its extra values, ``seq``
        self.seq = seq
        self.watermark = watermark
        self.emitted = output[:len(output) - spec.results - 1]  # the fields

    def __call__(self, frame) -> Any:
        import pandas as pd


        frame = frame.sort_values(self.seq, kind="stable")
        columns = {n: _python_values(frame[n]) for n in frame.columns}
        buffer = self.spec.new()
        out: List[tuple] = []

        def emit(emitted: Emitted) -> None:
            out.extend(tuple(row[f] for f in self.emitted) + tuple(extra) + (row[self.seq],)
                       for row, extra in emitted)

        for i, watermark in enumerate(columns[self.watermark]):
            watermark = float("-inf") if watermark is None else watermark
            emit(buffer.advance(watermark))
            row = {f: columns[f][i] for f in self.fields}
            row[self.seq] = columns[self.seq][i]
            buffer.arrive(_time_of(row[self.time_field]), row, watermark)
        emit(buffer.advance(END_OF_INPUT))
        if self.in_order:
            places = sorted(columns[self.seq])
            out = [row[:-1] + (place,) for row, place in zip(out, places)]
        return pd.DataFrame(out, columns=self.output)


class EmittedWatermarks:
    """``mapInPandas`` over a bounded source's records in arrival order, in one partition
    (``seq`` and ``candidate``: the record's time minus the watermark's delay): the watermark
    each record came at (``watermark``; None before the first), as Flink's SQL watermark
    assigner emits them. It starts at 0 and emits after a record that moves it more than
    ``interval_ms`` (``pipeline.auto-watermark-interval``) past the last one it emitted; the
    periodic emission in between needs processing time, which a bounded replay does not
    have."""

    def __init__(self, seq: str, candidate: str, watermark: str, interval_ms: int = 200):
        self.seq = seq
        self.candidate = candidate
        self.watermark = watermark
        self.interval_ms = interval_ms

    def __call__(self, frames) -> Iterator[Any]:
        import pandas as pd

        current = last = 0
        emitted = False
        for frame in frames:
            seen: List[Optional[float]] = []
            for candidate in frame[self.candidate].tolist():
                seen.append(last if emitted else None)
                if candidate == candidate and candidate is not None:  # not NaN (a null)
                    current = max(current, candidate)
                if current - last > self.interval_ms:
                    last, emitted = current, True
            yield pd.DataFrame({self.seq: frame[self.seq], self.watermark: seen},
                               columns=[self.seq, self.watermark])
