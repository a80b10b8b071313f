"""Top-N in STREAMING mode over a bounded table: Flink's changelog as the ranking changes.

``mapInArrow(TopN(...))`` over Spark partitions that each hold whole partitions of the
ranking: each partition's rows, replayed in their arrival order (``__seq``) through a buffer
of the best N, as Flink's append-only Top-N operator keeps it. Rows are compared by their
``__ord...`` columns (the ORDER BY's values made comparable by Spark beforehand, or their
dense rank), then by arrival: among equal sort keys the earlier row ranks first, and a row
equal to the worst of a full buffer does not enter.

Without the rank number in the result, a row entering a full buffer retracts the row it
pushes out (``-D``) and is inserted (``+I``). With it, every rank from the new row's down is
updated (``-U`` old row at that rank, ``+U`` new row), and a rank reached for the first time
is inserted; a row pushed out of the last rank disappears with its rank's update. With an
offset (``ORDER BY ... LIMIT n OFFSET m``) the changes are those of the ranks after the
first ``m``, by rank as with the rank number, which the result leaves out.
"""
from __future__ import annotations

import bisect
import functools
import pickle
from typing import Callable, Iterator, List, Optional, Tuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pyspark.sql import Row as SparkRow
from pyspark.sql.streaming import StatefulProcessor, StatefulProcessorHandle

from pystream.runtime.records import epoch_millis

INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE = 0, 1, 2, 3


class RankBuffer:
    """One partition's best ``n`` rows, best first, and the changes as a row is offered:
    (values, rank, kind), as Flink's append-only Top-N emits them (see the module's
    docstring); only those of the ranks after the first ``skip``. Rows compare by their
    keys; ``bisect_right``: an equal key ranks after."""

    skip = 0  # (a buffer kept by an older pystream has none)

    def __init__(self, n: int, with_rank: bool, skip: int = 0):
        self.n = n
        self.with_rank = with_rank
        self.skip = skip
        self.keys: list = []
        self.rows: list = []

    def enters(self, key) -> bool:
        """Whether a row of this key would enter the buffer."""
        return bisect.bisect_right(self.keys, key) < self.n

    def offer(self, key, row: tuple) -> List[Tuple[tuple, int, int]]:
        position = bisect.bisect_right(self.keys, key)
        if position >= self.n:
            return []
        if not (self.with_rank or self.skip):
            self.keys.insert(position, key)
            self.rows.insert(position, row)
            if len(self.rows) > self.n:
                self.keys.pop()
                return [(self.rows.pop(), 0, DELETE), (row, 0, INSERT)]
            return [(row, 0, INSERT)]
        before = list(self.rows)
        self.keys.insert(position, key)
        self.rows.insert(position, row)
        changes = []
        del self.keys[self.n:], self.rows[self.n:]
        for rank in range(position, len(self.rows)):
            if rank < len(before):
                changes.append((before[rank], rank + 1, UPDATE_BEFORE))
                changes.append((self.rows[rank], rank + 1, UPDATE_AFTER))
            else:
                changes.append((self.rows[rank], rank + 1, INSERT))
        return [c for c in changes if c[1] > self.skip] if self.skip else changes


