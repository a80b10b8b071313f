"""Joins and rankings that time bounds, as Flink's planner recognises them.

Flink runs these with state the watermark drops and emits each result once (append-only),
where the same SQL over plain tables would be a regular join or ranking that updates:

* an **interval join**: the condition bounds one side's rowtime attribute by the other's
  (``b.ts BETWEEN a.ts - INTERVAL ... AND a.ts``, or two comparisons);
* a **window join**: both sides are rows of window table functions, joined on equal
  window_start and window_end;
* a **window ranking** (window Top-N, window deduplication): ROW_NUMBER partitioned by the
  window_start and window_end of one window table function.
"""
from __future__ import annotations

import datetime
from typing import List, Optional, Tuple

from pystream.relational import expressions as ex
from pystream.relational import operations as ops

__all__ = ["window_of", "is_interval_join", "is_window_join", "is_window_ranking",
           "interval_bounds", "shifted_time", "conjuncts", "WINDOW_BOUNDS"]

WINDOW_BOUNDS = {"window_start", "window_end"}
WINDOW_PROPERTIES = {"window_rowtime": "window_time"}  # a window aggregate's names for them
COMPARISONS = ("less_than", "less_than_or_equal", "greater_than", "greater_than_or_equal")


def window_of(node: ops.Rel, name: str) -> Optional[Tuple[ops.WindowTable, str]]:
    """The window table function (or window aggregate) and the property (window_start,
    window_end, window_time) that field ``name`` of ``node`` is, read through projections,
    filters, joins and aggregates grouped by it (Flink's window properties propagate so:
    a window aggregate, a join or a Top-N over window aggregates is still windowed)."""
    if isinstance(node, ops.WindowTable):
        return (node, name) if name in node.schema.names[-3:] else None
    if isinstance(node, ops.Project):
        if not node.schema.has(name):
            return None
        expr = _unaliased(node.exprs[node.schema.names.index(name)])
        return window_of(node.input, expr.name) if isinstance(expr, ex.Column) else None
    if isinstance(node, (ops.Filter, ops.Sort)):
        return window_of(node.input, name)
    if isinstance(node, ops.WindowAggregate):  # a window TVF aggregate's window_start ...
        first = len(node.schema) - len(node.properties)
        index = node.schema.names.index(name) if node.schema.has(name) else -1
        if index < first:
            return None
        prop = _unaliased(node.properties[index - first]).name
        return node, WINDOW_PROPERTIES.get(prop, prop)
    if isinstance(node, ops.Aggregate):  # grouped by a window's bounds: a cascaded window
        index = node.schema.names.index(name) if node.schema.has(name) else -1
        key = _unaliased(node.keys[index]) if 0 <= index < len(node.keys) else None
        return window_of(node.input, key.name) if isinstance(key, ex.Column) else None
    if isinstance(node, ops.Join) and node.kind not in ("semi", "anti"):
        names = _join_names(node)
        if name not in names:
            return None
        i, width = names.index(name), len(node.left.schema)
        return window_of(node.left, node.left.schema.names[i]) if i < width \
            else window_of(node.right, node.right.schema.names[i - width])
    return None


def groups_by_window(node: ops.Aggregate) -> bool:
    """GROUP BY the window_start and window_end of one window (a cascaded window aggregate:
    its input's rows of a window all come when the window closes)."""
    found = [window_of(node.input, k.name) for k in node.keys if isinstance(k, ex.Column)]
    found = [f for f in found if f is not None and f[1] in WINDOW_BOUNDS]
    return len({id(table) for table, _ in found}) == 1 and \
        {prop for _, prop in found} == WINDOW_BOUNDS


def is_window_ranking(over: ops.Over) -> bool:
    """ROW_NUMBER partitioned by window_start and window_end of one window table function."""
    if len(over.aggregates) != 1:
        return False
    call = _unaliased(over.aggregates[0].expr)
    if not (isinstance(call, ex.OverCall) and getattr(call.agg, "name", None) == "row_number"):
        return False
    found = [window_of(over.input, p.name) for p in call.window.partition_by
             if isinstance(p, ex.Column)]
    found = [f for f in found if f is not None and f[1] in WINDOW_BOUNDS]
    return len({id(table) for table, _ in found}) == 1 and \
        {prop for _, prop in found} == WINDOW_BOUNDS


