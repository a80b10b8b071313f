"""Changelogs of unbounded streams, record by record, in Spark's state store.

``AggregateChangelog`` is a Spark StatefulProcessor (``transformWithState``) for one group
key: its accumulators live in one ValueState; each input record updates them and emits what
Flink's streaming aggregate emits: ``+I`` for the key's first result, ``-U`` (the previous
result) then ``+U`` (the new one) when the result changed, nothing when it did not.

Accumulators are plain Python values, one ``Accumulator`` per aggregate call; each knows how
to add a value and what its result is. The inputs are append-only (an aggregate over an
updating table is refused when the plan is compiled), so nothing is ever retracted.

``UpsertNormalize`` turns an upsert stream (``upsert-kafka``) into the same changelog.
"""
from __future__ import annotations

import decimal
import pickle
from dataclasses import dataclass
from typing import Any, Iterator, List, Optional, Tuple

from pyspark.sql import Row as SparkRow
from pyspark.sql.streaming import StatefulProcessor, StatefulProcessorHandle

__all__ = ["AggregateSpec", "AggregateChangelog", "UpsertNormalize", "ACCUMULATORS", "OP_COLUMN"]

OP_COLUMN = "__op"
INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE = 0, 1, 2, 3


@dataclass(frozen=True)
class AggregateSpec:
    """One aggregate call: its function name, the input columns of its arguments, whether it
    is DISTINCT, and how its result is typed (``integral``: truncate as Java does;
    ``scale``: a DECIMAL result's digits after the point)."""

    name: str
    columns: Tuple[str, ...]
    distinct: bool = False
    integral: bool = False
    scale: Optional[int] = None


def _count(acc, value):
    return acc + 1


def _sum(acc, value):
    return value if acc is None else acc + value


def _min(acc, value):
    return value if acc is None or value < acc else acc


def _max(acc, value):
    return value if acc is None or value > acc else acc


def _first(acc, value):
    return value if acc is None else acc


def _last(acc, value):
    return value


def _avg(acc, value):
    total, n = acc if acc is not None else (0, 0)
    return total + value, n + 1


def _avg_result(acc, spec: AggregateSpec):
    if acc is None:
        return None
    total, n = acc
    if spec.integral:  # Java's integer division truncates towards zero
        q = abs(total) // n
        return q if total >= 0 else -q
    if spec.scale is not None:
        exact = decimal.Decimal(total) / n
        return exact.quantize(decimal.Decimal(1).scaleb(-spec.scale),
                              rounding=decimal.ROUND_HALF_UP)
    return total / n


# name -> (initial accumulator, add a non-NULL value, result of the accumulator)
ACCUMULATORS = {
    "count": (0, _count, None),
    "count_star": (0, _count, None),
    "sum": (None, _sum, None),
    "sum0": (0, _sum, None),
    "min": (None, _min, None),
    "max": (None, _max, None),
    "first_value": (None, _first, None),
    "last_value": (None, _last, None),
    "avg": (None, _avg, _avg_result),
}


class AggregateChangelog(StatefulProcessor):
    """``groupBy(keys).transformWithState(AggregateChangelog(...))``: the changelog of one
    key's results, record by record, in arrival order."""

    def __init__(self, names: List[str], specs: List[AggregateSpec], keyed: bool = True):
        self.keyed = keyed  # else one group of all records (its grouping key is not output)
        self.names = list(names) + [OP_COLUMN]  # the keys, the results, then the row kind
        self.specs = specs

    def init(self, handle: StatefulProcessorHandle) -> None:
        self._state = handle.getValueState("accumulators", "blob binary")
        self._row = SparkRow(*self.names)  # PySpark reads the rows it is given by name

    def _results(self, accs: list) -> tuple:
        out = []
        for spec, acc in zip(self.specs, accs):
            if spec.distinct:
                acc = acc[0]
            result = ACCUMULATORS[spec.name][2]
            out.append(result(acc, spec) if result is not None else acc)
        return tuple(out)

    def handleInputRows(self, key, rows, timerValues) -> Iterator[SparkRow]:
        stored = self._state.get()
        if stored is None:
            accs: list = [([ACCUMULATORS[s.name][0], set()] if s.distinct
                           else ACCUMULATORS[s.name][0]) for s in self.specs]
            previous: Optional[tuple] = None
        else:
            accs, previous = pickle.loads(stored[0])
        keys = tuple(key) if self.keyed else ()
        for row in rows:
            for i, spec in enumerate(self.specs):
                if spec.name == "count_star":
                    value: Any = 1
                else:
                    value = row[spec.columns[0]]
                    if value is None:
                        continue
                _, add, _ = ACCUMULATORS[spec.name]
                if spec.distinct:
                    acc, seen = accs[i]
                    if value in seen:
                        continue
                    seen.add(value)
                    accs[i] = [add(acc, value), seen]
                else:
                    accs[i] = add(accs[i], value)
            current = self._results(accs)
            if previous is None:
                yield self._row(*keys, *current, INSERT)
            elif current != previous:
                yield self._row(*keys, *previous, UPDATE_BEFORE)
                yield self._row(*keys, *current, UPDATE_AFTER)
            previous = current
        self._state.update((pickle.dumps((accs, previous), protocol=5),))

    def close(self) -> None:
        pass


class UpsertNormalize(StatefulProcessor):
    """``groupBy(primary key).transformWithState(UpsertNormalize(...))``: an upsert stream
    (the latest value per key; a record without a value deletes its key) as Flink's
    changelog: ``+I`` for a new key, ``-U``/``+U`` for a new value, ``-D`` for a deletion,
    nothing for a value equal to the current one or a deletion of a missing key."""

    def __init__(self, names: List[str], tombstone: str):
        self.names = list(names) + [OP_COLUMN]
        self.tombstone = tombstone  # the input column that is true for a deletion

    def init(self, handle: StatefulProcessorHandle) -> None:
        self._state = handle.getValueState("row", "blob binary")
        self._row = SparkRow(*self.names)

    def handleInputRows(self, key, rows, timerValues) -> Iterator[SparkRow]:
        stored = self._state.get()
        current = None if stored is None else pickle.loads(stored[0])
        width = len(self.names) - 1
        for row in rows:
            if row[self.tombstone]:
                if current is not None:
                    yield self._row(*current, DELETE)
                current = None
                continue
            new = tuple(row[i] for i in range(width))
            if current is None:
                yield self._row(*new, INSERT)
            elif new != current:
                yield self._row(*current, UPDATE_BEFORE)
                yield self._row(*new, UPDATE_AFTER)
            current = new
        if current is None:
            self._state.clear()
        else:
            self._state.update((pickle.dumps(current, protocol=5),))

    def close(self) -> None:
        pass