class TopNCandidates:
    """Which rows may enter their partition's best ``n``, in a Spark partition's rows before
    they are brought together by key (so that only these are shuffled, sorted and replayed
    by ``TopN``): for each batch of the partition key, ``order`` and ``seq`` columns, a
    mask. A row enters only if it ranks before the ``n``-th best row that arrived before it;
    any earlier rows of its partition key will do to rule it out, so each Spark partition
    keeps the best ``n`` of the rows it has seen, per key. This holds while the rows come in
    arrival order (their ``seq`` rising); where they do not, what was seen is forgotten and
    the batch passes. Where most rows pass (many keys, each of few rows), looking costs more
    than it saves: once ``TRIAL_ROWS`` have been seen and fewer than half were ruled out, all
    rows pass."""

    TRIAL_ROWS = 50_000

    def __init__(self, n: int, parts: List[str], order: List[str], seq: str = "__seq"):
        self.n = n
        self.parts = parts
        self.order = order
        self.seq = seq

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[np.ndarray]:
        bests: dict = {}  # partition key -> the sort keys of its best n rows seen, best first
        last = None  # the latest seq seen
        n = self.n
        seen = passed = 0
        for batch in batches:
            if not batch.num_rows or (seen >= self.TRIAL_ROWS and 2 * passed > seen):
                yield np.ones(batch.num_rows, dtype=bool)
                continue
            seen += batch.num_rows
            seqs = batch.column(self.seq).to_numpy()
            in_order = (last is None or seqs[0] > last) and bool(np.all(seqs[1:] > seqs[:-1]))
            last = seqs.max() if last is None else max(last, seqs.max())
            if not in_order:
                bests.clear()
            mask = better_than_kept(batch, self.parts, self.order, bests.get, n) \
                if in_order else None
            if mask is None:  # out of order, or too many keys to be worth it: kept as it was
                passed += batch.num_rows  # (a subset of the earlier rows still rules out)
                yield np.ones(batch.num_rows, dtype=bool)
                continue
            entering = batch.filter(pa.array(mask))
            for key, sort_key in zip(partition_keys(entering, self.parts), zip(
                    *[entering.column(c).to_pylist() for c in self.order])):
                best = bests.get(key)
                if best is None:
                    bests[key] = [sort_key]
                elif len(best) < n or sort_key < best[-1]:
                    bisect.insort_right(best, sort_key)
                    del best[n:]
            passed += entering.num_rows
            yield mask

    def spark_filter(self) -> Callable:
        """The mask as a Spark function of a struct of the columns it reads (an Arrow UDF
        over a partition's batches: only these columns go to Python)."""
        from pyspark.sql.functions import arrow_udf

        def may_enter(structs: Iterator[pa.Array]) -> Iterator[pa.Array]:
            batches = (pa.RecordBatch.from_struct_array(s) for s in structs)
            return (pa.array(mask) for mask in self(batches))

        return arrow_udf(may_enter, "boolean").asNondeterministic()


def partition_keys(batch, parts: List[str]) -> list:
    """Each row's partition key: the value of its one column, or the tuple of them."""
    columns = [batch.column(name).to_pylist() for name in parts]
    return columns[0] if len(columns) == 1 else list(zip(*columns))


FEW_KEYS = 4  # rows per key in a batch, at least, for better_than_kept to look


def better_than_kept(batch, parts: List[str], order: List[str],
                     kept_of: Callable[[object], Optional[list]], n: int
                     ) -> Optional[np.ndarray]:
    """Which rows of ``batch`` have a sort key (the ``order`` columns, as ``RankBuffer``
    compares them) lower than the ``n``-th one ``kept_of`` their partition key holds
    (all rows, where it holds fewer): the only rows that can enter their buffer, as every
    row of the batch arrived after those kept. Compared in Arrow; None where the batch has
    more than one key in ``FEW_KEYS`` rows (looking them up would cost what it saves)."""
    inverse, keys = _key_codes(batch, parts)
    if len(keys) * FEW_KEYS > batch.num_rows:
        return None
    worst = []
    for key in keys:
        kept = kept_of(key)
        worst.append(kept[n - 1] if kept is not None and len(kept) >= n else None)
    if all(w is None for w in worst):
        return np.ones(batch.num_rows, dtype=bool)
    open_ = np.array([w is None for w in worst])[inverse]  # fewer than n kept: any row enters
    lower = np.zeros(batch.num_rows, dtype=bool)
    equal = np.ones(batch.num_rows, dtype=bool)
    for i, name in enumerate(order):
        column = batch.column(name)
        threshold = pa.array([None if w is None else w[i] for w in worst],
                             type=column.type).take(pa.array(inverse))
        lower |= equal & pc.fill_null(pc.less(column, threshold), False).to_numpy(
            zero_copy_only=False)
        equal &= pc.fill_null(pc.equal(column, threshold), False).to_numpy(
            zero_copy_only=False)
    return lower | open_


def _key_codes(batch, parts: List[str]) -> tuple:
    """Each row's index into the batch's distinct partition keys, and those keys (as
    ``partition_keys`` gives them)."""
    if len(parts) == 1:
        encoded = pc.dictionary_encode(batch.column(parts[0]), null_encoding="encode")
        return encoded.indices.to_numpy(zero_copy_only=False), encoded.dictionary.to_pylist()
    codes = np.zeros(batch.num_rows, dtype=np.int64)
    for name in parts:  # kept below the number of rows, as each column is added
        encoded = pc.dictionary_encode(batch.column(name), null_encoding="encode")
        indices = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
        codes = np.unique(codes * len(encoded.dictionary) + indices, return_inverse=True)[1]
    _, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
    columns = [batch.column(name).take(first).to_pylist() for name in parts]
    return inverse, list(zip(*columns))


