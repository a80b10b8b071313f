"""Flink SQL queries (sqlglot trees of the Flink dialect) -> relational nodes.

The translation builds through ``pystream.relational.build``, as the Table API does, so a
query and the Table program that says the same thing give the same tree. Names are resolved
in a ``Scope``: the visible (qualifier, name) pairs of the FROM clause and the unique field
each one is (a join renames a right-hand ``id`` that clashes to ``id0``, as Calcite does).
"""
from __future__ import annotations

import contextvars
import datetime
import functools
import re
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any, Callable, Dict, List, Optional, Tuple

from sqlglot import exp

from pystream.common import type_rules
from pystream.common.data_types import DataTypes
from pystream.errors import UnsupportedFeatureError
from pystream.relational import build, constants, functions
from pystream.relational import expressions as ex
from pystream.relational import operations as ops
from pystream.relational.catalog import view_not_enriched
from pystream.relational.resolve import aggregate_calls, output_name
from pystream.relational.schema import Schema
from pystream.sql import hints
from pystream.sql.correlation import conjuncts, decorrelate
from pystream.sql.dialect import Flink, JsonPathCall, LateralTable, WindowTVF, to_sql
from pystream.sql.parse import parse_expression
from pystream.sql.types import data_type_from_sql
from pystream.util.exceptions import SqlParserException, TableException, ValidationException

__all__ = ["Scope", "query_to_rel", "expression_from_sql", "to_expr"]


@dataclass
class Scope:
    """The fields a query block can name: (qualifier, visible name, field of ``rel``)."""

    rel: ops.Rel
    columns: List[Tuple[Optional[str], str, str]]
    window: Optional[ops.GroupWindow] = None  # the window of a window TVF in FROM

    @staticmethod
    def of(rel: ops.Rel, qualifier: Optional[str]) -> "Scope":
        return Scope(rel, [(qualifier, n, n) for n in rel.schema.names])

    def window_property(self, name: str) -> Optional[ex.Expr]:
        """window_start / window_end / window_time of the window TVF in FROM."""
        prop = TVF_COLUMNS.get(name.lower())
        if self.window is None or prop is None or any(
                n.lower() == name.lower() for _, n, _ in self.columns):
            return None
        return ex.Call(prop, (ex.WindowRef(self.window.alias),))

    def resolve(self, qualifier: Optional[str], name: str) -> str:
        matches = [field for q, n, field in self.columns
                   if n.lower() == name.lower() and (qualifier is None
                                                     or (q or "").lower() == qualifier.lower())]
        if len(matches) == 1:
            return matches[0]
        where = "%s.%s" % (qualifier, name) if qualifier else name
        if not matches:
            known = ", ".join(sorted({n for _, n, _ in self.columns}))
            raise ValidationException(
                "Column '%s' not found in any table. Available columns: [%s]." % (where, known))
        raise ValidationException("Column '%s' is ambiguous." % where)

    def has_qualifier(self, qualifier: str) -> bool:
        """Whether a table of the FROM clause is called ``qualifier``."""
        return any((q or "").lower() == qualifier.lower() for q, _, _ in self.columns)

    def has_column(self, name: str) -> bool:
        return any(n.lower() == name.lower() for _, n, _ in self.columns)

    def visible(self, qualifier: Optional[str] = None) -> List[Tuple[str, str]]:
        """What ``*`` (or ``q.*``) stands for: not the values of scalar sub-queries."""
        return [(n, field) for q, n, field in self.columns
                if q != SCALAR and (qualifier is None or (q or "").lower() == qualifier.lower())]


SCALAR = "$scalar"  # the qualifier of a scalar sub-query's value joined to a query block


def expression_from_sql(text: str) -> ex.Expr:
    """An expression in Flink SQL over unqualified field names (``call_sql``, computed
    columns, string arguments of Table methods)."""
    return to_expr(parse_expression(text), None)


# The functions registered in the environment of the query being translated (name -> wrapper)
_USER_FUNCTIONS: contextvars.ContextVar[Optional[Dict[str, Any]]] = contextvars.ContextVar(
    "user_functions", default=None)
# and its current database (CURRENT_DATABASE())
_CURRENT_DATABASE: contextvars.ContextVar[Optional[str]] = contextvars.ContextVar(
    "current_database", default=None)


def query_to_rel(t_env, node: exp.Expression, ctes: Optional[Dict[str, ops.Rel]] = None
                 ) -> ops.Rel:
    """The relational tree of a query (SELECT, set operation, VALUES, WITH); calls of the
    functions registered in ``t_env`` are calls of those functions."""
    token = _USER_FUNCTIONS.set(dict(getattr(t_env, "_functions", {})))
    database = _CURRENT_DATABASE.set(t_env.get_current_database())
    try:
        return _query_to_rel(t_env, node, ctes)
    finally:
        _CURRENT_DATABASE.reset(database)
        _USER_FUNCTIONS.reset(token)


def _query_to_rel(t_env, node: exp.Expression, ctes: Optional[Dict[str, ops.Rel]] = None
                  ) -> ops.Rel:
    ctes = dict(ctes or {})
    with_ = node.args.get("with_") or node.args.get("with")
    if with_ is not None:
        for cte in with_.expressions:
            ctes[cte.alias_or_name.lower()] = _query_to_rel(t_env, cte.this, ctes)
    if isinstance(node, exp.Subquery):
        return _query_to_rel(t_env, node.this, ctes)
    if isinstance(node, (exp.Union, exp.Intersect, exp.Except)):
        left = _query_to_rel(t_env, node.this, ctes)
        right = _query_to_rel(t_env, node.expression, ctes)
        kind = {exp.Union: "union", exp.Intersect: "intersect", exp.Except: "minus"}[type(node)]
        rel = build.set_op(left, right, kind, all=not node.args.get("distinct", True))
        return _order_and_limit(rel, node, Scope.of(rel, None))
    if isinstance(node, exp.Values):
        return _values(node)
    if isinstance(node, exp.Select):
        return _select(t_env, node, ctes)
    raise UnsupportedFeatureError("the SQL construct %s" % type(node).__name__.upper())


def _values(node: exp.Values) -> ops.Rel:
    """Rows of constants (literals, ``TIMESTAMP '...'``, ``-3``, exact casts) whose values
    the columns' common types hold exactly are a Values node; otherwise (``1 + 1``,
    ``UPPER('c')``) each row is a projection of one row, cast to the common types, and the
    rows are united."""
    rows = []
    for tup in node.expressions:
        rows.append(tuple(constants.as_literal(to_expr(e, None)) for e in tup.expressions))
    width = len(rows[0])
    if any(len(r) != width for r in rows):
        raise ValidationException("Values passed to VALUES operator must have compatible "
                                  "types: each row needs %d values" % width)
    names = node.alias_column_names or ["EXPR$%d" % i for i in range(width)]
    if all(isinstance(v, ex.Literal) for r in rows for v in r):
        types = [type_rules.common_type([r[i].data_type for r in rows]) for i in range(width)]
        values = [[constants.converted(v, t) for v, t in zip(r, types)] for r in rows]
        if all(v is not None for r in values for v in r):
            return ops.Values(schema=Schema.of(names, types),
                              rows=tuple(tuple(v.value for v in r) for r in values))
    one = ops.Values(schema=Schema.of(["__one"], [DataTypes.INT()]), rows=((1,),))
    types = [type_rules.common_type([build.type_of(r[i], one.schema) for r in rows])
             for i in range(width)]
    united = None
    for position, row in enumerate(rows):
        exprs = [ex.Alias(v if build.type_of(v, one.schema) == t else ex.Cast(v, t), (n,))
                 for v, t, n in zip(row, types, names)]
        rel = build.project(replace(one, position=position), exprs)
        united = rel if united is None else build.set_op(united, rel, "union", all=True)
    return united


def _from(t_env, node: exp.Expression, ctes) -> Scope:
    """The scope of one FROM item (a table, a sub-query, a join...)."""
    if isinstance(node, exp.Table):
        name = node.name
        qualifier = node.alias or name
        parts = [p.name for p in node.parts] if hasattr(node, "parts") else [name]
        key = ".".join(parts)
        options = dynamic_options(t_env, node)
        if key.lower() in ctes:
            if options is not None:
                raise view_not_enriched(key)
            rel = ctes[key.lower()]
        else:
            rel = t_env.scan_internal(key, options)
        scope = Scope.of(rel, qualifier)
        aliases = node.args.get("alias")
        if aliases is not None and aliases.columns:
            names = [c.name for c in aliases.columns]
            rel = build.rename_all(rel, names)
            scope = Scope.of(rel, qualifier)
        return scope
    if isinstance(node, exp.Subquery):
        rel = _query_to_rel(t_env, node.this, ctes)
        alias = node.args.get("alias")
        if alias is not None and alias.columns:
            rel = build.rename_all(rel, [c.name for c in alias.columns])
        return Scope.of(rel, node.alias or None)
    if isinstance(node, exp.Values):
        return Scope.of(_values(node), node.alias or None)
    if isinstance(node, WindowTVF):
        return _window_tvf(t_env, node, ctes)
    raise UnsupportedFeatureError("the FROM item %s" % to_sql(node)[:60])


TVF_COLUMNS = {"window_start": "window_start", "window_end": "window_end",
               "window_time": "window_rowtime"}
TVF_KINDS = {"TUMBLE": "tumble", "HOP": "slide", "SESSION": "session",
             "CUMULATE": "cumulate"}
TVF_ALIAS = "$tvf"


