"""MATCH_RECOGNIZE over one partition's rows, as Flink's pattern matching finds them.

``groupBy(partition keys).applyInArrow(Matcher(...))``: the partition's rows in time order;
from each start row, one attempt walks the rows one by one through the pattern's variables,
as Flink's NFA does:

* a greedy quantifier takes a row whenever its variable's condition holds (and its maximum
  is not reached), and only otherwise lets the row go on to the next variable;
* a reluctant one (``+?``, ``*?``, ``??``, ``{n,m}?``) lets the row go on first, once its
  minimum is reached, and takes it only when the rest of the pattern cannot;
* an attempt ends with a match as soon as the pattern is complete (an optional variable at
  its end takes no row, as in Flink), without a match when a row fits nowhere before, when
  ``WITHIN`` has passed, or when the rows end.

Matches come out in the order of their starts: an attempt still open when the rows end
(it might have matched with later rows) holds back every match that starts after it, as in
Flink. After a match the next attempt starts where ``AFTER MATCH SKIP`` says (``TO NEXT
ROW`` by default, ``PAST LAST ROW``, ``TO FIRST v``, ``TO LAST v``). Conditions (``DEFINE``) and
``MEASURES`` are relational expressions evaluated here in Python over the rows mapped so
far (``evaluate``): a variable's field (its last row), ``FIRST``/``LAST`` with an offset,
aggregates over a variable's rows, arithmetic, comparisons and logic with SQL's NULLs.
"""
from __future__ import annotations

import operator
from decimal import Decimal
from typing import Dict, List, Optional, Sequence, Tuple

from pystream.relational import expressions as ex

ALL_ROWS = "*"  # the variable that stands for every row of the match
PENDING = "pending"  # an attempt the rows ended in

COMPARISONS = {"equals": operator.eq, "not_equals": operator.ne, "less_than": operator.lt,
               "less_than_or_equal": operator.le, "greater_than": operator.gt,
               "greater_than_or_equal": operator.ge}
ARITHMETIC = {"plus": operator.add, "minus": operator.sub, "times": operator.mul,
              "mod": operator.mod}
AGGREGATES = ("sum", "avg", "count", "min", "max")
NAVIGATION = ("first", "last")


class Matcher:
    """The matches of one partition (see the module's docstring); ``pattern`` holds
    (variable, min, max or None, greedy) in order."""

    def __init__(self, pattern: Sequence[Tuple[str, int, Optional[int], bool]],
                 define: Dict[str, ex.Expr], measures: Sequence[ex.Expr], keys: Sequence[str],
                 time_field: str, after: str, within_ms: Optional[int], schema,
                 seq: Optional[str] = None):
        self.pattern = list(pattern)
        self.define = dict(define)
        self.measures = list(measures)
        self.keys = list(keys)
        self.time_field = time_field
        self.after = after
        self.within_ms = within_ms
        self.schema = schema  # the Arrow schema of the output
        self.seq = seq  # the arrival order column (STREAMING), kept as the match's last

    def __call__(self, table):
        import pyarrow as pa

        rows = table.to_pylist()
        rows.sort(key=lambda r: (r[self.time_field] is None, r[self.time_field],
                                 r.get(self.seq) if self.seq else 0))
        out = []
        start = 0
        while start < len(rows):
            mapped = self._attempt(rows, start)
            if mapped is PENDING:
                break  # an attempt still open holds back every later match
            if mapped is None:
                start += 1
                continue
            out.append(self._result(rows, mapped))
            start = max(start + 1, self._next_start(mapped))
        return pa.Table.from_pylist([dict(zip(self.schema.names, values)) for values in out],
                                    schema=self.schema)

    # -- one attempt ---------------------------------------------------------------------

    def _attempt(self, rows: List[dict], start: int):
        """The rows of the match starting at ``start`` as (row index, variable); None if
        there is none; ``PENDING`` if the rows end before the attempt does (without
        ``WITHIN``, which ends it when the watermark passes)."""
        state: Tuple[int, int] = (0, 0)  # pattern element, rows it has taken
        mapped: List[Tuple[int, str]] = []
        for j in range(start, len(rows)):
            if self.within_ms is not None and _millis(rows[j][self.time_field]) - _millis(
                    rows[start][self.time_field]) >= self.within_ms:
                return None
            step = self._advance(state[0], state[1], rows, j, mapped)
            if step is None:
                return None
            element, count, variable = step
            state = (element, count)
            mapped.append((j, variable))
            if self._complete(state):
                return mapped
        return None if self.within_ms is not None else PENDING

    def _advance(self, element: int, count: int, rows, j: int, mapped
                 ) -> Optional[Tuple[int, int, str]]:
        """Where row ``j`` goes from (element, count): (element, its new count, variable)."""
        if element == len(self.pattern):
            return None
        variable, least, most, greedy = self.pattern[element]
        takes = (most is None or count < most) and self._holds(variable, rows, j, mapped)
        leaves = count >= least
        if greedy:
            if takes:
                return element, count + 1, variable
            return self._advance(element + 1, 0, rows, j, mapped) if leaves else None
        if leaves:
            onward = self._advance(element + 1, 0, rows, j, mapped)
            if onward is not None:
                return onward
        return (element, count + 1, variable) if takes else None

    def _complete(self, state: Tuple[int, int]) -> bool:
        element, count = state
        return count >= self.pattern[element][1] and all(
            least == 0 for _, least, _, _ in self.pattern[element + 1:])

    def _holds(self, variable: str, rows, j: int, mapped) -> bool:
        condition = self.define.get(variable)
        if condition is None:
            return True
        return evaluate(condition, rows, mapped + [(j, variable)]) is True

    # -- after a match -------------------------------------------------------------------

    def _result(self, rows, mapped) -> tuple:
        last = rows[mapped[-1][0]]
        values = tuple(last[k] for k in self.keys)
        values += tuple(evaluate(m, rows, mapped) for m in self.measures)
        return values + ((max(rows[j][self.seq] for j, _ in mapped),) if self.seq else ())

    def _next_start(self, mapped) -> int:
        words = self.after.upper().split()
        if words[:2] == ["PAST", "LAST"]:
            return mapped[-1][0] + 1
        if words[:1] == ["TO"] and words[1] in ("FIRST", "LAST"):
            found = [j for j, v in mapped if v.upper() == words[2]]
            if found:
                return found[0] if words[1] == "FIRST" else found[-1]
        return mapped[0][0] + 1  # TO NEXT ROW


