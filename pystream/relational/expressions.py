"""Expression nodes: the frozen trees that ``pystream.table.expressions`` and Flink SQL build.

A node says what to compute, never how: ``Call('plus', (Column('a'), Literal(1, INT)))``.
Functions are named calls; ``pystream.relational.functions`` holds each name's type rule and
``pystream.compiler.relational`` its translation to a Spark column. A tree is *unresolved*
(``Column`` refers to a field by name) until ``resolve`` binds it to a table's fields, checking
names and deriving types on the way.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, Optional, Sequence, Tuple, Union

from pystream.common.data_types import DataType

__all__ = ["Expr", "Column", "Literal", "Call", "Alias", "Cast", "Star", "Symbol",
           "ColumnRange", "OverCall", "Ordering", "WindowRef", "SubQuery", "UserCall", "walk",
           "transform", "json_path_call"]


class Expr:
    """Base of expression nodes (frozen dataclasses; equal when their fields are equal)."""

    def children(self) -> Tuple["Expr", ...]:
        return ()


@dataclass(frozen=True)
class Column(Expr):
    """A field of the input table, by name."""

    name: str


@dataclass(frozen=True)
class Literal(Expr):
    """A constant and its type (``lit(1)`` is ``INT NOT NULL``)."""

    value: Any = field(hash=False)
    data_type: DataType


@dataclass(frozen=True)
class Call(Expr):
    """A built-in function applied to arguments; ``name`` is a key of ``functions.FUNCTIONS``."""

    name: str
    args: Tuple[Expr, ...] = ()
    distinct: bool = False  # aggregate functions: over distinct values

    def children(self):
        return self.args


@dataclass(frozen=True)
class Alias(Expr):
    """An expression given a name (several names for a function that returns several columns)."""

    expr: Expr
    names: Tuple[str, ...]

    def children(self):
        return (self.expr,)


@dataclass(frozen=True)
class Cast(Expr):
    """``CAST`` (``safe=False``: a value that does not convert fails the job) or ``TRY_CAST``."""

    expr: Expr
    to: DataType
    safe: bool = False

    def children(self):
        return (self.expr,)


def json_path_call(name: str, json: Expr, path: Union[str, Expr],
                   returning: Optional[DataType], behaviours: Sequence[Union[str, Expr]]
                   ) -> Call:
    """JSON_VALUE, JSON_QUERY (their ``returning`` type as a NULL of it) or JSON_EXISTS: a
    path given as text and each behaviour's name are keywords, a default value a node
    (``compiler.json_path_functions`` reads them)."""
    args = [json, Symbol(path) if isinstance(path, str) else path]
    if returning is not None:
        args.append(Literal(None, returning))
    args += [Symbol(b) if isinstance(b, str) else b for b in behaviours]
    return Call(name, tuple(args))


@dataclass(frozen=True)
class Star(Expr):
    """All fields of the input (``col('*')``; ``qualifier`` narrows to one side of a join)."""

    qualifier: Optional[str] = None


@dataclass(frozen=True)
class Symbol(Expr):
    """A keyword argument of a function: a time unit, ``BOTH``/``LEADING`` of TRIM, ..."""

    name: str


@dataclass(frozen=True)
class ColumnRange(Expr):
    """``range_(start, end)``: the fields from ``start`` to ``end`` (names or 1-based indices)."""

    start: Any
    end: Any


@dataclass(frozen=True)
class Ordering(Expr):
    """An ORDER BY key: ``col('a').asc`` / ``.desc`` (nulls first for ascending, as Flink)."""

    expr: Expr
    ascending: bool = True
    nulls_first: Optional[bool] = None

    def children(self):
        return (self.expr,)


@dataclass(frozen=True)
class WindowRef(Expr):
    """A window alias used in ``.over(alias)`` and ``w.start``/``w.end``/``w.rowtime``."""

    alias: str


@dataclass(frozen=True)
class OverCall(Expr):
    """An aggregate over a window: ``col('a').sum.over(col('w'))`` / SQL ``SUM(a) OVER (...)``.

    ``window`` is a ``WindowRef`` to an ``Over`` window defined with ``over_window(...)``, or an
    inline ``OverWindow`` (SQL).
    """

    agg: Expr
    window: Any

    def children(self):
        return (self.agg,)


@dataclass(frozen=True, eq=False)
class UserCall(Expr):
    """A call of a user-defined (Python) function object with arguments."""

    function: Any
    args: Tuple[Expr, ...] = ()

    def children(self):
        return self.args


@dataclass(frozen=True, eq=False)
class SubQuery(Expr):
    """``expr IN (query)`` (``kind`` 'in') or ``EXISTS (query)`` ('exists', ``expr`` None) or a
    scalar sub-query ('scalar'); ``query`` is a relational node. A correlated one has its
    ``correlation``: a condition over the outer row's columns and the query's first ones
    (the rest of its columns: the IN's values)."""

    kind: str
    expr: Optional[Expr]
    query: Any
    correlation: Optional[Expr] = None

    def children(self):
        return () if self.expr is None else (self.expr,)


def walk(expr: Expr):
    """``expr`` and every node below it, parents first."""
    yield expr
    for child in expr.children():
        yield from walk(child)


def transform(expr: Expr, fn) -> Expr:
    """``expr`` with ``fn`` applied to every node, children first (``fn`` returns the node
    to use, itself when unchanged)."""
    changes = {}
    for f in fields(expr):
        value = getattr(expr, f.name)
        if isinstance(value, Expr):
            new = transform(value, fn)
        elif isinstance(value, tuple) and value and all(isinstance(v, Expr) for v in value):
            new = tuple(transform(v, fn) for v in value)
        else:
            continue
        if new is not value:
            changes[f.name] = new
    return fn(replace(expr, **changes) if changes else expr)