def _window_tvf(t_env, node: WindowTVF, ctes) -> Scope:
    """TABLE(TUMBLE/HOP/SESSION(TABLE t, DESCRIPTOR(ts), ...)): the input's columns plus
    window_start, window_end and window_time, which a GROUP BY on window_start and
    window_end aggregates per window (one final row per window, as Flink emits them)."""
    kind = TVF_KINDS.get(node.name)
    if kind is None:
        raise UnsupportedFeatureError("the window table function %s (TUMBLE, HOP, CUMULATE "
                                      "and SESSION are built)" % node.name)
    if node.args.get("partition_by"):
        raise UnsupportedFeatureError("SESSION windows with PARTITION BY in a window TVF")
    scope = _from(t_env, node.args["table"], ctes)
    column = node.args["time_col"]
    time_field = scope.resolve(column.table or None, column.name)
    millis = [int(_interval(i).value / datetime.timedelta(milliseconds=1))
              for i in node.args["intervals"]]
    two = {"slide": "a slide and a size", "cumulate": "a step and a max size"}
    if len(millis) != (2 if kind in two else 1):
        raise ValidationException("%s takes %s." % (node.name, two.get(kind, "one interval")))
    if kind == "tumble":
        sizes = {"size": millis[0]}
    elif kind in two:
        if kind == "cumulate" and millis[1] % millis[0]:
            raise ValidationException("CUMULATE's max size must be a multiple of its step.")
        sizes = {"slide": millis[0], "size": millis[1]}
    else:
        sizes = {"gap": millis[0]}
    window = ops.GroupWindow(kind=kind, time_field=time_field, alias=TVF_ALIAS, **sizes)
    return Scope(scope.rel, scope.columns, window)


def _join_scopes(left: Scope, right: Scope, kind: str, condition: Optional[exp.Expression],
                 as_of: Optional[exp.Expression] = None) -> Scope:
    """The scope of ``left JOIN right ON condition`` (``FOR SYSTEM_TIME AS OF as_of``: a
    temporal or lookup join, ``as_of`` a time attribute of the left side)."""
    taken = set(left.rel.schema.names)
    renames = {}
    for n in right.rel.schema.names:
        new, i = n, 0
        while new in taken:
            new, i = "%s%d" % (n, i), i + 1
        renames[n] = new
        taken.add(new)
    right_rel = right.rel
    if any(k != v for k, v in renames.items()):
        right_rel = build.rename_all(right.rel, [renames[n] for n in right.rel.schema.names])
    columns = left.columns + [(q, n, renames[f]) for q, n, f in right.columns]
    scope = Scope(left.rel, columns)
    predicate = None if condition is None else to_expr(condition, scope)
    if as_of is None:
        return Scope(build.join(left.rel, right_rel, kind, predicate), columns)
    time = to_expr(as_of, left)
    if not isinstance(time, ex.Column):
        raise ValidationException("FOR SYSTEM_TIME AS OF takes a time attribute of the left "
                                  "table, not %s." % to_sql(as_of))
    return Scope(build.temporal_join(left.rel, right_rel, kind, predicate, time.name), columns)


def _lateral(scope: Scope, node: LateralTable, kind: str,
             condition: Optional[exp.Expression]) -> Scope:
    """``, LATERAL TABLE(f(x)) AS T(a, b)`` (or ``LEFT JOIN ... ON TRUE``): each row joined
    with the rows the table function gives for it."""
    call = to_expr(node.this, scope)
    if not (isinstance(call, ex.UserCall) and getattr(call.function, "is_table_function",
                                                      False)):
        raise ValidationException("LATERAL TABLE takes a registered table function (udtf), "
                                  "not %s." % to_sql(node.this))
    alias = node.args.get("alias")
    names = tuple(c.name for c in alias.columns) if alias is not None and alias.columns \
        else ()
    rel = build.correlate(scope.rel, ex.Alias(call, names) if names else call, kind)
    qualifier = alias.name if alias is not None and alias.name else None
    added = [(qualifier, n, n) for n in rel.schema.names[len(scope.rel.schema):]]
    if condition is not None and not (isinstance(condition, exp.Boolean) and
                                      condition.this is True):
        raise UnsupportedFeatureError("a LATERAL TABLE join condition other than ON TRUE")
    return Scope(rel, scope.columns + added, scope.window)


def _unnest(scope: Scope, node: exp.Unnest, kind: str,
            condition: Optional[exp.Expression]) -> Scope:
    """``CROSS JOIN UNNEST(arr) [WITH ORDINALITY] AS t(e [, n])`` (``LEFT JOIN ... ON
    TRUE``): each row joined with the elements of an array, multiset or map it holds."""
    if len(node.expressions) != 1:
        raise UnsupportedFeatureError("UNNEST of more than one collection")
    if condition is not None and not (isinstance(condition, exp.Boolean) and
                                      condition.this is True):
        raise ValidationException("A join with UNNEST takes ON TRUE, not %s."
                                  % to_sql(condition))
    alias = node.args.get("alias")
    names = [c.name for c in alias.columns] if alias is not None and alias.columns else []
    ordinality = node.args.get("offset")
    if isinstance(ordinality, exp.Identifier):
        names.append(ordinality.name)
    rel = build.unnest(scope.rel, to_expr(node.expressions[0], scope), names, kind,
                       ordinality=bool(ordinality))
    qualifier = alias.name if alias is not None and alias.name else None
    added = [(qualifier, n, n) for n in rel.schema.names[len(scope.rel.schema):]]
    return Scope(rel, scope.columns + added, scope.window)


JOIN_KINDS = {"": "inner", "INNER": "inner", "LEFT": "left", "RIGHT": "right", "FULL": "full",
              "CROSS": "inner"}


def dynamic_options(t_env, table: exp.Table) -> Optional[Dict[str, str]]:
    """The options the hints after ``table``'s name add for this statement (None: none)."""
    enabled = str(t_env.get_config().get("table.dynamic-table-options.enabled", "true"))
    return hints.dynamic_options(hints.table_hints(table), enabled.lower() != "false")


def _check_hints(node: exp.Select, from_) -> None:
    """Flink's checks of the query block's hints (``hints.check_query_hints``)."""
    found = hints.query_hints(node)
    if not found:
        return
    items = ([from_.this] if from_ is not None else []) + \
        [j.this for j in node.args.get("joins") or []]
    inputs = {i.alias_or_name for i in items}
    aggregates = node.args.get("group") is not None or any(
        e.find(exp.AggFunc) is not None for e in node.expressions)
    hints.check_query_hints(found, inputs, bool(node.args.get("joins")), aggregates)


def _select(t_env, node: exp.Select, ctes) -> ops.Rel:
    node = _with_named_windows(node)
    from_ = node.args.get("from_") or node.args.get("from")
    _check_hints(node, from_)
    if from_ is None:
        scope = Scope.of(ops.Values(schema=_one_row_schema(), rows=((0,),)), None)
        scope.columns = []
    else:
        if from_.this.args.get("version") is not None:
            raise ValidationException("FOR SYSTEM_TIME AS OF belongs to the right-hand table "
                                      "of a JOIN (a temporal or lookup join).")
        scope = _from(t_env, from_.this, ctes)
    if node.args.get("match") is not None:
        scope = _match_recognize(scope, node.args["match"])
    for join in node.args.get("joins") or []:
        side = (join.side or join.kind or "").upper()
        if isinstance(join.this, LateralTable):
            scope = _lateral(scope, join.this, "left" if side == "LEFT" else "inner",
                             join.args.get("on"))
            continue
        if isinstance(join.this, exp.Unnest):
            scope = _unnest(scope, join.this, "left" if side == "LEFT" else "inner",
                            join.args.get("on"))
            continue
        right = _from(t_env, join.this, ctes)
        if side in ("SEMI", "ANTI"):
            raise UnsupportedFeatureError("SEMI/ANTI join syntax")
        version = join.this.args.get("version") if isinstance(join.this, exp.Table) else None
        if version is not None and (version.name != "TIMESTAMP" or
                                    version.text("kind").upper() != "AS OF"):
            raise UnsupportedFeatureError("FOR SYSTEM_TIME %s" % to_sql(version)[:40])
        scope = _join_scopes(scope, right, JOIN_KINDS.get(side, "inner"), join.args.get("on"),
                             version.expression if version is not None else None)
    group = node.args.get("group")
    if scope.window is not None and not _groups_by_window(group):
        scope = _window_table(scope)
    where = node.args.get("where")
    rel = scope.rel
    if where is not None:
        rel, scope = _scalar_subqueries(t_env, [where.this], rel, scope, ctes)
        rel = _where(t_env, rel, where.this, scope)
        scope = Scope(rel, scope.columns, scope.window)
    for item in list(node.expressions):
        _exists_as_count(item)
        _in_as_counts(item, _qualifiers(scope))
    rel, scope = _scalar_subqueries(t_env, list(node.expressions), rel, scope, ctes)
    items = _select_items(node, scope)
    having = node.args.get("having")
    exprs = [e for e, _ in items]
    window = _legacy_group_window(group, scope)
    if window is not None:
        keys = [to_expr(k, scope) for k in group.expressions if not _is_window_call(k)]
        rel = build.window_aggregate(rel, window, keys, exprs, sql=True)
    elif scope.window is not None:
        rel = _window_tvf_aggregate(rel, scope, group, exprs)
    elif group is not None and any(isinstance(k, GROUPINGS) for k in group.expressions):
        sets = [[to_expr(k, scope) for k in keys] for keys in _grouping_sets(group)]
        having_expr = to_expr(having.this, scope) if having is not None else None
        rel = build.grouping_sets(rel, sets, exprs, sql=True, having=having_expr)
    elif group is not None or having is not None or any(aggregate_calls(e) for e in exprs):
        keys = [to_expr(k, scope) for k in (group.expressions if group is not None else [])]
        having_expr = to_expr(having.this, scope) if having is not None else None
        rel = build.aggregate(rel, keys, exprs, sql=True, having=having_expr)
    else:
        hidden = _hidden_order_keys(node, scope, [name for _, name in items])
        if hidden and node.args.get("distinct") is None:
            # ORDER BY fields the select list leaves out: carried to the sort, then dropped
            rel = build.project(rel, exprs + [ex.Alias(e, (n,)) for n, e in hidden], sql=True)
            rel = _order_and_limit(rel, _with_hidden_keys(node, hidden), Scope.of(rel, None))
            return build.project(rel, [ex.Column(name) for _, name in items], sql=True)
        rel = build.project(rel, exprs, sql=True)
    if node.args.get("distinct") is not None:
        rel = build.distinct(rel)
    return _order_and_limit(rel, node, Scope.of(rel, None), scope)


