"""MATCH_RECOGNIZE's matcher on plain rows, list in, list out (no Spark). The behaviours
here were observed on PyFlink 2.3 (tests/sql/programs/match_recognize.py records them)."""
from __future__ import annotations

import pyarrow as pa

from pystream.relational import expressions as ex
from pystream.runtime.matching import Matcher
from pystream.table.types import DataTypes

INT = DataTypes.INT().not_null()


def field(variable: str, name: str = "price", offset: int = 0, kind: str = "last") -> ex.Expr:
    return ex.Call(kind, (ex.Symbol(variable), ex.Column(name), ex.Literal(offset, INT)))


def below(variable: str, value: int) -> ex.Expr:
    return ex.Call("less_than", (field(variable), ex.Literal(value, INT)))


def matches(prices, pattern, define, measures, after="TO NEXT ROW", within_ms=None):
    """The measures of each match over rows of these prices, one per second."""
    table = pa.table({"t": list(range(0, 1000 * len(prices), 1000)), "price": prices})
    schema = pa.schema([pa.field("m%d" % i, pa.int64()) for i in range(len(measures))])
    run = Matcher(pattern, define, measures, [], "t", after, within_ms, schema)
    return [tuple(r.values()) for r in run(table).to_pylist()]


def test_a_greedy_variable_takes_every_row_its_condition_holds_for():
    # A+ B with B undefined: a row that is an A is never tried as B
    assert matches([1, 2, 3], [("A", 1, None, True), ("B", 1, 1, True)],
                   {"A": below("A", 10)}, [field("A")]) == []
    assert matches([1, 2, 30, 4], [("A", 1, None, True), ("B", 1, 1, True)],
                   {"A": below("A", 10)}, [field("A"), field("B")],
                   after="PAST LAST ROW") == [(2, 30)]


def test_a_reluctant_variable_lets_the_row_go_on_first():
    greater = ex.Call("greater_than", (field("C"), ex.Literal(20, INT)))
    assert matches([1, 5, 25, 30], [("A", 1, 1, True), ("B", 0, None, False),
                                    ("C", 1, 1, True)],
                   {"C": greater}, [field("A"), field("C")]) == [(1, 25), (5, 25), (25, 30)]


def test_an_attempt_still_open_when_the_rows_end_holds_back_later_matches():
    # the attempts from the first rows never end (their average stays low); the one from
    # the third row would match
    pattern = [("A", 1, None, True), ("B", 1, 1, True)]
    define = {"A": ex.Call("less_than", (ex.Call("avg", (ex.Call("pattern_rows", (
        ex.Symbol("A"), ex.Column("price"))),)), ex.Literal(10, INT)))}
    assert matches([0, 0, 9, 12, 9], pattern, define, [field("A")]) == []
    assert matches([0, 0, 9, 12, 9], pattern, define, [field("A")], within_ms=2000) == [
        (9,)]


def test_first_last_and_offsets_read_a_variables_rows():
    measures = [field("A", kind="first"), field("A", offset=1), ex.Call("count", (ex.Call(
        "pattern_rows", (ex.Symbol("A"), ex.Column("price"))),))]
    assert matches([3, 4, 5, 50], [("A", 2, 3, True), ("B", 1, 1, True)],
                   {"A": below("A", 10)}, measures, after="PAST LAST ROW") == [(3, 4, 3)]