def is_window_join(join: ops.Join) -> bool:
    """Both sides' window_start and window_end equal in the join condition."""
    if join.condition is None or join.kind in ("semi", "anti"):
        return False
    width = len(join.left.schema)
    names = _join_names(join)
    equal = set()
    for c in conjuncts(join.condition):
        if not (isinstance(c, ex.Call) and c.name == "equals"
                and all(isinstance(a, ex.Column) and a.name in names for a in c.args)):
            continue
        sides = sorted(names.index(a.name) < width for a in c.args)
        found = [window_of(join, a.name) for a in c.args]
        if sides == [False, True] and all(found) and found[0][1] == found[1][1]:
            equal.add(found[0][1])
    return WINDOW_BOUNDS <= equal


def is_interval_join(join: ops.Join) -> bool:
    """The condition bounds a rowtime attribute of one side by one of the other, from below
    and from above (``BETWEEN``, or two comparisons)."""
    if join.condition is None or join.kind in ("semi", "anti") or is_window_join(join):
        return False
    names = _join_names(join)
    width = len(join.left.schema)
    left = {names[i] for i, f in enumerate(join.left.schema) if f.time == "rowtime"}
    right = {names[width + i] for i, f in enumerate(join.right.schema) if f.time == "rowtime"}
    bounds = 0
    for c in conjuncts(join.condition):
        if not (isinstance(c, ex.Call) and c.name in COMPARISONS + ("between",)):
            continue
        columns = {e.name for e in ex.walk(c) if isinstance(e, ex.Column)}
        if columns & left and columns & right and columns <= left | right:
            bounds += 2 if c.name == "between" else 1
    return bounds >= 2


def interval_bounds(join: ops.Join) -> Optional[Tuple[str, str, int, int]]:
    """(left time field, right time field, low, high): the interval join's condition holds
    only for rows whose right time minus left time lies in [low, high] milliseconds (the
    join's own condition says exactly which; this is the range it implies). None when the
    condition does not bound both ways with constant shifts."""
    names = _join_names(join)
    width = len(join.left.schema)
    low: Optional[int] = None
    high: Optional[int] = None
    fields = None
    for c in conjuncts(join.condition) if join.condition is not None else []:
        terms = [c] if not (isinstance(c, ex.Call) and c.name == "between") else [
            ex.Call("greater_than_or_equal", c.args[:2]),
            ex.Call("less_than_or_equal", (c.args[0], c.args[2]))]
        for t in terms:
            if not (isinstance(t, ex.Call) and t.name in COMPARISONS):
                continue
            a, b = shifted_time(t.args[0]), shifted_time(t.args[1])
            if a is None or b is None or names.count(a[0]) != 1 or names.count(b[0]) != 1:
                continue
            sides = (names.index(a[0]) < width, names.index(b[0]) < width)
            if sides == (True, False):  # left + x OP right + y: flip to right OP left
                a, b = b, a
                op = {"less_than": "greater_than", "less_than_or_equal": "greater_than_or_equal",
                      "greater_than": "less_than",
                      "greater_than_or_equal": "less_than_or_equal"}[t.name]
            elif sides == (False, True):
                op = t.name
            else:
                continue
            if fields is not None and fields != (b[0], a[0]):
                return None
            fields = (b[0], a[0])
            difference = b[1] - a[1]  # right + x OP left + y: right - left OP y - x
            if op.startswith("greater"):
                low = difference if low is None else max(low, difference)
            else:
                high = difference if high is None else min(high, difference)
    if fields is None or low is None or high is None or high < low:
        return None
    return fields[0], fields[1], low, high


def shifted_time(expr: ex.Expr) -> Optional[Tuple[str, int]]:
    """``ts``, ``ts + INTERVAL ...`` or ``ts - INTERVAL ...``: (field, shift in ms)."""
    if isinstance(expr, ex.Column):
        return expr.name, 0
    if isinstance(expr, ex.Call) and expr.name in ("plus", "minus") and \
            isinstance(expr.args[0], ex.Column) and isinstance(expr.args[1], ex.Literal) and \
            isinstance(expr.args[1].value, datetime.timedelta):
        shift = int(expr.args[1].value / datetime.timedelta(milliseconds=1))
        return expr.args[0].name, shift if expr.name == "plus" else -shift
    return None


def conjuncts(condition: ex.Expr) -> List[ex.Expr]:
    """The terms of a condition's top-level ANDs."""
    if isinstance(condition, ex.Call) and condition.name == "and":
        return [t for a in condition.args for t in conjuncts(a)]
    return [condition]


def _join_names(join: ops.Join) -> Tuple[str, ...]:
    return join.left.schema.names + join.right.schema.names


def _unaliased(expr: ex.Expr) -> ex.Expr:
    return expr.expr if isinstance(expr, ex.Alias) else expr