def _hidden_order_keys(node: exp.Select, scope: Scope,
                       names: List[str]) -> List[Tuple[str, ex.Expr]]:
    """The ORDER BY keys that name no output column but fields of the FROM clause, each
    with a hidden name: [("$order0", expression), ...]."""
    order = node.args.get("order")
    if order is None:
        return []
    visible = {n.lower() for n in names}
    hidden = []
    for o in order.expressions:
        columns = [c for c in o.this.find_all(exp.Column) if not isinstance(c.this, exp.Star)]
        if isinstance(o.this, exp.Literal) or not columns or all(
                c.name.lower() in visible and not c.table for c in columns):
            continue
        hidden.append(("$order%d" % len(hidden), to_expr(o.this, scope)))
    return hidden


def _with_hidden_keys(node: exp.Select, hidden: List[Tuple[str, ex.Expr]]) -> exp.Select:
    """``node`` whose ORDER BY names the hidden columns in place of the keys they carry."""
    node = node.copy()
    names = iter(name for name, _ in hidden)
    visible = {e.alias_or_name.lower() for e in node.expressions}
    for o in node.args["order"].expressions:
        columns = [c for c in o.this.find_all(exp.Column) if not isinstance(c.this, exp.Star)]
        if isinstance(o.this, exp.Literal) or not columns or all(
                c.name.lower() in visible and not c.table for c in columns):
            continue
        o.set("this", exp.column(next(names), quoted=True))
    return node


PATTERN_ELEMENT = re.compile(
    r"\s*([A-Za-z_][A-Za-z_0-9]*)\s*(\*|\+|\?|\{\s*(\d*)\s*(,\s*(\d*))?\s*\})?(\?)?")
AGGREGATE_NODES = {exp.Sum: "sum", exp.Avg: "avg", exp.Count: "count", exp.Min: "min",
                   exp.Max: "max"}


def _match_recognize(scope: Scope, node: exp.MatchRecognize) -> Scope:
    """``FROM t MATCH_RECOGNIZE (...)``: one row per match of the pattern in each partition:
    the partition fields, then the measures (``pystream.runtime.matching`` finds them)."""
    rows = node.args.get("rows")
    if rows is not None and rows.name.upper() != "ONE ROW PER MATCH":
        raise UnsupportedFeatureError("MATCH_RECOGNIZE with %s (ONE ROW PER MATCH is built)"
                                      % rows.name)
    pattern = _pattern(node.args["pattern"].name if node.args.get("pattern") else "")
    variables = {v for v, _, _, _ in pattern}
    keys = [scope.resolve(p.table or None, p.name) for p in node.args.get("partition_by") or []]
    order = [ex.Ordering(to_expr(o.this, scope), not o.args.get("desc"), None)
             for o in (node.args["order"].expressions if node.args.get("order") else [])]
    if not order or not (isinstance(order[0].expr, ex.Column) and order[0].ascending and (
            scope.rel.schema.field(order[0].expr.name).time is not None)):
        raise TableException("You must specify either rowtime or proctime for order by as "
                             "the first one.")
    defines = []
    for d in node.args.get("define") or []:
        if d.alias.upper() not in {v.upper() for v in variables}:
            raise ValidationException("Unknown pattern variable '%s' in DEFINE." % d.alias)
        defines.append((next(v for v in variables if v.upper() == d.alias.upper()),
                        _pattern_expr(d.this, scope, variables, order[0].expr.name,
                                      defining=d.alias)))
    measures = []
    for m in node.args.get("measures") or []:
        item = m.this
        if not isinstance(item, exp.Alias):
            raise ValidationException("A MATCH_RECOGNIZE measure needs a name (AS ...).")
        measures.append(ex.Alias(_pattern_expr(item.this, scope, variables,
                                               order[0].expr.name), (item.alias,)))
    within = node.args.get("within")
    after = node.args.get("after")
    rel = build.match_recognize(
        scope.rel, keys, order, pattern, defines, measures,
        after=after.name if after is not None else "TO NEXT ROW",
        within_ms=int(_interval(within).value / datetime.timedelta(milliseconds=1))
        if within is not None else None)
    alias = node.args.get("alias")
    return Scope.of(rel, alias.name if alias is not None and alias.name else None)


def _pattern(text: str) -> Tuple[Tuple[str, int, Optional[int], bool], ...]:
    """``A B+ C{1,3}? D*`` as (variable, min, max or None, greedy) per element."""
    elements, position = [], 0
    text = text.strip()
    if not text:
        raise SqlParserException("MATCH_RECOGNIZE needs a PATTERN.")
    if any(c in text for c in "()|^$"):
        raise UnsupportedFeatureError("groups, alternatives and anchors in a MATCH_RECOGNIZE "
                                      "PATTERN (%s): sequences of variables are built" % text)
    while position < len(text):
        found = PATTERN_ELEMENT.match(text, position)
        if found is None or found.end() == position:
            raise SqlParserException(
                "The pattern (%s) does not parse at '%s': a pattern is variables with "
                "quantifiers (*, +, ?, {n}, {n,}, {n,m}, reluctant with a trailing ?)"
                % (text, text[position:position + 10]))
        name, quantifier, low, comma, high, reluctant = found.groups()
        least, most = 1, 1
        if quantifier == "*":
            least, most = 0, None
        elif quantifier == "+":
            least, most = 1, None
        elif quantifier == "?":
            least, most = 0, 1
        elif quantifier:
            least = int(low or 0)
            most = (int(high) if high else None) if comma else least
        elements.append((name, least, most, not reluctant))
        position = found.end()
        while position < len(text) and text[position].isspace():
            position += 1
    return tuple(elements)


def _pattern_expr(node: exp.Expression, scope: Scope, variables, time_field: str,
                  defining: Optional[str] = None) -> ex.Expr:
    """A DEFINE (of variable ``defining``) or MEASURES expression: ``A.price`` (A's last
    row), ``FIRST/LAST(A.price, n)``, ``PREV(price [, n])`` (the row n before, in the match),
    ``MATCH_ROWTIME()``, aggregates over a variable's rows, over the input's fields. Each
    variable reference becomes a column of a scope of its own (so types resolve as usual),
    then the call ``pystream.runtime.matching`` evaluates. PREV's limits are Flink's."""
    by_upper = {v.upper(): v for v in variables}
    fields: Dict[str, Tuple[str, str, str, int]] = {}  # synthetic name -> reference

    def reference(column: exp.Column, kind: str, offset: int = 0) -> exp.Column:
        qualifier = column.table or ""
        variable = by_upper.get(qualifier.upper(), "*" if not qualifier else None)
        if variable is None:
            raise ValidationException("Unknown pattern variable '%s'." % qualifier)
        field = scope.resolve(None, column.name)
        name = "$mr%d" % len(fields)
        fields[name] = (kind, variable, field, offset)
        return exp.column(name, quoted=True)

    def rewrite(n: exp.Expression, inside: Optional[str] = None) -> exp.Expression:
        if isinstance(n, exp.Anonymous) and n.name.upper() in ("PREV", "NEXT"):
            if defining is None:
                raise ValidationException("Cannot use PREV/NEXT in MEASURE '%s'" % to_sql(n))
            args = n.expressions
            if n.name.upper() == "NEXT" or not args or not isinstance(args[0], exp.Column) or \
                    (args[0].table or "").upper() == defining.upper():
                raise TableException("Flink does not support physical offsets within "
                                     "partition.")
            return reference(args[0], "prev", int(args[1].name) if len(args) > 1 else 1)
        if isinstance(n, exp.Anonymous) and n.name.upper() == "MATCH_ROWTIME":
            return reference(exp.column(time_field), "last")
        if isinstance(n, exp.Anonymous) and n.name.upper() in ("FIRST", "LAST"):
            args = n.expressions
            if not args or not isinstance(args[0], exp.Column):
                raise ValidationException("%s takes a pattern variable's field." % n.name)
            offset = int(args[1].name) if len(args) > 1 else 0
            return reference(args[0], n.name.lower(), offset)
        if type(n) in AGGREGATE_NODES:
            return n.transform(lambda c: reference(c, "row") if isinstance(c, exp.Column)
                               and not isinstance(c.this, exp.Star) else c, copy=True)
        if isinstance(n, exp.Column):
            return reference(n, "last")
        return n

    rewritten = node.copy().transform(rewrite)
    references = Schema(tuple(replace(scope.rel.schema.field(field), name=name)
                              for name, (_, _, field, _) in fields.items()))
    synthetic = Scope(ops.Values(schema=references, rows=()),
                      [(None, name, name) for name in fields])
    return _pattern_calls(to_expr(rewritten, synthetic), fields)