def evaluate(expr: ex.Expr, rows: List[dict], mapped: List[Tuple[int, str]]):
    """The value of a DEFINE or MEASURES expression over the rows mapped so far; a field
    without a variable is the last mapped row's."""
    if isinstance(expr, ex.Alias):
        return evaluate(expr.expr, rows, mapped)
    if isinstance(expr, ex.Literal):
        return expr.value
    if isinstance(expr, ex.Column):
        return rows[mapped[-1][0]][expr.name] if mapped else None
    if not isinstance(expr, ex.Call):
        raise TypeError("not evaluated in a pattern: %r" % (expr,))
    name, args = expr.name, expr.args
    if name in NAVIGATION:
        variable, field, offset = args[0].name, args[1], args[2].value
        taken = _rows_of(variable, mapped)
        if offset >= len(taken):
            return None
        j = taken[offset] if name == "first" else taken[-1 - offset]
        return evaluate(field, rows, [(j, variable)])
    if name in AGGREGATES:
        variable, inner = args[0].args[0].name, args[0].args[1]
        values = [evaluate(inner, rows, [(j, variable)]) for j in _rows_of(variable, mapped)]
        return _aggregate(name, [v for v in values if v is not None])
    values = [evaluate(a, rows, mapped) for a in args]
    if name == "and":
        return False if False in values else (None if None in values else True)
    if name == "or":
        return True if True in values else (None if None in values else False)
    if name == "not":
        return None if values[0] is None else not values[0]
    if name == "is_null":
        return values[0] is None
    if name == "is_not_null":
        return values[0] is not None
    if None in values:
        return None
    if name in COMPARISONS:
        return COMPARISONS[name](*values)
    if name in ARITHMETIC:
        return ARITHMETIC[name](*values)
    if name == "divide":
        return _divide(*values)
    raise TypeError("not evaluated in a pattern: %s()" % name)


def _rows_of(variable: str, mapped: List[Tuple[int, str]]) -> List[int]:
    return [j for j, v in mapped if variable == ALL_ROWS or v == variable]


def _aggregate(name: str, values: list):
    if name == "count":
        return len(values)
    if not values:
        return None
    if name == "sum":
        return sum(values)
    if name == "min":
        return min(values)
    if name == "max":
        return max(values)
    return _divide(sum(values), len(values))  # avg: an integer's is an integer, as Flink's


def _divide(a, b):
    if isinstance(a, int) and isinstance(b, int):
        quotient = abs(a) // abs(b)
        return quotient if (a >= 0) == (b >= 0) else -quotient
    if isinstance(a, Decimal) or isinstance(b, Decimal):
        return Decimal(a) / Decimal(b)
    return a / b


def _millis(value) -> float:
    return value.timestamp() * 1000 if hasattr(value, "timestamp") else float(value)