class TopN:
    """The changelog of each partition's best ``n`` rows (see the module's docstring), over
    the rows of a Spark partition that holds whole partitions of the ranking (``parts``), in
    arrival order: ``mapInArrow`` after ``sortWithinPartitions(__seq)``. One buffer per
    partition key; a row that does not enter its buffer costs one comparison. The buffers
    hold row numbers; the rows themselves stay in Arrow: the changes are taken from the
    batch at hand and from the rows of earlier batches that entered a buffer (``kept``,
    compacted to those still in one as it grows)."""

    COMPACT_AT = 100_000  # rows kept from earlier batches before the first compaction

    def __init__(self, n: int, fields: List[str], with_rank: bool, parts: List[str],
                 order: List[str], seq: str = "__seq", skip: int = 0):
        self.n = n
        self.fields = fields
        self.with_rank = with_rank
        self.parts = parts
        self.order = order
        self.seq = seq
        self.skip = skip

    def __call__(self, batches):
        buffers: dict = {}
        kept = None  # rows of earlier batches that entered a buffer
        where: dict = {}  # their row numbers -> their positions in kept
        start = 0  # the row number of the batch's first row
        compact_at = self.COMPACT_AT
        for batch in batches:
            mask = better_than_kept(batch, self.parts, self.order, lambda key: (
                buffers[key].keys if key in buffers else None), self.n)
            if mask is not None:
                batch = batch.filter(pa.array(mask))
            if not batch.num_rows:
                continue
            values = pa.Table.from_batches([batch]).select(self.fields)
            changes, entered = self._changes(batch, buffers, start)
            refs = changes[0]
            if refs:
                base = kept.num_rows if kept is not None else 0
                rows = values if kept is None else pa.concat_tables([kept, values])
                taken = rows.take([where[r] if r < start else base + r - start for r in refs])
                yield from self._with_changes(taken, changes).to_batches()
            if entered:
                base = kept.num_rows if kept is not None else 0
                new = values.take([r - start for r in entered])
                kept = new if kept is None else pa.concat_tables([kept, new])
                where.update(zip(entered, range(base, base + len(entered))))
            start += batch.num_rows
            if kept is not None and kept.num_rows > compact_at:
                live = sorted(r for b in buffers.values() for r in b.rows)
                kept = kept.take([where[r] for r in live]).combine_chunks()
                where = dict(zip(live, range(len(live))))
                compact_at = max(self.COMPACT_AT, 2 * len(live))

    def _changes(self, batch, buffers: dict, start: int) -> tuple:
        """The changes the rows of ``batch`` (numbered from ``start``) make, as columns (row
        numbers, ranks, seqs, kinds, subs), and the numbers of the rows that entered."""
        parts = [batch.column(name).to_pylist() for name in self.parts]
        keys = parts[0] if len(parts) == 1 else list(zip(*parts))
        seqs = batch.column(self.seq).to_pylist()
        sort_keys = list(zip(*[batch.column(name).to_pylist() for name in self.order], seqs))
        n, with_rank, skip = self.n, self.with_rank, self.skip
        refs: list = []
        ranks: list = []
        at: list = []
        kinds: list = []
        subs: list = []
        entered: list = []
        for i, key in enumerate(keys):
            buffer = buffers.get(key)
            if buffer is None:
                buffer = buffers[key] = RankBuffer(n, with_rank, skip)
            sort_key = sort_keys[i]
            if not buffer.enters(sort_key):
                continue
            entered.append(start + i)
            for sub, (ref, rank, kind) in enumerate(buffer.offer(sort_key, start + i)):
                refs.append(ref)
                ranks.append(rank)
                at.append(seqs[i])
                kinds.append(kind)
                subs.append(sub)
        return (refs, ranks, at, kinds, subs), entered

    def _with_changes(self, taken, changes: tuple):
        _, ranks, at, kinds, subs = changes
        for name, column, type_ in (("__rank", ranks, pa.int64()), (self.seq, at, pa.int64()),
                                    ("__op", kinds, pa.int32()), ("__sub", subs, pa.int32())):
            taken = taken.append_column(pa.field(name, type_), pa.array(column, type=type_))
        return taken


@functools.total_ordering
class SortKey:
    """A row's ORDER BY values compared field by field, each ascending or descending; NULLs
    come last either way."""

    __slots__ = ("values", "ascending")

    def __init__(self, values: tuple, ascending: tuple):
        self.values = values
        self.ascending = ascending

    def __getstate__(self):
        return self.values, self.ascending

    def __setstate__(self, state):
        self.values, self.ascending = state

    def __eq__(self, other) -> bool:
        return self.values == other.values

    def __lt__(self, other) -> bool:
        for a, b, up in zip(self.values, other.values, self.ascending):
            if a == b:
                continue
            if a is None or b is None:
                return b is None
            return a < b if up else a > b
        return False