def _pattern_calls(expr: ex.Expr, fields) -> ex.Expr:
    """The synthetic columns of ``_pattern_expr`` as the calls the matcher evaluates."""
    if isinstance(expr, ex.Column) and expr.name in fields:
        kind, variable, field, offset = fields[expr.name]
        if kind == "row":
            return ex.Column(field)
        return ex.Call(kind, (ex.Symbol(variable), ex.Column(field),
                              ex.Literal(offset, DataTypes.INT().not_null())))
    if isinstance(expr, ex.Call) and expr.name in ("sum", "avg", "count", "min", "max"):
        found = {fields[c.name][1] for a in expr.args for c in ex.walk(a)
                 if isinstance(c, ex.Column) and c.name in fields}
        if len(found) > 1:
            raise ValidationException("An aggregate in MATCH_RECOGNIZE reads one pattern "
                                      "variable, not %s." % ", ".join(sorted(found)))
        variable = found.pop() if found else "*"
        return ex.Call(expr.name, tuple(
            ex.Call("pattern_rows", (ex.Symbol(variable), _pattern_calls(a, fields)))
            for a in expr.args), expr.distinct)
    if isinstance(expr, ex.Call):
        return ex.Call(expr.name, tuple(_pattern_calls(a, fields) for a in expr.args),
                       expr.distinct)
    if isinstance(expr, ex.Alias):
        return ex.Alias(_pattern_calls(expr.expr, fields), expr.names)
    if isinstance(expr, ex.Cast):
        return ex.Cast(_pattern_calls(expr.expr, fields), expr.to, expr.safe)
    return expr


def _scalar_subqueries(t_env, roots: List[exp.Expression], rel: ops.Rel, scope: Scope,
                       ctes) -> Tuple[ops.Rel, Scope]:
    """Each scalar sub-query in ``roots`` joined to every row and read as a column: an
    uncorrelated one computed once (NULL when it has no row); a correlated one grouped by
    its correlation's inner columns and LEFT-joined on it (``sql.correlation``; a COUNT
    of no rows is 0)."""
    for root in roots:
        for subquery in _scalar_subquery_nodes(root):
            n = sum(1 for q, _, f in scope.columns if q == SCALAR and "_corr" not in f)
            name = "__scalar%d" % n
            correlation = decorrelate(subquery.this, _qualifiers(scope), name + "_corr")
            query = subquery.this if correlation is None else correlation.query
            value = _query_to_rel(t_env, query, ctes)
            keys = correlation.keys if correlation is not None else 0
            if len(value.schema) != keys + 1:
                raise ValidationException("A scalar sub-query gives one column, not %d."
                                          % (len(value.schema) - keys))
            if correlation is not None and not correlation.grouped:
                raise UnsupportedFeatureError(
                    "a correlated scalar sub-query without an aggregate (%s)"
                    % to_sql(subquery)[:60])
            names = list(value.schema.names[:keys]) + [name]
            value = build.rename_all(value, names)
            columns = scope.columns + [(SCALAR, n_, n_) for n_ in names]
            condition = None if correlation is None else \
                to_expr(correlation.condition, Scope(rel, columns))
            rel = build.join(rel, value, "left", condition)
            scope = Scope(rel, columns, scope.window)
            column: exp.Expression = exp.column(name, table=SCALAR)
            item = subquery.this.expressions[0] if isinstance(subquery.this, exp.Select) \
                else None
            if correlation is not None and isinstance(item, exp.Count):
                column = exp.Coalesce(this=column, expressions=[exp.Literal.number(0)])
            subquery.replace(column)
    return rel, scope


def _exists_as_count(root: exp.Expression) -> None:
    """Rewrites, in place, each ``EXISTS (SELECT ... FROM ... WHERE ...)`` in ``root`` (a
    select item: a WHERE clause's is a semi join) as ``(SELECT COUNT(*) FROM ... WHERE ...)
    > 0``: a scalar sub-query, correlated or not. A query with grouping, DISTINCT, LIMIT or
    a set operation stays as it is (refused)."""
    for node in list(root.find_all(exp.Exists)):
        query = node.this.this if isinstance(node.this, exp.Subquery) else node.this
        if not isinstance(query, exp.Select) or any(
                query.args.get(k) for k in ("group", "having", "distinct", "limit", "offset")):
            continue
        node.replace(exp.GT(this=_counted(query), expression=exp.Literal.number(0)))


def _in_as_counts(root: exp.Expression, outer: set) -> None:
    """Rewrites, in place, each ``x IN (SELECT y FROM ... WHERE c)`` in ``root`` (a select
    item: a WHERE clause's is a semi join) as scalar sub-queries that count, with SQL's
    three-valued answer: TRUE if a row has ``y = x``; else FALSE if there are no rows; else
    NULL if ``x`` or some ``y`` is NULL; else FALSE. ``x`` is correlated through the one
    table name of the outer query (``outer``); other shapes stay as they are (refused)."""
    for node in list(root.find_all(exp.In)):
        query = node.args.get("query")
        query = query.this if isinstance(query, exp.Subquery) else query
        inner = {t.alias_or_name.lower() for t in query.find_all(exp.Table)} \
            if isinstance(query, exp.Select) else set()
        if not isinstance(query, exp.Select) or len(query.expressions) != 1 \
                or len(outer) != 1 or outer & inner or any(
                query.args.get(k) for k in ("group", "having", "distinct", "limit", "offset")):
            continue
        value = node.this.copy()
        for column in value.find_all(exp.Column):
            if not column.table:
                column.set("table", exp.to_identifier(next(iter(outer))))
        item = query.expressions[0]
        item = item.this if isinstance(item, exp.Alias) else item

        count = functools.partial(_counted, query)
        null = exp.Cast(this=exp.Null(), to=exp.DataType.build("BOOLEAN"))
        node.replace(exp.Case(ifs=[
            exp.If(this=exp.GT(this=count(exp.EQ(this=item.copy(), expression=value)),
                               expression=exp.Literal.number(0)), true=exp.true()),
            exp.If(this=exp.EQ(this=count(), expression=exp.Literal.number(0)),
                   true=exp.false()),
            exp.If(this=exp.or_(exp.Is(this=node.this.copy(), expression=exp.Null()),
                                exp.GT(this=count(exp.Is(this=item.copy(),
                                                         expression=exp.Null())),
                                       expression=exp.Literal.number(0))), true=null),
        ], default=exp.false()))


def _counted(query: exp.Select, condition: Optional[exp.Expression] = None) -> exp.Subquery:
    """``(SELECT COUNT(*) FROM ... WHERE ... [AND condition])`` of ``query``."""
    counted = query.copy()
    counted.set("expressions", [exp.Count(this=exp.Star())])
    if condition is not None:
        counted = counted.where(condition, copy=False)
    return exp.Subquery(this=counted)


def _scalar_subquery_nodes(root: exp.Expression) -> List[exp.Subquery]:
    """The scalar sub-queries in ``root`` (not those of IN and EXISTS, nor those inside
    another sub-query)."""
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        if isinstance(node, exp.Subquery) and not isinstance(node.parent, (exp.In, exp.Exists)):
            found.append(node)
            continue
        if node is not root and isinstance(node, (exp.Subquery, exp.Exists, exp.Select)):
            continue
        stack.extend(reversed(list(node.iter_expressions())))
    return found


def _qualifiers(scope: Scope) -> set:
    """The lower-cased table aliases a query block's columns are named by."""
    return {q.lower() for q, _, _ in scope.columns if q and q != SCALAR}


GROUPINGS = (exp.GroupingSets, exp.Rollup, exp.Cube)


def _grouping_sets(group: exp.Group) -> List[List[exp.Expression]]:
    """The sets of keys a GROUP BY with GROUPING SETS, ROLLUP or CUBE groups by: every
    combination of one set of each, with the plain keys in all."""
    sets: List[List[exp.Expression]] = [[]]
    for item in group.expressions:
        if isinstance(item, exp.GroupingSets):
            choices = [list(s.expressions) if isinstance(s, exp.Tuple) else
                       [s.this] if isinstance(s, exp.Paren) else [s]
                       for s in item.expressions]
        elif isinstance(item, exp.Rollup):
            keys = list(item.expressions)
            choices = [keys[:n] for n in range(len(keys), -1, -1)]
        elif isinstance(item, exp.Cube):
            keys = list(item.expressions)
            choices = [[k for i, k in enumerate(keys) if mask >> i & 1]
                       for mask in range(2 ** len(keys) - 1, -1, -1)]
        else:
            choices = [[item]]
        sets = [s + c for s in sets for c in choices]
    return sets


def _groups_by_window(group) -> bool:
    """Whether a GROUP BY names window_start and window_end (a window aggregate)."""
    names = {k.name.lower() for k in (group.expressions if group is not None else [])
             if isinstance(k, exp.Column)}
    return {"window_start", "window_end"} <= names


def _window_table(scope: Scope) -> Scope:
    """The window TVF in FROM as rows (window Top-N, deduplication and joins read them):
    its columns plus window_start, window_end and window_time."""
    if scope.window.kind == "session":
        raise UnsupportedFeatureError("a SESSION window TVF without GROUP BY window_start, "
                                      "window_end (Flink aggregates session windows only)")
    rel = build.window_table(scope.rel, scope.window)
    added = [(None, n, n) for n in rel.schema.names[len(scope.rel.schema):]]
    return Scope(rel, scope.columns + added)


def _window_tvf_aggregate(rel: ops.Rel, scope: Scope, group, exprs) -> ops.Rel:
    keys = [to_expr(k, scope) for k in group.expressions]
    keys = [k for k in keys if not (isinstance(k, ex.Call) and k.name in TVF_COLUMNS.values())]
    return build.window_aggregate(rel, scope.window, keys, exprs, sql=True)


