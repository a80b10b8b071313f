"""Correlated sub-queries as joins (decorrelation).

A sub-query is correlated when its WHERE names a column of the query around it by that
query's table alias (``WHERE o.cid = c.cid`` inside ``FROM customers c WHERE EXISTS (...)``).
Its WHERE splits into the conjuncts that name outer columns (the correlation) and the others.
The sub-query without the correlation selects the inner columns the correlation reads, as
``__corr0``, ``__corr1``, ...; the correlation, over those and the outer columns, becomes the
condition of a join:

* ``[NOT] EXISTS`` and ``[NOT] IN``: a semi (anti) join on the correlation (and, for IN, the
  tested value); any correlation conjunct, equalities or not;
* a sub-query that aggregates (a scalar one, or ``IN (SELECT MAX(..) ...)``): the correlation
  must be equalities ``inner = outer``; the sub-query groups by their inner sides and joins
  its groups to the outer rows (a LEFT join for a scalar one: no group gives NULL, or 0 for a
  COUNT, as SQL says).

Other outer references (in the sub-query's select list, GROUP BY, HAVING, or nested deeper)
are refused with an ``UnsupportedFeatureError`` naming them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Set

from sqlglot import exp

from pystream.errors import UnsupportedFeatureError

CORR = "__corr"


@dataclass
class Correlation:
    """A correlated sub-query taken apart: ``query`` (the sub-query without the correlation,
    selecting the correlation's inner columns first as ``<prefix><i>``, then its own select
    list), ``condition`` (the correlation over outer columns and those), ``keys`` (their
    number) and ``grouped`` (the sub-query aggregates per key; its condition is then
    equalities)."""

    query: exp.Select
    condition: exp.Expression
    keys: int
    grouped: bool


def decorrelate(query: exp.Expression, outer_qualifiers: Set[str],
                prefix: str = CORR) -> Optional[Correlation]:
    """``query`` taken apart, or None when it names no column of ``outer_qualifiers`` (the
    lower-cased table aliases of the query around it); its correlation columns are named
    ``<prefix><i>``."""
    if not isinstance(query, exp.Select):
        return None
    outer = {q for q in outer_qualifiers} - _own_qualifiers(query)

    def is_outer(column: exp.Column) -> bool:
        return bool(column.table) and column.table.lower() in outer

    if not any(is_outer(c) for c in query.find_all(exp.Column)):
        return None
    where = query.args.get("where")
    parts = conjuncts(where.this) if where is not None else []
    correlated = [c for c in parts if any(is_outer(col) for col in c.find_all(exp.Column))]
    others = [c for c in parts if not any(c is d for d in correlated)]
    rest = query.copy()
    rest.set("where", None)
    for c in others:
        rest = rest.where(c.copy(), copy=False)
    elsewhere = [c for c in rest.find_all(exp.Column) if is_outer(c)]
    if elsewhere:
        raise UnsupportedFeatureError(
            "a sub-query naming the outer column %s outside its WHERE conjuncts"
            % elsewhere[0].sql())
    grouped = _aggregates(query)
    if grouped and (query.args.get("group") is not None or query.args.get("having")):
        raise UnsupportedFeatureError("a correlated sub-query with GROUP BY or HAVING")
    inner: List[exp.Column] = []  # the inner columns the correlation reads, in order

    def corr_name(column: exp.Column) -> exp.Column:
        for i, seen in enumerate(inner):
            if seen == column:
                return exp.column("%s%d" % (prefix, i))
        inner.append(column.copy())
        return exp.column("%s%d" % (prefix, len(inner) - 1))

    condition: Optional[exp.Expression] = None
    for c in correlated:
        if grouped and not _equality(c, is_outer):
            raise UnsupportedFeatureError(
                "a correlated sub-query that aggregates, correlated by %s (only equalities "
                "between an inner and an outer column are)" % c.sql())
        rewritten = c.copy().transform(
            lambda node: corr_name(node) if isinstance(node, exp.Column) and not
            is_outer(node) else node)
        condition = rewritten if condition is None else exp.and_(condition, rewritten)
    keys = [exp.alias_(c, "%s%d" % (prefix, i)) for i, c in enumerate(inner)]
    rest.set("expressions", keys + [e.copy() for e in query.expressions])
    if grouped:
        rest.set("group", exp.Group(expressions=[c.copy() for c in inner]))
    return Correlation(rest, condition, len(inner), grouped)


def _own_qualifiers(query: exp.Select) -> Set[str]:
    """The lower-cased names and aliases of the tables in ``query``'s FROM and JOINs."""
    sources = []
    from_ = query.args.get("from_") or query.args.get("from")
    if from_ is not None:
        sources.append(from_.this)
    sources += [j.this for j in query.args.get("joins") or []]
    names = set()
    for s in sources:
        if s.alias_or_name:
            names.add(s.alias_or_name.lower())
    return names


def _aggregates(query: exp.Select) -> bool:
    return any(item.find(exp.AggFunc) is not None for item in query.expressions)


def _equality(node: exp.Expression, is_outer) -> bool:
    """``inner column = outer column`` (either way round)."""
    if not isinstance(node, exp.EQ):
        return False
    sides = [node.this, node.expression]
    return all(isinstance(s, exp.Column) for s in sides) and \
        sorted(bool(is_outer(s)) for s in sides) == [False, True]


def conjuncts(node: exp.Expression) -> List[exp.Expression]:
    """The ANDed parts of a condition."""
    if isinstance(node, exp.And):
        return conjuncts(node.this) + conjuncts(node.expression)
    if isinstance(node, exp.Paren):
        return conjuncts(node.this)
    return [node]
