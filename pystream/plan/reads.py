"""``shared_reads(rel)``: the bounded connector tables a query reads more than once, and the
fields its uses need. Pure: no Spark.

Flink reads a source table once however many views select from it; Spark would scan (and
parse) it once per use. Where every use filters the table's rows, the compiler reads it
once instead, keeps the rows and fields given here in Spark's cache, and gives every use
its rows from there (when a sample shows those rows are few: caching most of a table
costs more than reading it again). A field is a path:
``('auction',)`` the whole column, ``('auction', 'id')`` one field of a ROW column, ``()``
every column (what a query needs where this analysis cannot tell).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from typing import Dict, FrozenSet, Iterable, List, Mapping, Optional, Set, Tuple

from pystream.relational import expressions as ex
from pystream.relational import operations as ops
from pystream.relational.printing import expression_string

__all__ = ["Path", "ScanKey", "SharedRead", "scan_key", "shared_reads", "EVERYTHING"]

Path = Tuple[str, ...]
ScanKey = Tuple[str, Tuple[Tuple[str, str], ...]]
EVERYTHING: Path = ()

# expressions whose columns are their children's (anything else: every input field)
_PLAIN = (ex.Column, ex.Literal, ex.Call, ex.Alias, ex.Cast, ex.Symbol, ex.Ordering,
          ex.UserCall)


@dataclass(frozen=True)
class SharedRead:
    """What a table read once keeps for its uses: the ``fields`` they need and the ``rows``
    any of them keeps (their filters' conditions joined by OR; None: every row)."""

    fields: FrozenSet[Path]
    rows: Optional[ex.Expr]

    def describe(self) -> str:
        fields = "every field" if EVERYTHING in self.fields else \
            ", ".join(".".join(p) for p in sorted(self.fields))
        return fields if self.rows is None else "%s of the rows where %s" % (
            fields, expression_string(self.rows))


def scan_key(scan: ops.ConnectorScan) -> ScanKey:
    """What makes two scans read the same rows: the table and its connector's options."""
    return scan.name, tuple(sorted(scan.options.items()))


def shared_reads(rel: ops.Rel) -> Mapping[ScanKey, SharedRead]:
    """Each bounded connector table that ``rel`` reads more than once, every use filtering
    its rows, with what its uses need of it."""
    uses: Dict[ScanKey, int] = {}
    for scan in _scans(rel):
        uses[scan_key(scan)] = uses.get(scan_key(scan), 0) + 1
    if not any(n > 1 for n in uses.values()) or any(_has_subquery(n) for n in ops.walk(rel)):
        return {}
    needs: Dict[ScanKey, Set[Path]] = {}
    filters: Dict[ScanKey, List[Optional[ex.Expr]]] = {}
    _read(rel, {EVERYTHING}, needs, filters)
    shared = {key: SharedRead(frozenset(needs[key]), _any_of(filters[key]))
              for key, n in uses.items() if n > 1}
    return {key: read for key, read in shared.items() if read.rows is not None}


def _any_of(conditions: List[Optional[ex.Expr]]) -> Optional[ex.Expr]:
    """The rows any use keeps: None if one keeps every row, or a filter calls Python (it
    would run twice)."""
    if any(c is None or any(isinstance(e, (ex.UserCall, ex.SubQuery)) for e in ex.walk(c))
           for c in conditions):
        return None
    unique = list(dict.fromkeys(conditions))
    return reduce(lambda a, b: ex.Call("or", (a, b)), unique)


def _scans(node: ops.Rel) -> Iterable[ops.ConnectorScan]:
    """The bounded connector scans under ``node``, once per path that reaches them (a node
    read by two others is compiled twice)."""
    if isinstance(node, ops.ConnectorScan) and node.bounded:
        yield node
    for child in node.inputs:
        yield from _scans(child)


def _has_subquery(node: ops.Rel) -> bool:
    return any(isinstance(e, ex.SubQuery) for e in _expressions(node))


def _expressions(node: ops.Rel) -> Iterable[ex.Expr]:
    for value in vars(node).values():
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, ex.Expr):
                yield from ex.walk(item)