LEGACY_WINDOWS = {"TUMBLE": "tumble", "HOP": "slide", "SESSION": "session"}
LEGACY_PROPERTIES = {"START": "window_start", "END": "window_end", "ROWTIME": "window_rowtime"}
LEGACY_ALIAS = "$window"


def _is_window_call(node: exp.Expression) -> bool:
    return isinstance(node, exp.Anonymous) and node.name.upper() in LEGACY_WINDOWS


def _legacy_group_window(group, scope: Scope) -> Optional[ops.GroupWindow]:
    """``GROUP BY TUMBLE(ts, INTERVAL '1' HOUR)`` (HOP: slide, size; SESSION: gap) as a group
    window; TUMBLE_START(...) and friends in the select list read its properties."""
    calls = [k for k in (group.expressions if group is not None else []) if _is_window_call(k)]
    if not calls:
        return None
    if len(calls) > 1:
        raise ValidationException("Only one group window is allowed in GROUP BY.")
    call = calls[0]
    kind = LEGACY_WINDOWS[call.name.upper()]
    time_column, *intervals = call.expressions
    millis = [int(_interval(i).value / datetime.timedelta(milliseconds=1)) for i in intervals]
    time_field = scope.resolve(time_column.table or None, time_column.name)
    if kind == "tumble":
        return ops.GroupWindow(kind=kind, time_field=time_field, alias=LEGACY_ALIAS,
                               size=millis[0])
    if kind == "slide":
        return ops.GroupWindow(kind=kind, time_field=time_field, alias=LEGACY_ALIAS,
                               slide=millis[0], size=millis[1])
    return ops.GroupWindow(kind=kind, time_field=time_field, alias=LEGACY_ALIAS, gap=millis[0])


def _legacy_window_property(name: str) -> Optional[ex.Expr]:
    """TUMBLE_START(ts, ...) -> the group window's start (also _END, _ROWTIME; HOP_, SESSION_)."""
    window, _, what = name.upper().partition("_")
    if window in LEGACY_WINDOWS and what in LEGACY_PROPERTIES:
        return ex.Call(LEGACY_PROPERTIES[what], (ex.WindowRef(LEGACY_ALIAS),))
    return None


def _one_row_schema() -> Schema:
    return Schema.of(["__dummy"], [DataTypes.INT().not_null()])


def _where(t_env, rel: ops.Rel, condition: exp.Expression, scope: Scope) -> ops.Rel:
    parts = conjuncts(condition)
    plain = [c for c in parts if not _is_subquery_predicate(c)]
    for c in parts:
        if _is_subquery_predicate(c):
            rel = build.filter_(rel, _subquery_predicate(t_env, c, scope))
    if plain:
        predicate = to_expr(plain[0], scope)
        for c in plain[1:]:
            predicate = ex.Call("and", (predicate, to_expr(c, scope)))
        rel = build.filter_(rel, predicate)
    return rel



def _is_subquery_predicate(node: exp.Expression) -> bool:
    if isinstance(node, exp.Not):
        node = node.this
    return (isinstance(node, exp.In) and node.args.get("query") is not None) or \
        isinstance(node, exp.Exists)


def _subquery_predicate(t_env, node: exp.Expression, scope: Scope) -> ex.Expr:
    """``x [NOT] IN (query)`` and ``[NOT] EXISTS (query)``: semi and anti joins; on the
    correlation too when the query is correlated (``sql.correlation``)."""
    negated = isinstance(node, exp.Not)
    if negated:
        node = node.this
    query = node.args["query"] if isinstance(node, exp.In) else node.this
    query = query.this if isinstance(query, exp.Subquery) else query
    correlation = decorrelate(query, _qualifiers(scope))
    rel = _query_to_rel(t_env, query if correlation is None else correlation.query)
    condition = None
    if correlation is not None:
        inner = [(None, n, n) for n in rel.schema.names[:correlation.keys]]
        condition = to_expr(correlation.condition, Scope(scope.rel, scope.columns + inner))
    if isinstance(node, exp.In):
        return ex.SubQuery("not_in" if negated else "in", to_expr(node.this, scope), rel,
                           condition)
    return ex.SubQuery("not_exists" if negated else "exists", None, rel, condition)


def _select_items(node: exp.Select, scope: Scope) -> List[Tuple[ex.Expr, str]]:
    items: List[Tuple[ex.Expr, str]] = []
    for item in node.expressions:
        if isinstance(item, exp.Star) or (isinstance(item, exp.Column)
                                          and isinstance(item.this, exp.Star)):
            qualifier = item.table if isinstance(item, exp.Column) else None
            for name, field in scope.visible(qualifier or None):
                items.append((_named(ex.Column(field), name), name))
            continue
        expr = to_expr(item.this if isinstance(item, exp.Alias) else item, scope)
        if isinstance(item, exp.Alias):
            name = item.alias
        elif isinstance(item, exp.Column):
            name = item.name
        else:
            name = output_name(expr, len(items), sql=True)
        items.append((_named(expr, name), name))
    return _dedup(items)


def _named(expr: ex.Expr, name: str) -> ex.Expr:
    if isinstance(expr, ex.Column) and expr.name == name:
        return expr
    return ex.Alias(expr, (name,))


def _dedup(items: List[Tuple[ex.Expr, str]]) -> List[Tuple[ex.Expr, str]]:
    seen: Dict[str, int] = {}
    result = []
    for expr, name in items:
        new, i = name, 0
        while new in seen:
            new, i = "%s%d" % (name, i), i + 1
        seen[new] = 1
        if new != name:
            inner = expr.expr if isinstance(expr, ex.Alias) else expr
            expr = ex.Alias(inner, (new,))
        result.append((expr, new))
    return result


def _order_and_limit(rel: ops.Rel, node: exp.Expression, scope: Scope,
                     input_scope: Optional[Scope] = None) -> ops.Rel:
    order = node.args.get("order")
    limit = node.args.get("limit")
    offset = node.args.get("offset")
    if order is None and limit is None and offset is None:
        return rel
    keys = []
    for o in (order.expressions if order is not None else []):
        if isinstance(o.this, exp.Literal) and not o.this.is_string:  # ORDER BY 2: ordinal
            position = int(o.this.this)
            if not 1 <= position <= len(rel.schema.names):
                raise ValidationException("Ordinal out of range: ORDER BY %d of %d columns."
                                          % (position, len(rel.schema.names)))
            expr: ex.Expr = ex.Column(rel.schema.names[position - 1])
        else:
            expr = to_expr(_unqualified(o.this, scope), scope)
        nulls_first = o.args.get("nulls_first")
        keys.append(ex.Ordering(expr, not o.args.get("desc"), nulls_first))
    count = limit.args.get("count") if isinstance(limit, exp.Fetch) else \
        limit.expression if limit is not None else None  # FETCH FIRST / NEXT n ROWS ONLY
    fetch = _int_literal(count) if limit is not None else None
    skip = _int_literal(offset.expression) if offset is not None else 0
    return build.sort(rel, keys, offset=skip, fetch=fetch)


def _unqualified(node: exp.Expression, scope: Scope) -> exp.Expression:
    """An ORDER BY key over the query's output: ``c.name`` is the output column ``name``
    (the select list named it so)."""
    names = {n.lower() for _, n, _ in scope.columns}

    def strip(column: exp.Expression) -> exp.Expression:
        if isinstance(column, exp.Column) and column.table and column.name.lower() in names:
            return exp.column(column.name)
        return column

    return node.copy().transform(strip)


def _int_literal(node: exp.Expression) -> int:
    if isinstance(node, exp.Literal) and not node.is_string:
        return int(node.this)
    raise ValidationException("LIMIT and OFFSET take integer literals, not %s." % node.sql())


# -- expressions ------------------------------------------------------------------------------

BINARY = {
    exp.Add: "plus", exp.Sub: "minus", exp.Mul: "times", exp.Div: "divide", exp.Mod: "mod",
    exp.EQ: "equals", exp.NEQ: "not_equals", exp.GT: "greater_than",
    exp.GTE: "greater_than_or_equal", exp.LT: "less_than", exp.LTE: "less_than_or_equal",
    exp.And: "and", exp.Or: "or", exp.DPipe: "concat", exp.Like: "like",
    exp.NullSafeEQ: "is_not_distinct_from", exp.NullSafeNEQ: "is_distinct_from",
}

# sqlglot function classes whose Flink name differs from the class name
FUNCTION_NAMES = {
    "sha": "sha1", "length": "char_length", "stddev": "stddev_samp", "variance": "var_samp",
    "pow": "power", "ceil": "ceil", "initcap": "init_cap", "currenttimestamp":
    "current_timestamp", "currentdate": "current_date", "currenttime": "current_time",
    "localtimestamp": "local_timestamp", "groupconcat": "listagg", "stddevsamp": "stddev_samp",
    "stddevpop": "stddev_pop", "variancepop": "var_pop", "arrayagg": "array_agg",
    "firstvalue": "first_value", "lastvalue": "last_value", "rownumber": "row_number",
    "denserank": "dense_rank", "regexpreplace": "regexp_replace",
    "regexpextract": "regexp_extract", "dateformat": "date_format", "tobase64": "to_base64",
    "frombase64": "from_base64", "concatws": "concat_ws", "strposition": "position",
    "timestampdiff": "timestampdiff", "unixtimestamp": "unix_timestamp",
    "fromunixtime": "from_unixtime", "sha2": "sha2", "arraycontains": "array_contains",
    "arraysize": "cardinality", "todate": "to_date", "totimestamp": "to_timestamp",
    "strtotime": "to_timestamp", "chr": "chr", "char": "chr", "unhex": "unhex",
    "arrayappend": "array_append", "arrayprepend": "array_prepend",
    "arrayconcat": "array_concat", "arraydistinct": "array_distinct",
    "arrayremove": "array_remove", "arrayreverse": "array_reverse",
    "arrayposition": "array_position", "arraymax": "array_max", "arraymin": "array_min",
    "arraytostring": "array_join", "arrayintersect": "array_intersect",
    "arrayexcept": "array_except",
    "mapkeys": "map_keys", "regexpcount": "regexp_count", "regexpsubstr": "regexp_substr",
    "regexpinstr": "regexp_instr", "regexpextractall": "regexp_extract_all",
    "parseurl": "parse_url", "strtomap": "str_to_map", "bitmaporagg": "bitmap_or_agg",
    "parsejson": "parse_json", "cumedist": "cume_dist", "groupingid": "grouping_id",
    "percentrank": "percent_rank",
}


