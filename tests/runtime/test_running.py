"""A GROUP BY's running totals in Arrow batches (``RunningTotals``) are what a row-by-row
replay gives, over seeded random rows sorted by key and arrival: NULL keys and values, two
key columns, groups that continue from one chunk into the next, chunks of every size.
Lists in, lists out: no Spark."""
from __future__ import annotations

import random

import pyarrow as pa
import pytest

from pystream.runtime.running import BEFORE, ROWS, RunningTotals, Total

TOTALS = [Total("s", "sum", "x"), Total("d", "first", "v"), Total("hi", "max", "w"),
          Total("lo", "min", "w")]
COLUMNS = ["k", "j", "__seq", "x", "v", "w"]
TYPES = [pa.int64(), pa.string(), pa.int64(), pa.int64(), pa.string(), pa.string()]


def _rows(rng: random.Random, count: int) -> list:
    rows = [(rng.choice([None, 1, 2, 3]), rng.choice([None, "a", "b"]), seq,
             rng.choice([None, -2, 0, 5]), rng.choice([None, "p", "q", "r", "s"]),
             rng.choice([None, "m", "n", "o", "pp"])) for seq in range(count)]
    return sorted(rows, key=lambda r: (r[0] is not None, r[0] or 0, r[1] is not None,
                                       r[1] or "", r[2]))


def _replayed(rows: list) -> list:
    """Each row's keys, seq, row count and totals after and before it, one row at a time."""
    out, state = [], {}
    for k, j, seq, x, v, w in rows:
        rows_before, s, seen, hi, lo = state.get((k, j), (0, 0, set(), None, None))
        after = (rows_before + 1, s + (x or 0), seen | ({v} if v is not None else set()),
                 w if hi is None or (w is not None and w > hi) else hi,
                 w if lo is None or (w is not None and w < lo) else lo)
        state[(k, j)] = after
        out.append({"k": k, "j": j, "__seq": seq, ROWS: after[0],
                    "s": after[1], "s" + BEFORE: s, "d": len(after[2]), "d" + BEFORE: len(seen),
                    "hi": after[3], "hi" + BEFORE: hi, "lo": after[4], "lo" + BEFORE: lo})
    return out


@pytest.mark.parametrize("seed", range(30))
def test_running_totals_in_chunks_are_the_replay_row_by_row(seed, monkeypatch):
    rng = random.Random(seed)
    rows = _rows(rng, rng.randint(1, 60))
    size, chunk = rng.randint(1, 9), rng.randint(1, 20)
    monkeypatch.setattr(RunningTotals, "CHUNK_ROWS", chunk)
    batches = [pa.RecordBatch.from_arrays(
        [pa.array(list(c), type=t) for c, t in zip(zip(*rows[i:i + size]), TYPES)], COLUMNS)
        for i in range(0, len(rows), size)]
    got = [r for b in RunningTotals(["k", "j"], TOTALS)(iter(batches)) for r in b.to_pylist()]
    assert got == _replayed(rows)
