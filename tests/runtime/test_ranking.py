"""Top-N's filter before the shuffle (``TopNCandidates``) drops only rows that cannot change
the changelog: the replay (``TopN``) of the rows it keeps gives what the replay of all rows
gives, over seeded random rows (ties, NULL partition keys, two key columns, the rank shown
or not, an offset, batches of every size, rows out of arrival order). Lists in, lists out:
no Spark."""
from __future__ import annotations

import random
from decimal import Decimal

import pyarrow as pa
import pytest

from pystream.runtime import ranking
from pystream.runtime.ranking import TopN, TopNCandidates

ORDER = ["o_null", "o", "o_dec"]  # as the compiler's __ord columns: a NULL rank, the values


def _batches(rows, size):
    columns = ["p", "q", "v", "__seq", "o_null", "o", "o_dec"]
    types = [pa.int64(), pa.string(), pa.int64(), pa.int64(), pa.int32(), pa.int64(),
             pa.decimal128(10, 2)]
    return [pa.RecordBatch.from_arrays(
        [pa.array(list(c), type=t) for c, t in zip(zip(*rows[i:i + size]), types)], columns)
        for i in range(0, len(rows), size)] if rows else []


def _random_rows(rng: random.Random, count: int) -> list:
    keys = rng.randint(1, 5)
    return [(rng.choice([None, *range(keys)]), rng.choice([None, "a", "b"]), i, i,
             rng.choice([0, 1, 1, 2]), rng.randint(-3, 3), Decimal(rng.randint(-2, 2)) / 2)
            for i in range(count)]


def _changes(rows, size, n, parts, with_rank, skip, look=True, monkeypatch=None):
    topn = TopN(n, ["p", "q", "v"], with_rank, parts, ORDER, skip=skip)
    if not look:  # the replay offering every row to its buffer
        monkeypatch.setattr(ranking, "better_than_kept", lambda *args: None)
    return [r for b in topn(iter(_batches(rows, size))) for r in b.to_pylist()]


def _candidates(rows, size, n, parts):
    batches = _batches(rows, size)
    masks = TopNCandidates(n, parts, ORDER)(iter(batches))
    return sorted((tuple(r.values()) for b, m in zip(batches, masks)
                   for r in b.filter(pa.array(m)).to_pylist()), key=lambda r: r[3])


@pytest.mark.parametrize("seed", range(40))
def test_the_rows_kept_give_the_changelog_all_rows_give(seed, monkeypatch):
    rng = random.Random(seed)
    rows = _random_rows(rng, rng.randint(0, 300))
    n, skip, size = rng.randint(1, 4), rng.choice([0, 0, 1]), rng.randint(1, 40)
    parts = rng.choice([["p"], ["q"], ["p", "q"]])
    with_rank = rng.random() < 0.5
    monkeypatch.setattr(ranking, "FEW_KEYS", rng.choice([0, 4]))  # look at every batch, or not
    kept = _candidates(rows, size, n + skip, parts)
    looking = _changes(rows, size, n + skip, parts, with_rank, skip)
    from_kept = _changes(kept, size, n + skip, parts, with_rank, skip)
    every_row = _changes(rows, size, n + skip, parts, with_rank, skip, False, monkeypatch)
    assert looking == from_kept == every_row


@pytest.mark.parametrize("seed", range(20))
def test_rows_out_of_arrival_order_are_not_ruled_out_by_later_ones(seed, monkeypatch):
    """A batch whose rows did not come in arrival order forgets what was seen and passes:
    a row is never ruled out by rows that arrived after it."""
    rng = random.Random(seed)
    rows = [(rng.randint(0, 3), "a", i, i, 1, rng.randint(-5, 5), Decimal(0))
            for i in range(rng.randint(1, 200))]
    turned = rng.randint(0, len(rows) - 1)
    shuffled = rows[turned:] + rows[:turned]  # the later rows first
    size, n = rng.randint(1, 30), rng.randint(1, 3)
    monkeypatch.setattr(ranking, "FEW_KEYS", 0)
    kept = _candidates(shuffled, size, n, ["p"])
    assert _changes(kept, size, n, ["p"], False, 0) == _changes(rows, size, n, ["p"], False, 0)


def test_most_rows_of_few_keys_are_ruled_out():
    rows = [(i % 3, "a", i, i, 1, (i * 7919) % 1009, Decimal(0)) for i in range(30000)]
    kept = _candidates(rows, 1000, 3, ["p"])
    assert len(kept) < 3000