# SQL's functions called without parentheses, where sqlglot's parsing leaves a column
NILADIC_FUNCTIONS = {"LOCALTIMESTAMP": "local_timestamp", "LOCALTIME": "local_time",
                     "CURRENT_TIMESTAMP": "current_timestamp", "CURRENT_DATE": "current_date",
                     "CURRENT_TIME": "current_time"}


def _column(node: exp.Column, scope: Optional[Scope]) -> ex.Expr:
    """A column, or a field of a ROW column (``person.id``, ``t.person.id``): the leading
    name is a table's qualifier when one is in scope, else the column; the rest are fields."""
    parts = [part.name for part in node.parts]
    niladic = NILADIC_FUNCTIONS.get(parts[0].upper()) if len(parts) == 1 else None
    if niladic and (scope is None or not scope.has_column(parts[0])):
        return ex.Call(niladic, ())  # LOCALTIMESTAMP, CURRENT_DATE, ... without parentheses
    if scope is None:
        base: ex.Expr = ex.Column(parts[0])
        fields = parts[1:]
    elif len(parts) == 1:
        prop = scope.window_property(parts[0])
        if prop is not None:
            return prop
        return ex.Column(scope.resolve(None, parts[0]))
    elif scope.has_qualifier(parts[0]) or not scope.has_column(parts[0]):
        base, fields = ex.Column(scope.resolve(parts[0], parts[1])), parts[2:]
    else:
        base, fields = ex.Column(scope.resolve(None, parts[0])), parts[1:]
    for name in fields:
        base = ex.Call("get", (base, ex.Literal(name, DataTypes.STRING())))
    return base


def to_expr(node: exp.Expression, scope: Optional[Scope]) -> ex.Expr:
    """An expression node from a sqlglot expression, names resolved in ``scope``: the
    translation of the nearest class of ``node`` in ``EXPRESSIONS``."""
    for cls in type(node).__mro__:
        translation = EXPRESSIONS.get(cls)
        if translation is not None:
            return translation(node, scope)
    raise _unsupported(node)


def _unsupported(node: exp.Expression) -> UnsupportedFeatureError:
    return UnsupportedFeatureError("the SQL expression %s" % to_sql(node)[:60])


def _args(nodes, scope: Optional[Scope]) -> Tuple[ex.Expr, ...]:
    return tuple(to_expr(n, scope) for n in nodes)


def _column_or_star(node: exp.Column, scope: Optional[Scope]) -> ex.Expr:
    return ex.Star(node.table or None) if isinstance(node.this, exp.Star) else \
        _column(node, scope)


def _binary(node: exp.Binary, scope: Optional[Scope]) -> ex.Expr:
    name = next(BINARY[cls] for cls in type(node).__mro__ if cls in BINARY)
    return ex.Call(name, (to_expr(node.this, scope), to_expr(node.expression, scope)))


def _like(node: exp.Like, scope: Optional[Scope]) -> ex.Expr:
    return ex.Call("not_like" if node.args.get("negate") else "like",
                   (to_expr(node.this, scope), to_expr(node.expression, scope)))


def _escape(node: exp.Escape, scope: Optional[Scope]) -> ex.Expr:
    """``LIKE p ESCAPE c``."""
    like = node.this
    if not isinstance(like, exp.Like):
        raise _unsupported(node)
    return ex.Call("not_like" if like.args.get("negate") else "like",
                   (to_expr(like.this, scope), to_expr(like.expression, scope),
                    to_expr(node.expression, scope)))


def _to_date(node: exp.TsOrDsToDate, scope: Optional[Scope]) -> ex.Expr:
    """sqlglot's reading of TO_DATE and of YEAR(x)'s x."""
    args = [to_expr(node.this, scope)]
    if node.args.get("format") is not None:  # Flink's (Java's) pattern, as written
        pattern = Flink().generator().format_time(node).strip("'")
        args.append(ex.Literal(pattern, DataTypes.STRING().not_null()))
    return ex.Call("to_date", tuple(args))


def _not(node: exp.Not, scope: Optional[Scope]) -> ex.Expr:
    inner = node.this
    if isinstance(inner, exp.Like) and not isinstance(inner, exp.SimilarTo):
        return ex.Call("not_like", (to_expr(inner.this, scope),
                                    to_expr(inner.expression, scope)))
    if isinstance(inner, exp.Is) and isinstance(inner.expression, exp.Null):
        return ex.Call("is_not_null", (to_expr(inner.this, scope),))
    if isinstance(inner, exp.In) and inner.args.get("query") is None:
        return ex.Call("not_in", _args([inner.this] + inner.expressions, scope))
    if isinstance(inner, exp.Between) and not inner.args.get("symmetric"):
        return ex.Call("not_between", _args([inner.this, inner.args["low"],
                                             inner.args["high"]], scope))
    return ex.Call("not", (to_expr(inner, scope),))


def _between(node: exp.Between, scope: Optional[Scope]) -> ex.Expr:
    """``x BETWEEN [SYMMETRIC] low AND high``: SYMMETRIC takes the bounds in either order."""
    x, low, high = _args([node.this, node.args["low"], node.args["high"]], scope)
    ordered = ex.Call("between", (x, low, high))
    if not node.args.get("symmetric"):
        return ordered
    return ex.Call("or", (ordered, ex.Call("between", (x, high, low))))


def _time_unit(node: exp.Expression) -> ex.Symbol:
    """The unit of TIMESTAMPADD/TIMESTAMPDIFF/FLOOR ... TO (``SQL_TSI_DAY`` is ``DAY``)."""
    unit = node.name.upper()
    return ex.Symbol(unit[len("SQL_TSI_"):] if unit.startswith("SQL_TSI_") else unit)


def _unit_first(name: str) -> Callable[[exp.Func, Optional[Scope]], ex.Expr]:
    """TIMESTAMPADD(unit, n, datetime) / TIMESTAMPDIFF(unit, start, end), as written: sqlglot
    keeps the last argument in ``this`` and the middle one in ``expression``."""
    return lambda node, scope: ex.Call(name, (
        _time_unit(node.args["unit"]), to_expr(node.expression, scope),
        to_expr(node.this, scope)))


def _floor_or_ceil(node: exp.Func, scope: Optional[Scope]) -> ex.Expr:
    """FLOOR(x) / CEIL(x), or of a date or time to a unit: FLOOR(ts TO HOUR)."""
    unit = node.args.get("to")
    if unit is None:
        return _builtin(node, scope)
    name = "floor_time" if isinstance(node, exp.Floor) else "ceil_time"
    return ex.Call(name, (to_expr(node.this, scope), _time_unit(unit)))


def _overlaps(node: exp.Overlaps, scope: Optional[Scope]) -> ex.Expr:
    """``(start1, end1) OVERLAPS (start2, end2)``, either end given as a length (an
    interval), as Calcite rewrites it: GREATEST(start1, end1) >= LEAST(start2, end2) AND
    GREATEST(start2, end2) >= LEAST(start1, end1)."""
    def period(side: exp.Expression) -> Tuple[ex.Expr, ex.Expr]:
        if not isinstance(side, exp.Tuple) or len(side.expressions) != 2:
            raise _unsupported(node)
        start, end = side.expressions
        first, second = to_expr(start, scope), to_expr(end, scope)
        return first, ex.Call("plus", (first, second)) if isinstance(end, exp.Interval) \
            else second

    (a, b), (c, d) = period(node.this), period(node.expression)

    def reaches(one: Tuple[ex.Expr, ex.Expr], other: Tuple[ex.Expr, ex.Expr]) -> ex.Expr:
        return ex.Call("greater_than_or_equal", (ex.Call("greatest", one),
                                                 ex.Call("least", other)))

    return ex.Call("and", (reaches((a, b), (c, d)), reaches((c, d), (a, b))))


def _is(node: exp.Is, scope: Optional[Scope]) -> ex.Expr:
    target = node.expression
    if isinstance(target, exp.Null):
        return ex.Call("is_null", (to_expr(node.this, scope),))
    if isinstance(target, exp.Boolean):
        return ex.Call("is_true" if target.this else "is_false", (to_expr(node.this, scope),))
    if isinstance(target, exp.JSON):  # x IS JSON [VALUE | OBJECT | ARRAY | SCALAR]
        kind = str(target.this or "VALUE").upper()
        return ex.Call("is_json", (to_expr(node.this, scope), ex.Symbol(kind)))
    raise _unsupported(node)


def _in(node: exp.In, scope: Optional[Scope]) -> ex.Expr:
    if node.args.get("query") is not None:
        raise UnsupportedFeatureError("IN (sub-query) outside a WHERE clause's conjuncts")
    return ex.Call("in", _args([node.this] + node.expressions, scope))