def _read(node: ops.Rel, wanted: Set[Path], needs: Dict[ScanKey, Set[Path]],
          filters: Dict[ScanKey, List[Optional[ex.Expr]]],
          filtered_by: Optional[ex.Expr] = None) -> None:
    """Record what the scans under ``node`` must give for the fields ``wanted`` of
    ``node``'s rows (``filtered_by``: the condition of the filter that reads ``node``)."""
    if isinstance(node, ops.ConnectorScan):
        needs.setdefault(scan_key(node), set()).update(_scan_fields(node, wanted))
        filters.setdefault(scan_key(node), []).append(filtered_by)
        return
    reader = _READERS.get(type(node))
    inputs = reader(node, wanted) if reader is not None else None
    if inputs is None:  # not known here: every field of every input
        inputs = [{EVERYTHING} for _ in node.inputs]
    condition = node.condition if isinstance(node, ops.Filter) else None
    for child, paths in zip(node.inputs, inputs):
        _read(child, paths, needs, filters, condition)


def _scan_fields(scan: ops.ConnectorScan, wanted: Set[Path]) -> Set[Path]:
    fields = set(wanted)
    computed = dict(scan.computed)
    for path in wanted:
        if path and path[0] in computed:
            fields.add((path[0],))
            fields |= _paths(computed[path[0]])
    return fields


def _project(node: ops.Project, wanted: Set[Path]):
    names = node.schema.names
    if len(set(names)) != len(names):
        return None
    paths: Set[Path] = set()
    for name, expr in zip(names, node.exprs):
        parts = _parts_of(wanted, name)
        if not parts:
            continue
        inner = expr.expr if isinstance(expr, ex.Alias) else expr
        base = _field_path(inner)
        paths |= {base + part for part in parts} if base is not None else _paths(expr)
    return [paths]


def _filter(node: ops.Filter, wanted: Set[Path]):
    return [set(wanted) | _paths(node.condition)]


def _sort(node: ops.Sort, wanted: Set[Path]):
    return [set(wanted).union(*[_paths(k) for k in node.keys])]


def _aggregate(node: ops.Aggregate, wanted: Set[Path]):
    return [set().union(*[_paths(e) for e in node.keys + node.aggregates])]


def _join(node: ops.Join, wanted: Set[Path]):
    left, right = list(node.left.schema.names), list(node.right.schema.names)
    both = left + right
    output = list(node.schema.names)
    if len(set(both)) != len(both) or output != (left if node.kind in ("semi", "anti")
                                                 else both):
        return None
    paths = {p for p in wanted if p} | (_paths(node.condition) if node.condition else set())
    if EVERYTHING in wanted:
        paths |= {(n,) for n in output}
    if EVERYTHING in paths:
        return None
    return [{p for p in paths if p[0] in left}, {p for p in paths if p[0] in right}]


_READERS = {ops.Project: _project, ops.Filter: _filter, ops.Sort: _sort,
            ops.Aggregate: _aggregate, ops.Join: _join}


def _parts_of(wanted: Set[Path], name: str) -> List[Path]:
    """The parts of field ``name`` that ``wanted`` holds: ``[()]`` for all of it."""
    if EVERYTHING in wanted or (name,) in wanted:
        return [EVERYTHING]
    return [p[1:] for p in wanted if p[0] == name]


def _field_path(expr: ex.Expr):
    """``a`` as ``('a',)``, ``a.b.c`` (ROW fields by name) as ``('a', 'b', 'c')``; None for
    anything else."""
    if isinstance(expr, ex.Column):
        return (expr.name,)
    if isinstance(expr, ex.Call) and expr.name == "get" and len(expr.args) == 2 and \
            isinstance(expr.args[1], ex.Literal) and isinstance(expr.args[1].value, str):
        base = _field_path(expr.args[0])
        return None if base is None else base + (expr.args[1].value,)
    return None


def _paths(expr: ex.Expr) -> Set[Path]:
    """The input fields ``expr`` reads."""
    path = _field_path(expr)
    if path is not None:
        return {path}
    if not isinstance(expr, _PLAIN):
        return {EVERYTHING}
    return set().union(*[_paths(c) for c in expr.children()])
