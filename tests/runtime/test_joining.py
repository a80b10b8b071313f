"""A regular join's changelog for one key, list in, list out (no Spark): Flink's streaming
join operator's rules, whose results tests/sql/programs/regular_joins_streaming.py compares
with PyFlink's."""
from __future__ import annotations

import pyarrow as pa

from pystream.runtime.joining import JoinChangelog

KINDS = {0: "+I", 1: "-U", 2: "+U", 3: "-D"}


def changes(kind: str, arrivals: list) -> list:
    """(kind, left value, right value) of each change; ``arrivals`` are (side, kind, value)."""
    table = pa.Table.from_pylist([
        {"__l": {"a": v} if side == "L" else None, "__r": {"b": v} if side == "R" else None,
         "__seq": i, "__op": {v: k for k, v in KINDS.items()}[op], "__sub": 0,
         "__side": 0 if side == "L" else 1} for i, (side, op, v) in enumerate(arrivals)])
    schema = pa.schema([("a", pa.int64()), ("b", pa.int64()), ("__seq", pa.int64()),
                        ("__op", pa.int32()), ("__sub", pa.int32())])
    out = JoinChangelog(kind, ["a"], ["b"], schema)(table).to_pylist()
    return [(KINDS[r["__op"]], r["a"], r["b"]) for r in out]


def test_a_left_join_pads_then_retracts_the_padding_at_the_first_match():
    assert changes("left", [("L", "+I", 1), ("R", "+I", 10), ("R", "+I", 11),
                            ("R", "-D", 10), ("R", "-D", 11)]) == [
        ("+I", 1, None), ("-D", 1, None), ("+I", 1, 10), ("+I", 1, 11), ("-D", 1, 10),
        ("-D", 1, 11), ("+I", 1, None)]


def test_an_inner_join_follows_its_inputs_kinds():
    assert changes("inner", [("R", "+I", 10), ("L", "+I", 1), ("L", "-U", 1),
                             ("L", "+U", 2)]) == [
        ("+I", 1, 10), ("-U", 1, 10), ("+U", 2, 10)]


def test_a_full_join_pads_both_sides():
    assert changes("full", [("R", "+I", 10), ("L", "+I", 1), ("L", "-D", 1)]) == [
        ("+I", None, 10), ("-D", None, 10), ("+I", 1, 10), ("-D", 1, 10), ("+I", None, 10)]