def _case(node: exp.Case, scope: Optional[Scope]) -> ex.Expr:
    args: List[ex.Expr] = []
    for branch in node.args.get("ifs") or []:
        args += [to_expr(branch.this, scope), to_expr(branch.args["true"], scope)]
    default = node.args.get("default")
    if node.this is not None:  # CASE x WHEN v THEN ...
        subject = to_expr(node.this, scope)
        args = [ex.Call("equals", (subject, a)) if i % 2 == 0 else a
                for i, a in enumerate(args)]
    if default is not None:
        args.append(to_expr(default, scope))
    return ex.Call("case", tuple(args))


def _cast(node: exp.Cast, scope: Optional[Scope]) -> ex.Expr:
    return ex.Cast(to_expr(node.this, scope), _literal_type(node) or data_type_from_sql(node.to),
                   safe=isinstance(node, exp.TryCast) and node.args.get("safe", True)
                   and type(node) is exp.TryCast)


def _literal_type(node: exp.Cast):
    """A ``TIMESTAMP '2024-01-01 10:00:00.123'`` or ``TIME '10:00:00.12'`` literal's type:
    as many digits of a second as the literal writes (TIMESTAMP(3), TIME(2); none without a
    fraction), as Flink types it; None for other casts."""
    literal, to = node.this, node.to
    kinds = {exp.DataType.Type.TIMESTAMP: DataTypes.TIMESTAMP,
             exp.DataType.Type.TIME: DataTypes.TIME}
    if type(node) is not exp.Cast or not isinstance(literal, exp.Literal) or \
            not literal.is_string or to.this not in kinds or to.expressions:
        return None
    fraction = re.search(r"\.(\d+)\s*$", literal.this)
    return kinds[to.this](min(len(fraction.group(1)), 9) if fraction else 0)


def _count(node: exp.Count, scope: Optional[Scope]) -> ex.Expr:
    arg = node.this
    distinct = isinstance(arg, exp.Distinct)
    if distinct:
        args = _args(arg.expressions, scope)
    elif arg is None or isinstance(arg, exp.Star):
        args = ()
    else:
        args = (to_expr(arg, scope),)
    return ex.Call("count", args, distinct=distinct)


def _bracket(node: exp.Bracket, scope: Optional[Scope]) -> ex.Expr:
    if _is_map_constructor(node):  # MAP[k1, v1, ...]
        return ex.Call("map", _args(node.expressions, scope))
    return ex.Call("item", (to_expr(node.this, scope), to_expr(node.expressions[0], scope)))


def _trim(node: exp.Trim, scope: Optional[Scope]) -> ex.Expr:
    position = (node.args.get("position") or "BOTH").upper()
    chars = node.expression
    return ex.Call("trim", (ex.Symbol(position),
                            to_expr(chars, scope) if chars is not None
                            else ex.Literal(" ", DataTypes.CHAR(1).not_null()),
                            to_expr(node.this, scope)))


def _json_object(node: exp.JSONObject, scope: Optional[Scope]) -> ex.Expr:
    on_null = "ABSENT" if str(node.args.get("null_handling") or "").startswith("ABSENT") \
        else "NULL"
    return functions.json_object(on_null, [(to_expr(kv.this, scope),
                                            to_expr(kv.expression, scope))
                                           for kv in node.expressions])


def _json_arrayagg(node: exp.JSONArrayAgg, scope: Optional[Scope]) -> ex.Expr:
    """JSON_ARRAYAGG(value [NULL | ABSENT ON NULL]): ABSENT ON NULL when not said."""
    on_null = "NULL" if str(node.args.get("null_handling") or "").startswith("NULL") \
        else "ABSENT"
    return functions.json_array_agg(on_null, to_expr(node.this, scope))


def _json_objectagg(node: exp.JSONObjectAgg, scope: Optional[Scope]) -> ex.Expr:
    """JSON_OBJECTAGG([KEY] key VALUE value [NULL | ABSENT ON NULL]): NULL ON NULL when not
    said."""
    on_null = "ABSENT" if str(node.args.get("null_handling") or "").startswith("ABSENT") \
        else "NULL"
    pair = node.expressions[0]
    return functions.json_object_agg(on_null, to_expr(pair.this, scope),
                                     to_expr(pair.expression, scope))


def _json_array(node: exp.JSONArray, scope: Optional[Scope]) -> ex.Expr:
    on_null = "NULL" if str(node.args.get("null_handling") or "").startswith("NULL") \
        else "ABSENT"
    return functions.json_array(on_null, [to_expr(v, scope) for v in node.expressions])


# each JSON path function's behaviours in order, and the clause's default when left out
_JSON_PATH_BEHAVIOURS = {
    "JSON_VALUE": (("on_empty", "NULL"), ("empty_default", None), ("on_error", "NULL"),
                   ("error_default", None)),
    "JSON_QUERY": (("wrapper", "WITHOUT_ARRAY"), ("on_empty", "NULL"), ("on_error", "NULL")),
    "JSON_EXISTS": (("on_error", "FALSE"),),
}


def _json_path_call(node: JsonPathCall, scope: Optional[Scope]) -> ex.Expr:
    """JSON_VALUE / JSON_QUERY / JSON_EXISTS with their clauses; the path, when a string
    literal, read as written."""
    name = node.name.upper()
    json, path = node.expressions
    returning = node.args.get("returning")
    returning = data_type_from_sql(returning) if returning is not None else \
        None if name == "JSON_EXISTS" else DataTypes.STRING()
    behaviours = []
    for key, default in _JSON_PATH_BEHAVIOURS[name]:
        given = node.args.get(key)
        if key.endswith("_default"):
            behaviours.append(to_expr(given, scope) if given is not None
                              else ex.Literal(None, returning))
        else:
            behaviours.append(given.name if given is not None else default)
    return ex.json_path_call(
        name.lower(), to_expr(json, scope),
        path.name if isinstance(path, exp.Literal) and path.is_string else to_expr(path, scope),
        returning, behaviours)


def _row(items: List[exp.Expression], scope: Optional[Scope]) -> ex.Expr:
    """ROW(a, b) or (a, b): Flink SQL names its fields EXPR$0, EXPR$1, ..."""
    return ex.Call("row", tuple(ex.Alias(e, ("EXPR$%d" % i,))
                                for i, e in enumerate(_args(items, scope))))


def _tuple(node: exp.Tuple, scope: Optional[Scope]) -> ex.Expr:
    return _row(node.expressions, scope)


def _anonymous(node: exp.Anonymous, scope: Optional[Scope]) -> ex.Expr:
    """A function sqlglot does not know: a legacy window property, ROW(...), a user's or a
    built-in function by name."""
    prop = _legacy_window_property(node.name)
    if prop is not None:
        return prop
    if node.name.upper() == "ROW":
        return _row(node.expressions, scope)
    if any(isinstance(a, exp.Distinct) for a in node.expressions):  # COLLECT(DISTINCT x)
        call = _function(node.name, [to_expr(e, scope) for a in node.expressions
                                     for e in (a.expressions if isinstance(a, exp.Distinct)
                                               else [a])])
        return ex.Call(call.name, call.args, True)
    return _function(node.name, [to_expr(a, scope) for a in node.expressions])


def _nulls_of(node: exp.Expression, scope: Optional[Scope], name: str) -> ex.Expr:
    """ARRAY_AGG(x IGNORE NULLS) / ARRAY_AGG(x RESPECT NULLS, the default)."""
    if not isinstance(node.this, exp.ArrayAgg):
        raise _unsupported(node)
    call = to_expr(node.this, scope)
    return ex.Call(name, call.args, call.distinct)


def _hex_string(node: exp.HexString, scope: Optional[Scope]) -> ex.Expr:
    """X'0AFF': BINARY(2)."""
    value = bytes.fromhex(node.this)
    return ex.Literal(value, DataTypes.BINARY(max(len(value), 1)).not_null())




def _filtered_aggregate(node: exp.Filter) -> exp.Expression:
    """``agg(x) FILTER (WHERE c)`` as ``agg(CASE WHEN c THEN x END)`` (``COUNT(*)`` counts
    ``CASE WHEN c THEN 1 END``): rows where ``c`` is not true give NULL, which aggregates
    skip."""
    aggregate, condition = node.this.copy(), node.expression.this

    def only_when(value: exp.Expression) -> exp.Expression:
        return exp.Case(ifs=[exp.If(this=condition.copy(), true=value)])

    argument = aggregate.this
    if isinstance(argument, exp.Distinct):
        argument.set("expressions", [only_when(e) for e in argument.expressions])
    elif argument is None or isinstance(argument, exp.Star):
        aggregate.set("this", only_when(exp.Literal.number(1)))
    else:
        aggregate.set("this", only_when(argument))
    return aggregate


def _builtin(node: exp.Func, scope: Optional[Scope]) -> ex.Expr:
    key = type(node).__name__.lower()
    name = FUNCTION_NAMES.get(key, key)
    args: List[ex.Expr] = []
    distinct = False
    for arg_name in node.arg_types:
        value = node.args.get(arg_name)
        if value is None:
            continue
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, exp.Distinct):
                distinct = True
                args.extend(to_expr(a, scope) for a in v.expressions)
            elif isinstance(v, exp.Expression):
                args.append(to_expr(v, scope))
    if isinstance(node, exp.StrPosition):  # sqlglot: (string, substring); Flink's is
        args[:2] = args[1::-1]  # POSITION(substring IN string), LOCATE(substring, string)
    if isinstance(node, exp.Initcap):  # Spark's parsing adds a delimiter argument
        args = args[:1]
    call = _function(name, args)
    return ex.Call(call.name, call.args, distinct) if distinct else call


