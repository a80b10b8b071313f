"""Changelogs computed in Python, per key: what Flink's streaming aggregates emit.

``Accumulators`` hold one group's aggregate calls: built-in ones as plain Python values (the
``ACCUMULATORS`` table: initial value, add, result), user-defined ones as their functions'
accumulators. ``changes`` is what Flink emits when a result changes: ``+I`` for the key's
first result, ``-U`` (the previous result) then ``+U`` (the new one), nothing when it did not.

``AggregateChangelog`` runs them in Spark's state store (``transformWithState``) over an
unbounded stream; ``BundledAggregate`` over one key's bounded records (``applyInPandas``).
Over an updating input (a changelog source: debezium-json, ...), ``AggregateChangelog``
retracts: -U and -D take their row away (COUNT, SUM, SUM0 and AVG; ``RETRACTIONS``), and a key
with no rows left is deleted (-D), as Flink's retracting aggregates do.

``UpsertNormalize`` turns an upsert stream (``upsert-kafka``) into the same changelog.
"""
from __future__ import annotations

import decimal
import pickle
from dataclasses import dataclass, replace
from typing import Any, Iterator, List, Optional, Tuple

from pyspark import cloudpickle  # accumulators of user functions are classes of the job
from pyspark.sql import Row as SparkRow
from pyspark.sql.streaming import StatefulProcessor, StatefulProcessorHandle

__all__ = ["AggregateSpec", "AggregateChangelog", "UpsertNormalize", "ACCUMULATORS", "OP_COLUMN",
           "Lag"]

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
    function: Any = None  # "user": a UserAggregate (create, add, value)


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


def _total(acc, spec: AggregateSpec):
    return None if acc is None else acc[0]


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
    "sum_retract": (None, _avg, _total),  # (total, number of values)
}


@dataclass(frozen=True)
class Lag:
    """LAG(value, offset, default) over an OVER window's rows in their order: the value
    ``offset`` rows before the last row added, ``default`` where there is none (a NULL value
    is a row too). An aggregate of the ``create``/``add``/``value`` kind."""

    offset: int = 1
    default: Any = None

    def create(self) -> list:
        return []

    def add(self, acc: list, values: list) -> list:
        acc.append(values[0])
        del acc[:-(self.offset + 1)]
        return acc

    def add_all(self, acc: list, columns: List[list], n: int) -> list:
        for value in columns[0]:
            acc = self.add(acc, [value])
        return acc

    def value(self, acc: list) -> Any:
        return acc[0] if len(acc) > self.offset else self.default


def _uncount(acc, value):
    return acc - 1


def _unsum(acc, value):
    return -value if acc is None else acc - value


def _unavg(acc, value):
    if acc is None:
        return None
    total, n = acc
    return (total - value, n - 1) if n > 1 else None


# name -> take a non-NULL value away (the aggregates that retract)
RETRACTIONS = {"count": _uncount, "count_star": _uncount, "sum0": _unsum, "avg": _unavg,
               "sum_retract": _unavg}
# what an aggregate is when its input retracts: SUM counts its values too (NULL when none is
# left, as Flink's retracting SUM)
RETRACTING_FORMS = {"sum": "sum_retract"}


def retracts(name: str) -> bool:
    """Whether the built-in aggregate ``name`` can take a row away again."""
    return RETRACTING_FORMS.get(name, name) in RETRACTIONS


