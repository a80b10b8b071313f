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
``PREV`` (a row before, within the match), aggregates over a variable's rows, arithmetic,
comparisons and logic with SQL's NULLs.
"""
from __future__ import annotations

import operator
import pickle
from decimal import Decimal
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from pyspark.sql import Row as SparkRow
from pyspark.sql.streaming import StatefulProcessor, StatefulProcessorHandle

from pystream.relational import expressions as ex
from pystream.runtime.records import epoch_millis

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
        out, _ = self.matches(rows, None)
        return pa.Table.from_pylist([dict(zip(self.schema.names, values)) for values in out],
                                    schema=self.schema)

    def matches(self, rows: List[dict], watermark: Optional[float]) -> Tuple[list, int]:
        """The results of the matches in ``rows`` (in time order) and where the first
        attempt still open starts (``len(rows)`` if none). ``watermark`` (milliseconds):
        more rows may come after these, so an attempt the rows end in stays open unless
        WITHIN has passed at the watermark; None: the rows are all there are."""
        out = []
        start = 0
        while start < len(rows):
            mapped = self._attempt(rows, start, watermark)
            if mapped is PENDING:
                break  # an attempt still open holds back every later match
            if mapped is None:
                start += 1
                continue
            out.append(self._result(rows, mapped))
            start = max(start + 1, self._next_start(mapped))
        return out, start

    # -- one attempt ---------------------------------------------------------------------

    def _attempt(self, rows: List[dict], start: int, watermark: Optional[float] = None):
        """The rows of the match starting at ``start`` as (row index, variable); None if
        there is none; ``PENDING`` if the rows end before the attempt does (and WITHIN, if
        any, has not passed at the watermark: at the end of the rows, the watermark is the
        end of time)."""
        state: Tuple[int, int] = (0, 0)  # pattern element, rows it has taken
        mapped: List[Tuple[int, str]] = []
        began = epoch_millis(rows[start][self.time_field])
        for j in range(start, len(rows)):
            if self.within_ms is not None and \
                    epoch_millis(rows[j][self.time_field]) - began >= self.within_ms:
                return None
            step = self._advance(state[0], state[1], rows, j, mapped)
            if step is None:
                return None
            element, count, variable = step
            state = (element, count)
            mapped.append((j, variable))
            if self._complete(state):
                return mapped
        if self.within_ms is None:
            return PENDING
        expired = watermark is None or watermark - began >= self.within_ms
        return None if expired else PENDING

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
    if name == "prev":  # the row ``offset`` before the variable's last, in the match
        variable, field, offset = args[0].name, args[1], args[2].value
        taken = _rows_of(variable, mapped)
        position = [j for j, _ in mapped].index(taken[-1]) - offset if taken else -1
        return evaluate(field, rows, [mapped[position]]) if position >= 0 else None
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


class MatchState(StatefulProcessor):
    """``groupBy(partition keys).transformWithState(MatchState(matcher), "EventTime")``:
    MATCH_RECOGNIZE over an unbounded table. A partition's rows wait in Spark's state store
    until the watermark passes their time (a timer each); then the rows up to the watermark,
    in time order, go through ``matcher`` from the first attempt still open: its matches
    are emitted, and rows before the attempt still open are dropped."""

    def __init__(self, matcher: Matcher, fields: Sequence[str]):
        self.matcher = matcher
        self.fields = list(fields)

    def init(self, handle: StatefulProcessorHandle) -> None:
        self._handle = handle
        self._state = handle.getValueState("rows", "blob binary")
        self._row = SparkRow(*self.matcher.schema.names)

    def _load(self) -> list:
        stored = self._state.get()
        return pickle.loads(stored[0]) if stored is not None else []

    def handleInputRows(self, key, rows, timerValues) -> Iterator[SparkRow]:
        waiting = self._load()
        for row in rows:
            values = {f: row[f] for f in self.fields}
            waiting.append(values)
            self._handle.registerTimer(int(epoch_millis(values[self.matcher.time_field])))
        self._state.update((pickle.dumps(waiting),))
        return iter(())

    def handleExpiredTimer(self, key, timerValues, expiredTimerInfo) -> Iterator[SparkRow]:
        watermark = max(timerValues.getCurrentWatermarkInMs(),
                        expiredTimerInfo.getExpiryTimeInMs())
        time_field = self.matcher.time_field
        waiting = sorted(self._load(), key=lambda r: r[time_field])
        ready = [r for r in waiting if epoch_millis(r[time_field]) <= watermark]
        out, start = self.matcher.matches(ready, watermark)
        self._state.update((pickle.dumps(waiting[start:]),))
        return iter([self._row(*values) for values in out])

    def close(self) -> None:
        pass