def _function(name: str, args: List[ex.Expr]) -> ex.Expr:
    user = (_USER_FUNCTIONS.get() or {}).get(name.lower())
    if user is not None:
        return ex.UserCall(user, tuple(args))
    if name.lower() in ("current_database", "currentdatabase") and not args \
            and _CURRENT_DATABASE.get() is not None:
        return ex.Literal(_CURRENT_DATABASE.get(), DataTypes.STRING().not_null())
    function = functions.lookup(name)
    if function is None:
        raise ValidationException(
            "No match found for function signature %s(%s)." % (
                name.upper(), ", ".join("<ARG>" for _ in args)))
    return ex.Call(function.name, tuple(args))


def _literal(node: exp.Literal) -> ex.Literal:
    if node.is_string:
        return ex.Literal(node.this, DataTypes.CHAR(len(node.this)).not_null())
    text = node.this
    return ex.Literal(_number(text), type_rules.sql_literal_type(text))


def _number(text: str):
    if "e" in text.lower():
        return float(text)
    if "." in text:
        return Decimal(text)
    return int(text)


UNIT_MILLIS = {"SECOND": 1000, "MINUTE": 60_000, "HOUR": 3_600_000, "DAY": 86_400_000,
               "MILLISECOND": 1, "WEEK": 7 * 86_400_000}
UNIT_MONTHS = {"MONTH": 1, "YEAR": 12, "QUARTER": 3}


DAY_TIME_UNITS = ("DAY", "HOUR", "MINUTE", "SECOND")


def _interval(node: exp.Interval) -> ex.Literal:
    text = node.this.name if isinstance(node.this, exp.Literal) else node.this.sql()
    if isinstance(node.unit, exp.IntervalSpan):
        return _interval_span(text, node.unit.this.name.upper(),
                              node.unit.expression.name.upper())
    unit = (node.unit.name if node.unit is not None else "SECOND").upper().rstrip("S")
    amount = float(text) if "." in text else int(text)
    if unit in UNIT_MONTHS:
        return ex.Literal(int(amount) * UNIT_MONTHS[unit],
                          DataTypes.INTERVAL(DataTypes.MONTH()).not_null())
    if unit not in UNIT_MILLIS:
        raise UnsupportedFeatureError("INTERVAL ... %s" % unit)
    value = datetime.timedelta(milliseconds=amount * UNIT_MILLIS[unit])
    return ex.Literal(value, DataTypes.INTERVAL(DataTypes.SECOND(3)).not_null())


def _interval_span(text: str, first: str, last: str) -> ex.Literal:
    """``INTERVAL '2-10' YEAR TO MONTH``, ``INTERVAL '10 02:30' DAY TO MINUTE``, ...: the
    text's fields, from the first unit to the last (a leading '-' negates them all)."""
    fields = re.findall(r"\d+(?:\.\d*)?", text)
    sign = -1 if text.strip().startswith("-") else 1
    if first == "YEAR" and last == "MONTH" and len(fields) == 2:
        months = sign * (int(fields[0]) * 12 + int(fields[1]))
        return ex.Literal(months, DataTypes.INTERVAL(DataTypes.MONTH()).not_null())
    if first in DAY_TIME_UNITS and last in DAY_TIME_UNITS:
        units = DAY_TIME_UNITS[DAY_TIME_UNITS.index(first):DAY_TIME_UNITS.index(last) + 1]
        if len(units) > 1 and len(fields) == len(units):
            millis = sum(float(f) * UNIT_MILLIS[u] for f, u in zip(fields, units))
            return ex.Literal(datetime.timedelta(milliseconds=sign * millis),
                              DataTypes.INTERVAL(DataTypes.SECOND(3)).not_null())
    raise ValidationException("Illegal interval literal '%s' %s TO %s" % (text, first, last))


def _is_map_constructor(node: exp.Bracket) -> bool:
    """``MAP[k1, v1, ...]`` (sqlglot reads it as an index into a column named MAP)."""
    this = node.this
    return isinstance(this, exp.Column) and not this.table and this.name.upper() == "MAP" \
        and not this.this.quoted and len(node.expressions) % 2 == 0


def _with_named_windows(node: exp.Select) -> exp.Select:
    """``node`` with each ``OVER w`` spelled out as its ``WINDOW w AS (...)``."""
    definitions = {w.this.name.lower(): w for w in node.args.get("windows") or []}
    if not definitions:
        return node
    node = node.copy()
    for window in list(node.find_all(exp.Window)):
        alias = window.args.get("alias")
        if isinstance(window.this, exp.Identifier) or alias is None or any(
                window.args.get(k) for k in ("partition_by", "order", "spec")):
            continue  # a definition, or a window of its own
        definition = definitions.get(alias.name.lower())
        if definition is None:
            raise ValidationException("Window '%s' not found" % alias.name)
        for key in ("partition_by", "order", "spec"):
            value = definition.args.get(key)
            window.set(key, value.copy() if isinstance(value, exp.Expression) else
                       [v.copy() for v in value] if value else value)
        window.set("alias", None)
    node.set("windows", None)
    return node


def _over(node: exp.Window, scope: Optional[Scope]) -> ex.Expr:
    agg = to_expr(node.this, scope)
    partition = tuple(to_expr(p, scope) for p in node.args.get("partition_by") or [])
    order = node.args.get("order")
    orderings = tuple(ex.Ordering(to_expr(o.this, scope), not o.args.get("desc"),
                                  o.args.get("nulls_first"))
                      for o in (order.expressions if order is not None else []))
    spec = node.args.get("spec")
    rows, preceding, following = False, None, 0
    if spec is not None:
        rows = (spec.args.get("kind") or "").upper() == "ROWS"
        preceding = _frame_bound(spec.args.get("start"), rows)
        following = _frame_bound(spec.args.get("end"), rows) or 0
    window = ops.OverWindow(partition_by=partition, order_by=orderings, rows=rows,
                            preceding=preceding, following=following)
    return ex.OverCall(agg, window)


def _frame_bound(bound, rows: bool):
    if bound is None or (isinstance(bound, str) and bound.upper() == "UNBOUNDED"):
        return None
    if isinstance(bound, str) and bound.upper() == "CURRENT ROW":
        return 0
    if isinstance(bound, exp.Literal):
        return int(bound.this)
    if isinstance(bound, exp.Interval):
        literal = _interval(bound)
        return int(literal.value / datetime.timedelta(milliseconds=1))
    return None


# sqlglot expression class -> its translation (``to_expr`` takes the nearest class of a node)
EXPRESSIONS: Dict[type, Callable[[Any, Optional[Scope]], ex.Expr]] = {
    exp.Paren: lambda node, scope: to_expr(node.this, scope),
    exp.Column: _column_or_star,
    exp.Star: lambda node, scope: ex.Star(),
    exp.Literal: lambda node, scope: _literal(node),
    exp.HexString: _hex_string,
    exp.Boolean: lambda node, scope: ex.Literal(node.this, DataTypes.BOOLEAN().not_null()),
    exp.Null: lambda node, scope: ex.Literal(None, DataTypes.NULL()),
    exp.Alias: lambda node, scope: ex.Alias(to_expr(node.this, scope), (node.alias,)),
    exp.Filter: lambda node, scope: to_expr(_filtered_aggregate(node), scope),
    **{cls: _binary for cls in BINARY},
    exp.Like: _like,
    exp.Escape: _escape,
    exp.TsOrDsToDate: _to_date,
    exp.SimilarTo: lambda node, scope: ex.Call("similar", (to_expr(node.this, scope),
                                                           to_expr(node.expression, scope))),
    exp.Not: _not,
    exp.Neg: lambda node, scope: ex.Call("negate", (to_expr(node.this, scope),)),
    exp.Is: _is,
    exp.Between: _between,
    exp.In: _in,
    exp.Case: _case,
    exp.If: lambda node, scope: ex.Call("if", _args(
        [node.this, node.args["true"], node.args.get("false") or exp.Null()], scope)),
    exp.Cast: _cast,
    exp.Interval: lambda node, scope: _interval(node),
    exp.Count: _count,
    exp.Window: _over,
    exp.Bracket: _bracket,
    exp.Dot: lambda node, scope: ex.Call("get", (to_expr(node.this, scope),
                                                 ex.Literal(node.name, DataTypes.STRING()))),
    exp.Extract: lambda node, scope: ex.Call("extract", (ex.Symbol(node.this.name.upper()),
                                                         to_expr(node.expression, scope))),
    exp.Trim: _trim,
    exp.Overlaps: _overlaps,
    # MAP_FROM_ARRAYS(keys, values) (sqlglot's Map of two arrays; MAP[...] is a Bracket)
    exp.Map: lambda node, scope: ex.Call("map_from_arrays", (
        to_expr(node.args["keys"], scope), to_expr(node.args["values"], scope))),
    exp.TimestampAdd: _unit_first("timestampadd"),
    exp.TimestampDiff: _unit_first("timestampdiff"),
    exp.Floor: _floor_or_ceil,
    exp.Ceil: _floor_or_ceil,
    exp.Array: lambda node, scope: ex.Call("array", _args(node.expressions, scope)),
    exp.JSONObject: _json_object,
    JsonPathCall: _json_path_call,
    exp.JSONArray: _json_array,
    exp.JSONArrayAgg: _json_arrayagg,
    exp.JSONObjectAgg: _json_objectagg,
    exp.IgnoreNulls: lambda node, scope: _nulls_of(node, scope, "array_agg_ignore_nulls"),
    exp.RespectNulls: lambda node, scope: _nulls_of(node, scope, "array_agg"),
    exp.Anonymous: _anonymous,
    exp.Tuple: _tuple,
    exp.Func: _builtin,
}
