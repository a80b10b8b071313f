"""A regular join in STREAMING mode over bounded tables: Flink's changelog of an equi-join.

``groupBy(join keys).applyInArrow(JoinChangelog(...))``: one key's changes of both inputs,
replayed in arrival order (``__seq``, then ``__sub``), as Flink's streaming join operator
keeps both sides' rows of a key in state:

* a row added on one side (+I/+U) joins every row of the other side, each result with the
  row's kind; without any, an outer side emits the row padded with NULLs (+I);
* the other side of an outer join had its rows padded with NULLs while they had no match:
  their first match retracts that row (-D) before the joined row;
* a row taken away (-U/-D) takes its joined rows away with its kind, and an outer side's
  rows left without any match are padded with NULLs again (+I).

``TemporalJoinState`` is the event-time temporal join over unbounded tables, in Spark's
state store.
"""
from __future__ import annotations

import pickle
from typing import Iterator, List, Optional, Sequence, Tuple

from pyspark.sql import Row as SparkRow
from pyspark.sql.streaming import StatefulProcessor, StatefulProcessorHandle

INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE = 0, 1, 2, 3
LEFT, RIGHT = 0, 1


class JoinChangelog:
    """The join's changelog for one key (see the module's docstring); ``kind`` is inner,
    left, right or full; ``schema`` the Arrow schema of the output (the left fields, the
    right fields, ``__seq``, ``__op``, ``__sub``)."""

    def __init__(self, kind: str, left_fields: Sequence[str], right_fields: Sequence[str],
                 schema):
        self.outer = {LEFT: kind in ("left", "full"), RIGHT: kind in ("right", "full")}
        self.fields = {LEFT: list(left_fields), RIGHT: list(right_fields)}
        self.schema = schema

    def __call__(self, table):
        import pyarrow as pa

        rows = table.to_pylist()
        rows.sort(key=lambda r: (r["__seq"], r["__sub"], r["__side"]))
        state: dict = {LEFT: [], RIGHT: []}
        out: List[tuple] = []
        for r in rows:
            for sub, (kind, values) in enumerate(self.apply(r, state)):
                out.append(values + (r["__seq"], kind, r["__sub"] * 1000 + sub))
        return pa.Table.from_pylist([dict(zip(self.schema.names, v)) for v in out],
                                    schema=self.schema)

    def apply(self, r, state) -> List[Tuple[int, tuple]]:
        """The changes one tagged input row makes: (kind, left and right values)."""
        side = r["__side"]
        record = r["__l"] if side == LEFT else r["__r"]
        values = tuple(record[f] for f in self.fields[side])
        changes = self.add(side, values, r["__op"], state) if r["__op"] in (
            INSERT, UPDATE_AFTER) else self.take(side, values, r["__op"], state)
        return [(kind, self.padded(left, LEFT) + self.padded(right, RIGHT))
                for kind, left, right in changes]

    def add(self, side: int, values: tuple, kind: int, state) -> list:
        other = 1 - side
        others = state[other]
        changes = []
        if not others:
            if self.outer[side]:
                changes.append((INSERT, *self._pair(side, values, None)))
        else:
            first_match = not state[side]
            for row in others:
                if self.outer[other] and first_match:
                    changes.append((DELETE, *self._pair(other, row, None)))
                changes.append((kind, *self._pair(side, values, row)))
        state[side].append(values)
        return changes

    def take(self, side: int, values: tuple, kind: int, state) -> list:
        other = 1 - side
        if values not in state[side]:
            return []  # a retraction of a row never seen (Flink ignores it too)
        state[side].remove(values)
        others = state[other]
        if not others:
            return [(kind, *self._pair(side, values, None))] if self.outer[side] else []
        changes = []
        for row in others:
            changes.append((kind, *self._pair(side, values, row)))
            if self.outer[other] and not state[side]:
                changes.append((INSERT, *self._pair(other, row, None)))
        return changes

    @staticmethod
    def _pair(side: int, values: Optional[tuple], row: Optional[tuple]) -> tuple:
        """(left values, right values) of a row of ``side`` and one of the other side."""
        return (values, row) if side == LEFT else (row, values)

    def padded(self, values: Optional[tuple], side: int) -> tuple:
        return values if values is not None else (None,) * len(self.fields[side])


