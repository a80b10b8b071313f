"""Aggregates OVER windows ordered by time, per partition: what Flink's streaming over
aggregates emit (append-only, each row once, with the results of its frame).

``OverPartition`` is one partition's operator. Rows ``arrive`` with their time and wait;
``advance(watermark)`` fires the timers the watermark passed, in time order, and returns the
rows it emits: each row with the results over its frame, which reaches back

* ``ROWS``: the current row and ``preceding`` rows before it (None: all), rows of equal time
  in arrival order;
* ``RANGE``: the rows up to ``preceding`` milliseconds earlier (None: all) and every row of
  the same time (its peers, which get the same results).

Which rows are late follows Flink's functions: an unbounded frame drops a row not later than
the watermark at its arrival; a bounded frame drops a row not later than the last timer that
fired for its partition, and a bounded RANGE frame also has Flink's state-cleanup timers
(``preceding * 1.5`` after a row), which count as fired timers and clear the partition when
nothing came in between.

``OverAggregateState`` runs it in Spark's state store over an unbounded table
(``transformWithState``, event time: Spark's timers wake it as the watermark passes);
``OverAggregateReplay`` over one partition of a bounded input in STREAMING mode, replaying
the watermark each record saw (``applyInPandas``).
"""
from __future__ import annotations

import bisect
import pickle
from typing import Any, Dict, Iterator, List, Optional, Tuple

from pyspark import cloudpickle  # accumulators of user functions are classes of the job
from pyspark.sql import Row as SparkRow
from pyspark.sql.streaming import StatefulProcessor, StatefulProcessorHandle

from pystream.runtime.changelog import Accumulators, AggregateSpec
from pystream.runtime.records import epoch_millis

__all__ = ["OverFrame", "OverPartition", "OverAggregateState", "OverAggregateReplay"]

END_OF_INPUT = float("inf")


class OverFrame:
    """The frame of an OVER window and its aggregate calls (``AggregateSpec`` over the row's
    argument columns)."""

    def __init__(self, rows: bool, preceding: Optional[int], specs: List[AggregateSpec]):
        self.rows = rows
        self.preceding = preceding  # rows, or milliseconds (RANGE); None: unbounded
        self.accumulators = Accumulators(specs)

    @property
    def unbounded(self) -> bool:
        return self.preceding is None

    @property
    def cleans_up(self) -> bool:
        """A bounded RANGE frame: Flink registers state-cleanup timers in event time."""
        return not self.rows and self.preceding is not None


class OverPartition:
    """One partition of an OVER aggregation (see the module's docstring). ``save()`` and
    ``restore()`` keep it between micro-batches (without its frame: the job's functions)."""

    def __init__(self, frame: OverFrame):
        self.frame = frame
        self.waiting: Dict[int, List[dict]] = {}  # time -> rows not emitted yet, in arrival order
        self.timers: List[int] = []  # sorted, each once (Flink's timers of this key)
        self.history: List[Tuple[int, dict]] = []  # emitted rows a bounded frame still needs
        self.accs: Optional[list] = None  # an unbounded frame's running accumulators
        self.last_fired: int = 0  # Flink's lastTriggeringTs (0: none yet)
        self.cleanup_at: Optional[int] = None  # a bounded RANGE frame's cleanup timer

    def save(self) -> bytes:
        state = dict(self.__dict__)
        del state["frame"]
        return cloudpickle.dumps(state)  # user functions' accumulators are the job's classes

    @staticmethod
    def restore(saved: bytes, frame: OverFrame) -> "OverPartition":
        partition = OverPartition(frame)
        partition.__dict__.update(pickle.loads(saved))
        return partition

    # -- arrival

    def arrive(self, time: int, row: dict, watermark: float) -> bool:
        """Take a row (False: late, dropped) at ``watermark``, the watermark it came at."""
        if self.frame.unbounded:
            if time <= watermark:
                return False
        elif time <= self.last_fired:
            return False
        if time not in self.waiting:
            self.waiting[time] = []
            self._register(time)
        self.waiting[time].append(row)
        if self.frame.cleans_up:
            self._register_cleanup(time)
        return True

    def _register(self, time: int) -> None:
        at = bisect.bisect_left(self.timers, time)
        if at == len(self.timers) or self.timers[at] != time:
            self.timers.insert(at, time)

    def _register_cleanup(self, time: int) -> None:
        preceding = self.frame.preceding
        if self.cleanup_at is None or self.cleanup_at < time + preceding + 1:
            self.cleanup_at = time + int(preceding * 1.5) + 1
            self._register(self.cleanup_at)

    # -- the watermark

    def next_timer(self) -> Optional[int]:
        return self.timers[0] if self.timers else None

    def advance(self, watermark: float) -> List[Tuple[dict, tuple]]:
        """Fire the timers up to ``watermark``: the rows emitted, each with its results."""
        out: List[Tuple[dict, tuple]] = []
        while self.timers and self.timers[0] <= watermark:
            self._fire(self.timers.pop(0), out)
        return out

    def _fire(self, time: int, out: list) -> None:
        if self.frame.cleans_up and self.cleanup_at is not None and self.cleanup_at <= time:
            self.waiting, self.history, self.last_fired, self.cleanup_at = {}, [], 0, None
            self.timers = []
            return
        rows = self.waiting.pop(time, None)
        if rows is not None:
            if self.frame.unbounded:
                self._running(rows, out)
            elif self.frame.rows:
                self._last_rows(time, rows, out)
            else:
                self._recent(time, rows, out)
        self.last_fired = time

    def _running(self, rows: List[dict], out: list) -> None:
        accumulators = self.frame.accumulators
        if self.accs is None:
            self.accs = accumulators.create()
        if self.frame.rows:
            for row in rows:
                accumulators.add(self.accs, row)
                out.append((row, accumulators.results(self.accs)))
            return
        for row in rows:
            accumulators.add(self.accs, row)
        results = accumulators.results(self.accs)
        out.extend((row, results) for row in rows)

    def _last_rows(self, time: int, rows: List[dict], out: list) -> None:
        accumulators, preceding = self.frame.accumulators, self.frame.preceding
        for row in rows:
            frame = [r for _, r in self.history[len(self.history) - preceding:]] \
                if preceding else []
            accs = accumulators.create()
            for r in frame + [row]:
                accumulators.add(accs, r)
            out.append((row, accumulators.results(accs)))
            self.history.append((time, row))
            del self.history[:max(0, len(self.history) - preceding)]

    def _recent(self, time: int, rows: List[dict], out: list) -> None:
        accumulators = self.frame.accumulators
        self.history = [(t, r) for t, r in self.history if time - t <= self.frame.preceding]
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