class TopNChangelog(StatefulProcessor):
    """``groupBy(partition keys).transformWithState(TopNChangelog(...))``: Top-N over an
    unbounded table, the buffer of each partition's best ``n`` in Spark's state store; rows
    of one micro-batch are offered in the order they come, later ones ranking after earlier
    equal ones."""

    def __init__(self, n: int, with_rank: bool, fields: List[str], order: List[str],
                 ascending: List[bool], skip: int = 0):
        self.n = n
        self.with_rank = with_rank
        self.skip = skip
        self.fields = list(fields)
        self.order = list(order)
        self.ascending = tuple(ascending)

    def init(self, handle: StatefulProcessorHandle) -> None:
        self._state = handle.getValueState("buffer", "blob binary")
        self._row = SparkRow(*self.fields, "__rank", "__op")

    def handleInputRows(self, key, rows, timerValues) -> Iterator[SparkRow]:
        stored = self._state.get()
        buffer, arrived = pickle.loads(stored[0]) if stored is not None else (
            RankBuffer(self.n, self.with_rank, self.skip), 0)
        for row in rows:
            sort = SortKey(tuple(row[c] for c in self.order), self.ascending)
            values = tuple(row[f] for f in self.fields)
            for changed, rank, kind in buffer.offer((sort, arrived), values):
                yield self._row(*changed, rank, kind)
            arrived += 1
        self._state.update((pickle.dumps((buffer, arrived)),))

    def close(self) -> None:
        pass


class Deduplicate(StatefulProcessor):
    """``groupBy(keys).transformWithState(Deduplicate(...))``: deduplication over an
    unbounded table: each key's first row (``keep_last`` False: append-only), or its last
    (+I, then -U the previous row and +U the new one). With ``time_field`` (an event-time
    attribute) a row replaces the kept one when its time is earlier (first) or not earlier
    (last) than the kept row's."""

    def __init__(self, fields: List[str], keep_last: bool, time_field: Optional[str] = None):
        self.fields = list(fields)
        self.keep_last = keep_last
        self.time_at = self.fields.index(time_field) if time_field else None
        # the first row by event time is final once the watermark passes it (a timer)
        self.on_watermark = time_field is not None and not keep_last

    def init(self, handle: StatefulProcessorHandle) -> None:
        self._handle = handle
        self._state = handle.getValueState("kept", "blob binary")
        self._row = SparkRow(*self.fields, "__rank", "__op")

    def handleInputRows(self, key, rows, timerValues) -> Iterator[SparkRow]:
        stored = self._state.get()
        kept = pickle.loads(stored[0]) if stored is not None else None
        if self.on_watermark:
            yield from self._earliest(kept, rows)
            return
        for row in rows:
            values = tuple(row[f] for f in self.fields)
            if kept is None:
                yield self._row(*values, 1, INSERT)
            elif self._replaces(values, kept):
                yield self._row(*kept, 1, UPDATE_BEFORE)
                yield self._row(*values, 1, UPDATE_AFTER)
            else:
                continue
            kept = values
        self._state.update((pickle.dumps(kept),))

    def _earliest(self, kept, rows) -> Iterator[SparkRow]:
        """Keep the earliest row (by event time) until its timer; nothing once emitted."""
        earliest, emitted = kept if kept is not None else (None, False)
        if emitted:
            return
        for row in rows:
            values = tuple(row[f] for f in self.fields)
            if earliest is None or values[self.time_at] < earliest[self.time_at]:
                earliest = values
        self._handle.registerTimer(int(epoch_millis(earliest[self.time_at])))
        self._state.update((pickle.dumps((earliest, False)),))
        yield from ()

    def handleExpiredTimer(self, key, timerValues, expiredTimerInfo) -> Iterator[SparkRow]:
        stored = self._state.get()
        earliest, emitted = pickle.loads(stored[0]) if stored is not None else (None, True)
        if earliest is not None and not emitted:
            yield self._row(*earliest, 1, INSERT)
            self._state.update((pickle.dumps((earliest, True)),))

    def _replaces(self, values: tuple, kept: tuple) -> bool:
        if self.time_at is None:
            return self.keep_last
        new, old = values[self.time_at], kept[self.time_at]
        return new >= old if self.keep_last else new < old

    def close(self) -> None:
        pass