class Accumulators:
    """The accumulators of one group's aggregate calls: ``create()``, ``add(accs, row)``
    (``row[column]`` reads an argument), ``results(accs)``. A call of a user-defined
    aggregate function (``spec.function``) runs its ``create``/``add``/``value``."""

    def __init__(self, specs: List[AggregateSpec]):
        self.specs = specs

    def create(self) -> list:
        return [s.function.create() if s.function is not None else
                [ACCUMULATORS[s.name][0], set()] if s.distinct else ACCUMULATORS[s.name][0]
                for s in self.specs]

    def add(self, accs: list, row) -> None:
        for i, spec in enumerate(self.specs):
            if spec.function is not None:
                accs[i] = spec.function.add(accs[i], [row[c] for c in spec.columns])
            else:
                self._add_value(accs, i, 1 if spec.name == "count_star"
                                else row[spec.columns[0]])

    def add_rows(self, accs: list, columns: dict, lo: int, hi: int) -> None:
        """The rows ``lo`` to ``hi`` of ``columns`` (name -> values), in order; a
        user-defined function takes them in one call (``add_all``)."""
        for i, spec in enumerate(self.specs):
            if spec.function is not None:
                accs[i] = spec.function.add_all(
                    accs[i], [columns[c][lo:hi] for c in spec.columns], hi - lo)
                continue
            values = [1] * (hi - lo) if spec.name == "count_star" else \
                columns[spec.columns[0]][lo:hi]
            for value in values:
                self._add_value(accs, i, value)

    def _add_value(self, accs: list, i: int, value: Any) -> None:
        """One argument value into the built-in aggregate ``i`` (NULLs are skipped)."""
        if value is None:
            return
        spec = self.specs[i]
        add = ACCUMULATORS[spec.name][1]
        if spec.distinct:
            acc, seen = accs[i]
            if value in seen:
                return
            seen.add(value)
            accs[i] = [add(acc, value), seen]
        else:
            accs[i] = add(accs[i], value)

    def retract(self, accs: list, row) -> None:
        """Take ``row`` away (a -U or -D of an updating input); see ``RETRACTIONS``; a
        user-defined aggregate function's ``retract``."""
        for i, spec in enumerate(self.specs):
            if spec.function is not None:
                accs[i] = spec.function.retract(accs[i], [row[c] for c in spec.columns])
                continue
            value = 1 if spec.name == "count_star" else row[spec.columns[0]]
            if value is not None:
                accs[i] = RETRACTIONS[spec.name](accs[i], value)

    def results(self, accs: list) -> tuple:
        out = []
        for spec, acc in zip(self.specs, accs):
            if spec.function is not None:
                out.append(spec.function.value(acc))
                continue
            if spec.distinct:
                acc = acc[0]
            result = ACCUMULATORS[spec.name][2]
            out.append(result(acc, spec) if result is not None else acc)
        return tuple(out)


def changes(previous: Optional[tuple], current: tuple) -> List[Tuple[tuple, int]]:
    """What Flink emits when a key's result goes from ``previous`` (None: no result yet) to
    ``current``: ``+I``, or ``-U`` and ``+U``, or nothing."""
    if previous is None:
        return [(current, INSERT)]
    if current != previous:
        return [(previous, UPDATE_BEFORE), (current, UPDATE_AFTER)]
    return []


class AggregateChangelog(StatefulProcessor):
    """``groupBy(keys).transformWithState(AggregateChangelog(...))``: the changelog of one
    key's results, in arrival order: record by record, or once per micro-batch when a
    Python aggregate function is among the calls (PyFlink's Python operator emits once per
    bundle of records)."""

    def __init__(self, names: List[str], specs: List[AggregateSpec], keyed: bool = True,
                 ttl_ms: Optional[int] = None, retracting: bool = False):
        self.keyed = keyed  # else one group of all records (its grouping key is not output)
        self.names = list(names) + [OP_COLUMN]  # the keys, the results, then the row kind
        if retracting:
            specs = [replace(s, name=RETRACTING_FORMS.get(s.name, s.name)) for s in specs]
        self.accumulators = Accumulators(specs)
        self.per_batch = any(s.function is not None for s in specs)
        self.ttl_ms = ttl_ms  # table.exec.state.ttl: a key idle that long starts over (+I)
        self.retracting = retracting  # rows carry OP_COLUMN: -U and -D are taken away

    def init(self, handle: StatefulProcessorHandle) -> None:
        self._state = handle.getValueState("accumulators", "blob binary", self.ttl_ms)
        self._row = SparkRow(*self.names)  # PySpark reads the rows it is given by name

    def handleInputRows(self, key, rows, timerValues) -> Iterator[SparkRow]:
        stored = self._state.get()
        accumulators = self.accumulators
        if stored is None:
            accs, previous, count = accumulators.create(), None, 0
        else:  # a checkpoint of an older pystream holds no count: its input only added
            accs, previous, count = (*pickle.loads(stored[0]), 1)[:3]
        keys = tuple(key) if self.keyed else ()
        for row in rows:
            if self.retracting and row[OP_COLUMN] in (UPDATE_BEFORE, DELETE):
                accumulators.retract(accs, row)
                count -= 1
            else:
                accumulators.add(accs, row)
                count += 1
            if count <= 0:  # no rows left: the key's result is deleted
                if previous is not None:
                    yield self._row(*keys, *previous, DELETE)
                accs, previous, count = accumulators.create(), None, 0
                continue
            if not self.per_batch:
                current = accumulators.results(accs)
                for values, op in changes(previous, current):
                    yield self._row(*keys, *values, op)
                previous = current
        if self.per_batch:
            current = accumulators.results(accs)
            for values, op in changes(previous, current):
                yield self._row(*keys, *values, op)
            previous = current
        self._state.update((cloudpickle.dumps((accs, previous, count)),))

    def close(self) -> None:
        pass