class OverAggregateState(StatefulProcessor):
    """``groupBy(partition keys).transformWithState(OverAggregateState(...), "EventTime")``:
    an OVER aggregation over an unbounded table. A partition's ``OverPartition`` is its
    state; each of its timers is one of Spark's, which fire as Spark's watermark passes.
    Ordered by processing time (``proctime``, time mode "ProcessingTime"), a micro-batch's
    rows arrive at its time and are emitted at once."""

    def __init__(self, frame: OverFrame, fields: List[str], time_field: str,
                 output: List[str], proctime: bool = False):
        self.frame = frame
        self.fields = fields  # what a row keeps: the input's fields and the arguments
        self.time_field = time_field
        self.output = output  # the input's fields, then the aggregates
        self.proctime = proctime

    def init(self, handle: StatefulProcessorHandle) -> None:
        self._handle = handle
        self._state = handle.getValueState("partition", "blob binary")
        self._row = SparkRow(*self.output)

    def _load(self) -> OverPartition:
        stored = self._state.get()
        return OverPartition.restore(stored[0], self.frame) if stored is not None \
            else OverPartition(self.frame)

    def _save(self, partition: OverPartition, before: List[int]) -> None:
        for time in sorted(set(partition.timers) - set(before)):
            self._handle.registerTimer(time)
        self._state.update((partition.save(),))

    def handleInputRows(self, key, rows, timerValues) -> Iterator[SparkRow]:
        partition = self._load()
        if self.proctime:
            now = timerValues.getCurrentProcessingTimeInMs()
            for row in rows:
                partition.arrive(now, {f: row[f] for f in self.fields}, float("-inf"))
            emitted = partition.advance(now)
            self._state.update((partition.save(),))
            return self._rows(emitted)
        before = list(partition.timers)
        watermark = timerValues.getCurrentWatermarkInMs()
        for row in rows:
            values = {f: row[f] for f in self.fields}
            partition.arrive(_time_of(values[self.time_field]), values, watermark)
        self._save(partition, before)
        return iter(())

    def handleExpiredTimer(self, key, timerValues, expiredTimerInfo) -> Iterator[SparkRow]:
        partition = self._load()
        watermark = max(timerValues.getCurrentWatermarkInMs(),
                        expiredTimerInfo.getExpiryTimeInMs())
        emitted = partition.advance(watermark)
        self._save(partition, partition.timers)
        return self._rows(emitted)

    def _rows(self, emitted) -> Iterator[SparkRow]:
        n = len(self.output) - len(self.frame.accumulators.specs)
        return iter([self._row(*[row[f] for f in self.output[:n]], *results)
                     for row, results in emitted])

    def close(self) -> None:
        pass


class OverAggregateReplay:
    """``groupBy(partition keys).applyInPandas(OverAggregateReplay(...))`` over a bounded
    input in STREAMING mode: one partition's rows in arrival order (``seq``), each with the
    watermark it came at (``watermark``: milliseconds, None before the first); the end of
    the input fires every timer left. An emitted row keeps its own place (``seq``)."""

    def __init__(self, frame: OverFrame, fields: List[str], time_field: str,
                 output: List[str], seq: str, watermark: str):
        self.frame = frame
        self.fields = fields
        self.time_field = time_field
        self.output = output  # the input's fields, the aggregates, then ``seq``
        self.seq = seq
        self.watermark = watermark

    def __call__(self, frame) -> Any:
        import pandas as pd

        from pystream.runtime.changelog import _python_values

        frame = frame.sort_values(self.seq, kind="stable")
        columns = {n: _python_values(frame[n]) for n in frame.columns}
        partition = OverPartition(self.frame)
        names = self.output[:len(self.output) - len(self.frame.accumulators.specs) - 1]
        out: List[tuple] = []

        def emit(emitted) -> None:
            out.extend(tuple(row[f] for f in names) + results + (row[self.seq],)
                       for row, results in emitted)

        for i, watermark in enumerate(columns[self.watermark]):
            watermark = float("-inf") if watermark is None else watermark
            emit(partition.advance(watermark))
            row = {f: columns[f][i] for f in self.fields}
            row[self.seq] = columns[self.seq][i]
            partition.arrive(_time_of(row[self.time_field]), row, watermark)
        emit(partition.advance(END_OF_INPUT))
        return pd.DataFrame(out, columns=self.output)