class JoinState(StatefulProcessor):
    """``groupBy(join keys).transformWithState(JoinState(...))``: a regular join over
    unbounded tables, each key's rows of both sides in Spark's state store, the changes as
    ``JoinChangelog`` makes them; with ``ttl_ms`` (``table.exec.state.ttl``) a key idle that
    long is forgotten, as Flink's state TTL does."""

    def __init__(self, join: JoinChangelog, names: Sequence[str], ttl_ms: Optional[int]):
        self.join = join
        self.names = list(names)
        self.ttl_ms = ttl_ms

    def init(self, handle: StatefulProcessorHandle) -> None:
        self._state = handle.getValueState("rows", "blob binary", self.ttl_ms)
        self._row = SparkRow(*self.names, "__op")

    def handleInputRows(self, key, rows, timerValues) -> Iterator[SparkRow]:
        stored = self._state.get()
        state = pickle.loads(stored[0]) if stored is not None else {LEFT: [], RIGHT: []}
        for r in rows:
            for kind, values in self.join.apply(r, state):
                yield self._row(*values, kind)
        self._state.update((pickle.dumps(state),))

    def close(self) -> None:
        pass


class TemporalJoinState(StatefulProcessor):
    """``groupBy(join keys).transformWithState(TemporalJoinState(...), "EventTime")``: an
    event-time temporal join over unbounded tables. Left rows wait in state until the
    watermark passes their time (a timer each); each then joins the right row's version
    that was the latest at its time (versions are upserts by key: -U rows are left out, a
    -D version matches nothing), or NULLs in a LEFT join. Versions older than the one the
    watermark has reached are dropped."""

    def __init__(self, left_fields: Sequence[str], right_fields: Sequence[str],
                 names: Sequence[str], outer: bool):
        self.fields = {LEFT: list(left_fields), RIGHT: list(right_fields)}
        self.names = list(names)  # the join's fields: the left's, then the right's
        self.outer = outer

    def init(self, handle: StatefulProcessorHandle) -> None:
        self._handle = handle
        self._state = handle.getValueState("temporal", "blob binary")
        self._row = SparkRow(*self.names, "__op")

    def _load(self):
        stored = self._state.get()
        return pickle.loads(stored[0]) if stored is not None else ([], [], 0)

    def handleInputRows(self, key, rows, timerValues) -> Iterator[SparkRow]:
        waiting, versions, arrived = self._load()
        for r in rows:
            if r["__side"] == LEFT:
                values = tuple(r["__l"][f] for f in self.fields[LEFT])
                waiting.append((r["__t"], values))
                self._handle.registerTimer(r["__t"])
            elif r["__op"] != UPDATE_BEFORE:
                values = tuple(r["__r"][f] for f in self.fields[RIGHT])
                versions.append((r["__t"], arrived, r["__op"], values))
                arrived += 1
        versions.sort(key=lambda v: (v[0], v[1]))
        self._state.update((pickle.dumps((waiting, versions, arrived)),))
        return iter(())

    def handleExpiredTimer(self, key, timerValues, expiredTimerInfo) -> Iterator[SparkRow]:
        waiting, versions, arrived = self._load()
        watermark = max(timerValues.getCurrentWatermarkInMs(),
                        expiredTimerInfo.getExpiryTimeInMs())
        out = []
        for time, values in sorted(w for w in waiting if w[0] <= watermark):
            version = None
            for v in versions:
                if v[0] > time:
                    break
                version = v
            if version is not None and version[2] != DELETE:
                out.append(self._row(*values, *version[3], INSERT))
            elif self.outer:
                out.append(self._row(*values, *([None] * len(self.fields[RIGHT])), INSERT))
        waiting = [w for w in waiting if w[0] > watermark]
        reached = [i for i, v in enumerate(versions) if v[0] <= watermark]
        if reached:  # the latest version the watermark reached stays: later rows need it
            versions = versions[reached[-1]:]
        self._state.update((pickle.dumps((waiting, versions, arrived)),))
        return iter(out)

    def close(self) -> None:
        pass