class BundledAggregate:
    """``groupBy(keys).applyInPandas(BundledAggregate(...))`` over a bounded input in
    STREAMING mode with a Python aggregate function: one key's records in their order
    (``seq``), accumulated in Python, the result emitted at the end of each bundle of
    ``bundle_size`` records (as PyFlink's Python operator emits), with ``seq``, ``op`` and
    ``sub`` columns for the changelog's order."""

    def __init__(self, key_columns: List[str], specs: List[AggregateSpec], seq: str,
                 bundle_size: int, output_names: List[str], op: Optional[str] = None):
        self.key_columns = key_columns
        self.accumulators = Accumulators(specs)
        self.seq = seq  # the records' places in the input (bundles are cut by them)
        self.bundle_size = bundle_size
        self.output_names = output_names
        self.op = op  # the row kind column of an updating input: -U and -D retract

    def __call__(self, frame):
        import numpy as np
        import pandas as pd

        frame = frame.sort_values(self.seq, kind="stable")
        columns = {n: _python_values(frame[n]) for n in frame.columns}
        seqs = columns[self.seq]
        bundles = frame[self.seq].to_numpy() // self.bundle_size
        cuts = (np.flatnonzero(np.diff(bundles)) + 1).tolist()
        bounds = list(zip([0] + cuts, cuts + [len(seqs)])) if seqs else []
        keys = tuple(columns[k][0] for k in self.key_columns) if seqs else ()
        changelog = self._retracting if self.op is not None else self._appending
        return pd.DataFrame(changelog(keys, columns, bounds), columns=self.output_names)

    def _appending(self, keys: tuple, columns: dict, bounds) -> list:
        """The changelog of an append-only input: each bundle's rows accumulated at once."""
        accs, previous, out, seqs = self.accumulators.create(), None, [], columns[self.seq]
        for lo, hi in bounds:
            self.accumulators.add_rows(accs, columns, lo, hi)
            current = self.accumulators.results(accs)
            for sub, (values, op) in enumerate(changes(previous, current)):
                out.append(keys + values + (seqs[lo], op, sub))
            previous = current
        return out

    def _retracting(self, keys: tuple, columns: dict, bounds) -> list:
        """The changelog of an updating input: -U and -D rows retract, record by record; a
        key left without rows at a bundle's end is deleted."""
        names = list(columns)
        records = [dict(zip(names, values)) for values in zip(*columns.values())]
        accs, previous, out, count = self.accumulators.create(), None, [], 0
        for lo, hi in bounds:
            for record in records[lo:hi]:
                if record[self.op] in (UPDATE_BEFORE, DELETE):
                    self.accumulators.retract(accs, record)
                    count -= 1
                else:
                    self.accumulators.add(accs, record)
                    count += 1
            first = records[lo][self.seq]
            if count <= 0:  # no rows left: the key's result is deleted
                if previous is not None:
                    out.append(keys + previous + (first, DELETE, 0))
                accs, previous, count = self.accumulators.create(), None, 0
                continue
            current = self.accumulators.results(accs)
            for sub, (values, op) in enumerate(changes(previous, current)):
                out.append(keys + values + (first, op, sub))
            previous = current
        return out


def _python_values(series) -> list:
    """A pandas column's values as Python's, a null (NaN, NaT) as None."""
    values = series.tolist()
    missing = series.isna()
    if missing.any():
        values = [None if m else v for v, m in zip(values, missing.tolist())]
    return values


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
