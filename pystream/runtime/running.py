"""A GROUP BY's running aggregates in STREAMING mode over a bounded input, in Arrow batches.

``mapInArrow(RunningTotals(...))`` over Spark partitions that each hold whole groups, their
rows sorted by the group's key, then by arrival (``__seq``). Each row gets its group's
totals after it (``<name>``) and before it (``<name>__before``), computed with numpy a few
hundred thousand rows at a time: Spark's Window operator buffers a whole group to run a
frame over it, which costs most where one group holds most rows (a day of Nexmark's bids).

A total is one of:

* ``sum``: the running sum of a numeric column, NULL counting as 0 (a COUNT is the sum of
  0/1 flags made by Spark beforehand);
* ``first``: the running count of the column's values the first time each comes in the
  group, NULLs left out (COUNT(DISTINCT ...), FILTER included: Spark makes the value NULL
  where the filter fails);
* ``max``/``min``: the running extreme of a column, NULL while no value came.

``__rows`` counts the group's rows: 1 marks a group's first row.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, List, Optional, Tuple

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

ROWS = "__rows"
BEFORE = "__before"
KINDS = ("sum", "first", "max", "min")


@dataclass(frozen=True)
class Total:
    name: str
    kind: str  # one of KINDS
    column: str


class RunningTotals:
    """The mapInArrow function (see the module's docstring). ``keys`` are the group's key
    columns; the output is the keys, ``__seq``, ``__rows`` and each total before and after."""

    CHUNK_ROWS = 200_000  # rows computed at a time: Spark's batches are gathered to this

    def __init__(self, keys: List[str], totals: List[Total], seq: str = "__seq"):
        self.keys = keys
        self.totals = totals
        self.seq = seq

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        carried = _Carried()
        for chunk in _gathered(batches, self.CHUNK_ROWS):
            yield self._chunk(chunk, carried)

    def _chunk(self, batch: pa.RecordBatch, carried: "_Carried") -> pa.RecordBatch:
        n = batch.num_rows
        starts = np.zeros(n, dtype=bool)
        for k in self.keys:  # (codes: NULLs compare equal)
            codes = pd.factorize(batch.column(k).to_numpy(zero_copy_only=False))[0]
            starts[1:] |= codes[1:] != codes[:-1]
        starts[0] = True
        segment = np.cumsum(starts) - 1  # the row's group within the chunk
        first_of_segment = np.flatnonzero(starts)
        continues = carried.key is not None and carried.key == self._key(batch, 0)
        starts[0] = not continues  # a group's first row
        out = {k: batch.column(k) for k in self.keys}
        out[self.seq] = batch.column(self.seq)
        rows = _running_sum(np.ones(n, dtype=np.int64), segment, first_of_segment,
                            carried.totals.get(ROWS, 0) if continues else 0)
        out[ROWS] = pa.array(rows)
        totals = {ROWS: rows[-1]}
        seen = {}
        for total in self.totals:
            column = batch.column(total.column)
            before_chunk = carried.totals.get(total.name) if continues else None
            if total.kind in ("max", "min"):
                after, before = _running_extreme(column, segment, starts, total.kind,
                                                 before_chunk)
                totals[total.name] = after.slice(n - 1, 1)
            else:
                if total.kind == "sum":
                    values = column.fill_null(0).to_numpy()
                else:  # first
                    kept = carried.seen.get(total.name, set()) if continues else set()
                    values, seen[total.name] = _firsts(column, segment, starts, kept)
                running = _running_sum(values, segment, first_of_segment, before_chunk or 0)
                before_running = _shifted(running, starts, before_chunk, 0)
                after, before = pa.array(running), pa.array(before_running)
                totals[total.name] = running[-1]
            out[total.name], out[total.name + BEFORE] = after, before
        carried.key, carried.totals, carried.seen = self._key(batch, n - 1), totals, seen
        return pa.RecordBatch.from_pydict(out)

    def _key(self, batch: pa.RecordBatch, row: int) -> tuple:
        return tuple(batch.column(k)[row].as_py() for k in self.keys)


@dataclass
class _Carried:
    """What the next chunk needs of the group the last chunk ended in: its key, its totals
    and the values each ``first`` total has seen."""

    key: Optional[tuple] = None
    totals: dict = field(default_factory=dict)
    seen: dict = field(default_factory=dict)


def _gathered(batches: Iterator[pa.RecordBatch], rows: int) -> Iterator[pa.RecordBatch]:
    """Spark's Arrow batches, gathered into chunks of at least ``rows`` rows."""
    pending: List[pa.RecordBatch] = []
    count = 0
    for batch in batches:
        if batch.num_rows:
            pending.append(batch)
            count += batch.num_rows
        if count >= rows:
            yield pa.Table.from_batches(pending).combine_chunks().to_batches()[0]
            pending, count = [], 0
    if pending:
        yield pa.Table.from_batches(pending).combine_chunks().to_batches()[0]


def _running_sum(values: np.ndarray, segment: np.ndarray, first_of_segment: np.ndarray,
                 start):
    """The running sum of ``values`` within each segment; the first segment starts at
    ``start`` (its total before this chunk)."""
    total = np.cumsum(values)
    before_segment = total[first_of_segment] - values[first_of_segment]
    running = total - before_segment[segment]
    if start:
        running[segment == 0] += start
    return running


def _shifted(after: np.ndarray, starts: np.ndarray, first, start_value) -> np.ndarray:
    """Each row's total before it: the row before's in its segment; ``first`` for the chunk's
    first row (the total its group had), ``start_value`` at a group's first row."""
    before = np.empty_like(after)
    before[1:] = after[:-1]
    before[starts] = start_value
    if not starts[0]:
        before[0] = first
    return before


def _firsts(column: pa.Array, segment: np.ndarray, starts: np.ndarray,
            kept: set) -> Tuple[np.ndarray, set]:
    """1 where a row's value (not NULL) comes the first time in its segment, values of the
    first segment seen in ``kept`` (earlier chunks of its group) counting as come; and the
    values the last segment has seen."""
    n = len(segment)
    flags = np.zeros(n, dtype=np.int64)
    present = np.flatnonzero(column.is_valid().to_numpy(zero_copy_only=False))
    if not len(present):
        return flags, kept if segment[-1] == 0 else set()
    values = column.take(pa.array(present)).to_numpy(zero_copy_only=False)
    codes = pd.factorize(values)[0].astype(np.int64)
    pairs = pd.Series(segment[present] * (int(codes.max()) + 1) + codes)
    candidates = present[~pairs.duplicated().to_numpy()]
    candidate_values = values[np.searchsorted(present, candidates)]
    if not starts[0] and kept:  # the first segment continues a group of the last chunk
        in_first = segment[candidates] == 0
        old = np.fromiter(map(kept.__contains__, candidate_values[in_first].tolist()),
                          dtype=bool, count=int(in_first.sum()))
        keep = np.ones(len(candidates), dtype=bool)
        keep[np.flatnonzero(in_first)[old]] = False
        candidates, candidate_values = candidates[keep], candidate_values[keep]
    flags[candidates] = 1
    last = segment[-1]
    in_last = segment[candidates] == last
    seen = kept if (last == 0 and not starts[0]) else set()
    seen.update(candidate_values[in_last].tolist())
    return flags, seen


def _running_extreme(column: pa.Array, segment: np.ndarray, starts: np.ndarray, kind: str,
                     start: Optional[pa.Array]) -> Tuple[pa.Array, pa.Array]:
    """The running MAX or MIN within each segment, NULLs left out, after and before each
    row; the first segment continues from ``start`` (a one-value array: its extreme before
    this chunk) unless it is None. Values are compared by their dense ranks (Arrow's sort),
    the extreme kept as the position of a row that has it."""
    offset = 0 if start is None else 1
    if start is not None:  # compared with the chunk's values, as a row before them
        column = pa.concat_arrays([start, column])
        segment = np.concatenate([[0], segment])
    ranks = pc.rank(column, sort_keys="ascending" if kind == "max" else "descending",
                    tiebreaker="dense").to_numpy().astype(np.int64)
    ranks[~column.is_valid().to_numpy(zero_copy_only=False)] = 0  # NULL: below every value
    running = pd.Series(ranks).groupby(segment).cummax().to_numpy()
    holder = np.zeros(int(ranks.max()) + 1, dtype=np.int64)
    holder[ranks] = np.arange(len(ranks))  # a row of each rank
    after = np.where(running > 0, holder[running], -1)[offset:]
    before = np.empty_like(after)
    before[1:] = after[:-1]
    before[starts] = -1
    if not starts[0]:
        before[0] = 0 if start is not None else -1
    return tuple(column.take(pa.array(positions, mask=positions < 0))
                 for positions in (after, before))
