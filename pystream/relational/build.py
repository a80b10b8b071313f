"""Building relational nodes: checks the expressions and derives the result's schema.

The Table API and the SQL translator both build through these functions, so a Table call and
the SQL that says the same thing give the same tree. Aggregates and OVER windows are taken out
of select lists here: ``select(a, b.sum + 1)`` after ``group_by(a)`` becomes an ``Aggregate``
(keys, then each aggregate call under a hidden name) and a ``Project`` over it.
"""
from __future__ import annotations

import functools
from dataclasses import replace
from typing import Dict, List, Optional, Sequence, Tuple

from pystream.common import type_rules
from pystream.common.data_types import (
    ArrayType,
    BinaryType,
    CharType,
    DataTypes,
    LocalZonedTimestampType,
    MapType,
    MultisetType,
    RowType,
    TimestampType,
    VarBinaryType,
    VarCharType,
)
from pystream.relational import expressions as ex
from pystream.relational import operations as ops
from pystream.relational.explain import explain
from pystream.relational.printing import expression_string
from pystream.relational.resolve import (
    WINDOW_PROPERTIES,
    aggregate_calls,
    check_boolean,
    expand,
    field_of,
    has_over,
    output_name,
    type_of,
)
from pystream.relational.schema import Field, Schema
from pystream.relational.time_bounded import conjuncts, is_interval_join
from pystream.util.exceptions import ValidationException

__all__ = ["project", "correlate", "filter_", "aggregate", "window_aggregate", "join", "set_op",
           "sort", "distinct", "with_over", "rename_all", "drop", "add_columns"]


TIMESTAMPS = (TimestampType, LocalZonedTimestampType)


def project(rel: ops.Rel, exprs: Sequence[ex.Expr], sql: bool = False) -> ops.Rel:
    """SELECT ``exprs`` FROM ``rel``: plain, with aggregates (one group) or OVER windows."""
    exprs = _expand_all(exprs, rel.schema)
    if any(aggregate_calls(e) for e in exprs):
        return aggregate(rel, (), exprs, sql=sql)
    if any(has_over(e) for e in exprs):
        rel, exprs = with_over(rel, exprs, {})
    rel = _without_unread_aggregates(rel, _read_columns(exprs))
    fields = _unique_derived_names(
        [field_of(e, rel.schema, i, sql) for i, e in enumerate(exprs)], exprs)
    if _is_identity(rel, exprs, fields):
        return rel
    return ops.Project(schema=Schema(tuple(fields)).check_unique(), input=rel, exprs=tuple(exprs))


def _read_columns(exprs: Sequence[ex.Expr]) -> set:
    return {c.name for e in exprs for c in ex.walk(e) if isinstance(c, ex.Column)}


def _without_unread_aggregates(rel: ops.Rel, read: set) -> ops.Rel:
    """``rel`` without the aggregate calls of a GROUP BY that a projection over it does not
    read (through one projection of its fields too), as Flink's planner prunes them: a
    grouped table read only by its keys is their distinct values, and an aggregate nobody
    reads does not make the result update."""
    if isinstance(rel, ops.Project) and isinstance(rel.input, ops.Aggregate):
        kept = [(e, f) for e, f in zip(rel.exprs, rel.schema) if f.name in read]
        if not kept or len(kept) == len(rel.exprs):
            return rel
        below = _without_unread_aggregates(rel.input, _read_columns([e for e, _ in kept]))
        return ops.Project(schema=Schema(tuple(f for _, f in kept)), input=below,
                           exprs=tuple(e for e, _ in kept))
    if not (isinstance(rel, ops.Aggregate) and rel.keys and rel.aggregates):
        return rel
    width = len(rel.keys)
    kept_calls = [(a, f) for a, f in zip(rel.aggregates, rel.schema.fields[width:])
                  if f.name in read]
    if len(kept_calls) == len(rel.aggregates):
        return rel
    return replace(rel, schema=Schema(rel.schema.fields[:width] + tuple(
        f for _, f in kept_calls)), aggregates=tuple(a for a, _ in kept_calls))


def correlate(rel: ops.Rel, call: ex.Expr, kind: str = "inner",
              condition: Optional[ex.Expr] = None, keep_input: bool = True) -> ops.Rel:
    """``rel`` joined with the rows of a table function call (``f(col('a')).alias('x')``;
    a call without arguments takes the whole row)."""
    names: Tuple[str, ...] = ()
    if isinstance(call, ex.Alias):
        call, names = call.expr, call.names
    if not (isinstance(call, ex.UserCall) and getattr(call.function, "is_table_function",
                                                      False)):
        raise ValidationException("join_lateral and flat_map take a table function call "
                                  "(udtf), not %s." % (call,))
    if not call.args:  # the function takes the whole row
        call = ex.UserCall(call.function, (whole_row(rel.schema),))
    for a in call.args:
        type_of(a, rel.schema)  # unknown columns fail here, listing the fields
    row = call.function.result_type
    if names and len(names) != len(row.fields):
        raise ValidationException("The table function gives %d fields, %d aliases were given."
                                  % (len(row.fields), len(names)))
    fields = tuple(Field(n, f.data_type.nullable() if kind == "left" else f.data_type)
                   for n, f in zip(names or row.field_names(), row.fields))
    schema = Schema((rel.schema.fields if keep_input else ()) + fields).check_unique()
    node: ops.Rel = ops.Correlate(schema=schema, input=rel, call=call, kind=kind,
                                  keep_input=keep_input)
    if condition is not None and not (isinstance(condition, ex.Literal)
                                      and condition.value is True):
        node = filter_(node, condition)
    return node


def _unique_derived_names(fields: List[Field], exprs: Sequence[ex.Expr]) -> List[Field]:
    """A derived name (``r$a`` of ``get('a')``) that another field has gets a number, as in
    ``r$a0``; names the user gave and plain columns keep theirs (duplicates of those are an
    error)."""
    given = (ex.Alias, ex.Column)
    taken = {f.name for f, e in zip(fields, exprs) if isinstance(e, given)}
    result = []
    for f, e in zip(fields, exprs):
        name, n = f.name, 0
        while not isinstance(e, given) and name in taken:
            name, n = "%s%d" % (f.name, n), n + 1
        taken.add(name)
        result.append(replace(f, name=name))
    return result


def _is_identity(rel: ops.Rel, exprs, fields) -> bool:
    return (all(isinstance(e, ex.Column) for e in exprs)
            and tuple(e.name for e in exprs) == rel.schema.names)


def _expand_all(exprs: Sequence[ex.Expr], schema: Schema) -> List[ex.Expr]:
    result: List[ex.Expr] = []
    for e in expand(exprs, schema):
        if isinstance(e, ex.Call) and e.name in ("with_columns", "without_columns"):
            chosen = [c.name for c in expand(e.args, schema)]
            names = chosen if e.name == "with_columns" else \
                [n for n in schema.names if n not in chosen]
            result.extend(ex.Column(n) for n in names)
        else:
            result.append(e)
    return result


def filter_(rel: ops.Rel, condition: ex.Expr) -> ops.Rel:
    if not isinstance(condition, ex.SubQuery):
        check_boolean(condition, rel.schema, "Filter")
        interval_join = _into_interval_join(rel, condition)
        if interval_join is not None:
            return interval_join
    return ops.Filter(schema=rel.schema, input=rel, condition=condition)


def _into_interval_join(rel: ops.Rel, condition: ex.Expr) -> Optional[ops.Rel]:
    """``FROM a, b WHERE a.k = b.k AND b.ts BETWEEN a.ts ... AND ...`` (or a Table's
    ``join(b).where(...)``): the filter as the inner join's condition when that makes an
    interval join, as Flink's planner pushes it down."""
    if not (isinstance(rel, ops.Join) and rel.kind == "inner"):
        return None
    both = condition if rel.condition is None else ex.Call("and", (rel.condition, condition))
    joined = join(rel.left, rel.right, "inner", both)
    return joined if is_interval_join(joined) else None


def unnest(rel: ops.Rel, collection: ex.Expr, names: Sequence[str] = (), kind: str = "inner",
           ordinality: bool = False) -> ops.Rel:
    """``rel`` joined with the elements of ``collection`` (an ARRAY, MULTISET or MAP
    expression over it), named ``names`` (Flink's: ``f0``... for a row's fields,
    ``EXPR$0`` for an element, ``ORDINALITY``)."""
    kind_of = type_of(collection, rel.schema)
    if isinstance(kind_of, MapType):
        own = [("key", kind_of.key_type), ("value", kind_of.value_type)]
    elif isinstance(kind_of, (ArrayType, MultisetType)):
        element = kind_of.element_type
        own = [(f.name, f.data_type) for f in element.fields] \
            if isinstance(element, RowType) else [("EXPR$0", element)]
    else:
        raise ValidationException("UNNEST takes an ARRAY, MULTISET or MAP, not %s."
                                  % kind_of.summary_string())
    if ordinality:
        own.append(("ORDINALITY", DataTypes.INT(False)))
    if names and len(names) != len(own):
        raise ValidationException("UNNEST gives %d columns, %d names were given."
                                  % (len(own), len(names)))
    fields = tuple(Field(n, t.nullable() if kind == "left" else t)
                   for n, (_, t) in zip(names or [n for n, _ in own], own))
    schema = Schema(rel.schema.fields + fields).check_unique()
    return ops.Unnest(schema=schema, input=rel, collection=collection, kind=kind,
                      ordinality=ordinality)


def aggregate(rel: ops.Rel, keys: Sequence[ex.Expr], exprs: Sequence[ex.Expr],
              sql: bool = False, having: Optional[ex.Expr] = None) -> ops.Rel:
    """GROUP BY ``keys`` SELECT ``exprs`` [HAVING ``having``]."""
    keys = expand(keys, rel.schema)
    exprs = _expand_all(exprs, rel.schema)
    key_fields = [field_of(k, rel.schema, i, sql) for i, k in enumerate(keys)]
    calls: Dict[ex.Expr, str] = {}
    for e in list(exprs) + ([having] if having is not None else []):
        for call in aggregate_calls(e):
            calls.setdefault(call, "__agg%d" % len(calls))
    agg_fields = []
    for call, name in calls.items():
        for arg in call.args:
            if aggregate_calls(arg):
                raise ValidationException("Aggregate functions cannot be nested: %s" % (call,))
        agg_fields.append(Field(name, type_of(call, rel.schema)))
    schema = Schema(tuple(Field(f.name, f.data_type) for f in key_fields) + tuple(agg_fields))
    node: ops.Rel = ops.Aggregate(schema=schema, input=rel, keys=tuple(keys),
                                  aggregates=tuple(ex.Alias(c, (n,)) for c, n in calls.items()))
    if having is None and _one_row_per_group(rel, keys, calls):
        # as Flink's planner removes it: each aggregate is its argument's value
        node = project(rel, [ex.Alias(k, (f.name,)) for k, f in zip(keys, key_fields)] + [
            ex.Alias(ex.Cast(c.args[0], f.data_type), (f.name,))
            for c, f in zip(calls, agg_fields)])
    substitutions = {call: ex.Column(name) for call, name in calls.items()}
    substitutions.update({k: ex.Column(f.name) for k, f in zip(keys, key_fields)
                          if not isinstance(k, ex.Column)})
    rewritten = [_keep_name(_substitute(e, substitutions), e, i, sql, calls)
                 for i, e in enumerate(exprs)]
    _check_grouped(rewritten, schema, keys)
    if having is not None:
        node = filter_(node, _substitute(having, substitutions))
    return project(node, rewritten, sql=sql)


# aggregates of one row that are that row's value (Flink's FlinkAggregateRemoveRule)
ONE_ROW_AGGREGATES = ("sum", "min", "max")


def _one_row_per_group(rel: ops.Rel, keys: Sequence[ex.Expr], calls) -> bool:
    """Whether each group of ``keys`` is one row of ``rel`` (the keys include a unique key
    of it) and every call is an aggregate whose value over one row is that row's value."""
    unique = unique_key(rel)
    return bool(unique and calls) and set(unique) <= {
        k.name for k in keys if isinstance(k, ex.Column)} and all(
        isinstance(c, ex.Call) and c.name in ONE_ROW_AGGREGATES and not c.distinct
        and len(c.args) == 1 for c in calls)


def unique_key(rel: ops.Rel) -> Tuple[str, ...]:
    """Fields no two rows of ``rel`` share (an upsert changelog's primary key, through
    filters and projections that keep it), or ()."""
    if isinstance(rel, ops.StreamScan):
        return rel.unique_key
    if isinstance(rel, ops.Filter):
        return unique_key(rel.input)
    if isinstance(rel, ops.Project):
        kept = {e.name: e.name for e in rel.exprs if isinstance(e, ex.Column)}
        kept.update({e.expr.name: e.names[0] for e in rel.exprs if isinstance(e, ex.Alias)
                     and isinstance(e.expr, ex.Column)})
        below = unique_key(rel.input)
        return tuple(kept[n] for n in below) if all(n in kept for n in below) else ()
    return ()


def grouping_sets(rel: ops.Rel, sets: Sequence[Sequence[ex.Expr]], exprs: Sequence[ex.Expr],
                  sql: bool = False, having: Optional[ex.Expr] = None) -> ops.Rel:
    """GROUP BY GROUPING SETS (ROLLUP and CUBE are lists of sets too), as Flink plans it:
    each row once per set (its Expand: the keys the set leaves out NULL, and the set's
    number), then one aggregate grouped by the keys and the number."""
    every: List[ex.Expr] = []
    for keys in sets:
        every += [k for k in keys if k not in every]
    names = ["__key%d" % i for i in range(len(every))]
    projections = tuple(
        tuple(ex.Column(n) for n in rel.schema.names)
        + tuple(k if k in keys else ex.Cast(ex.Literal(None, DataTypes.NULL()),
                                            type_of(k, rel.schema).nullable()) for k in every)
        + (ex.Literal(number, DataTypes.INT(False)),) for number, keys in enumerate(sets))
    types = [type_rules.common_type([type_of(p[i], rel.schema) for p in projections])
             for i in range(len(projections[0]))]
    expanded = ops.Expand(schema=Schema.of(list(rel.schema.names) + names + ["__set"], types),
                          input=rel, projections=projections)
    grouped = {k: ex.Column(n) for k, n in zip(every, names)}

    def by_keys(e: ex.Expr) -> ex.Expr:
        e = _groupings(e, sets)
        if isinstance(e, ex.Column) and e in grouped:  # keeps its name
            return ex.Alias(grouped[e], (e.name,))
        return _substitute_outside_aggregates(e, grouped)

    return aggregate(expanded, [ex.Column(n) for n in names + ["__set"]],
                     [by_keys(e) for e in exprs], sql=sql,
                     having=None if having is None else by_keys(having))


GROUPING_FUNCTIONS = ("grouping", "grouping_id", "group_id")


def _groupings(expr: ex.Expr, sets: Sequence[Sequence[ex.Expr]]) -> ex.Expr:
    """``expr`` with GROUPING(k, ...) / GROUPING_ID (a bit per key, 1 where the row's set
    leaves the key out) and GROUP_ID() (how many identical sets came before the row's) as
    the value of the row's set (``__set``)."""
    if isinstance(expr, ex.Call) and expr.name in GROUPING_FUNCTIONS:
        def value(number: int) -> int:
            keys = sets[number]
            if expr.name == "group_id":
                return sum(1 for earlier in sets[:number] if set(earlier) == set(keys))
            bits = 0
            for key in expr.args:
                bits = bits << 1 | (key not in keys)
            return bits
        branches: List[ex.Expr] = []
        for number in range(len(sets)):
            branches += [ex.Call("equals", (ex.Column("__set"),
                                            ex.Literal(number, DataTypes.INT(False)))),
                         ex.Literal(value(number), DataTypes.BIGINT(False))]
        return ex.Call("case", tuple(branches) + (ex.Literal(0, DataTypes.BIGINT(False)),))
    if isinstance(expr, (ex.Call, ex.UserCall)):
        return replace(expr, args=tuple(_groupings(a, sets) for a in expr.args))
    if isinstance(expr, (ex.Alias, ex.Cast, ex.Ordering)):
        return replace(expr, expr=_groupings(expr.expr, sets))
    return expr


def _substitute_outside_aggregates(expr: ex.Expr, mapping: Dict[ex.Expr, ex.Expr]) -> ex.Expr:
    """``expr`` with each sub-tree found in ``mapping`` replaced, but not inside aggregate
    calls (they read the input's rows)."""
    if aggregate_calls(expr) == [expr]:
        return expr
    if expr in mapping:
        return mapping[expr]
    if isinstance(expr, (ex.Call, ex.UserCall)):
        return replace(expr, args=tuple(_substitute_outside_aggregates(a, mapping)
                                        for a in expr.args))
    if isinstance(expr, (ex.Alias, ex.Cast, ex.Ordering)):
        return replace(expr, expr=_substitute_outside_aggregates(expr.expr, mapping))
    return expr


def _check_grouped(exprs, schema: Schema, keys) -> None:
    for e in exprs:
        for node in ex.walk(e):
            if isinstance(node, ex.Column) and not schema.has(node.name):
                raise ValidationException(
                    "Expression '%s' is neither present in the group by, nor is it an "
                    "aggregate function. Grouping keys: [%s]." % (
                        node.name, ", ".join(str(k) for k in keys)))


def _keep_name(new: ex.Expr, old: ex.Expr, index: int, sql: bool,
               calls: Dict[ex.Expr, str]) -> ex.Expr:
    """``new`` under the name ``old`` had in the select list; in the Table API an
    aggregate call of its own is ``EXPR$<k>``, k counting the aggregates, as in Flink."""
    if new == old or isinstance(old, ex.Alias):
        return new
    if not sql and old in calls:
        return ex.Alias(new, ("EXPR$%d" % list(calls).index(old),))
    return ex.Alias(new, (output_name(old, index, sql),))


def _substitute(expr: ex.Expr, mapping: Dict[ex.Expr, ex.Expr]) -> ex.Expr:
    """``expr`` with each sub-tree found in ``mapping`` replaced."""
    try:
        if expr in mapping:
            return mapping[expr]
    except TypeError:  # an unhashable literal (a list): never a key
        pass
    if isinstance(expr, ex.Call):
        return replace(expr, args=tuple(_substitute(a, mapping) for a in expr.args))
    if isinstance(expr, ex.UserCall):
        return replace(expr, args=tuple(_substitute(a, mapping) for a in expr.args))
    if isinstance(expr, (ex.Alias, ex.Cast, ex.Ordering)):
        return replace(expr, expr=_substitute(expr.expr, mapping))
    return expr


def window_aggregate(rel: ops.Rel, window: ops.GroupWindow, keys: Sequence[ex.Expr],
                     exprs: Sequence[ex.Expr], sql: bool = False) -> ops.Rel:
    """Aggregates per group window: ``keys`` (the window alias left out), then ``exprs``."""
    time_field = rel.schema.field(window.time_field)
    if not isinstance(time_field.data_type, TIMESTAMPS) and not window.rows:
        raise ValidationException(
            "A group window expects a time attribute for grouping, but '%s' is %s." %
            (window.time_field, time_field.data_type.summary_string()))
    keys = [k for k in expand(keys, rel.schema)
            if not (isinstance(k, ex.Column) and k.name == window.alias)]
    exprs = _expand_all(exprs, rel.schema)
    key_fields = [field_of(k, rel.schema, i, sql) for i, k in enumerate(keys)]
    calls: Dict[ex.Expr, str] = {}
    properties: Dict[ex.Expr, str] = {}
    for e in exprs:
        for call in aggregate_calls(e):
            calls.setdefault(call, "__agg%d" % len(calls))
        for node in ex.walk(e):
            if isinstance(node, ex.Call) and node.name in WINDOW_PROPERTIES:
                properties.setdefault(node, "__%s" % node.name)
    schema = Schema(
        tuple(Field(f.name, f.data_type) for f in key_fields)
        + tuple(Field(n, type_of(c, rel.schema)) for c, n in calls.items())
        + tuple(replace(field_of(p, rel.schema, 0), name=n) for p, n in properties.items()))
    node = ops.WindowAggregate(
        schema=schema, input=rel, window=window, keys=tuple(keys),
        aggregates=tuple(ex.Alias(c, (n,)) for c, n in calls.items()),
        properties=tuple(ex.Alias(p, (n,)) for p, n in properties.items()))
    mapping = {**{c: ex.Column(n) for c, n in calls.items()},
               **{p: ex.Column(n) for p, n in properties.items()}}
    # Flink numbers a window's properties (w.start...) and aggregates together: EXPR$<k>
    numbered = {e: None for e in exprs if e in calls or e in properties}
    rewritten = [_keep_name(_substitute(e, mapping), e, i, sql, numbered)
                 for i, e in enumerate(exprs)]
    _check_grouped(rewritten, schema, keys)
    return project(node, rewritten, sql=sql)


def window_table(rel: ops.Rel, window: ops.GroupWindow) -> ops.Rel:
    """The rows of a window table function: ``rel``'s fields, then window_start, window_end
    (TIMESTAMP(3)) and window_time (the rowtime's type, a time attribute)."""
    time_field = rel.schema.field(window.time_field)
    if not isinstance(time_field.data_type, TIMESTAMPS):
        raise ValidationException(
            "A window table function expects a time attribute, but '%s' is %s." %
            (window.time_field, time_field.data_type.summary_string()))
    start = DataTypes.TIMESTAMP(3).not_null()
    fields = (Field("window_start", start), Field("window_end", start),
              Field("window_time", time_field.data_type.not_null(), "rowtime"))
    inherited = tuple(replace(f, time=None) if f.time == "rowtime" else f for f in rel.schema)
    return ops.WindowTable(schema=Schema(inherited + fields).check_unique(), input=rel,
                           window=window)


def match_recognize(rel: ops.Rel, keys: Sequence[str], order: Sequence[ex.Ordering],
                    pattern, define, measures: Sequence[ex.Expr], after: str,
                    within_ms: Optional[int]) -> ops.Rel:
    """``MATCH_RECOGNIZE`` (one row per match): the partition fields, then the measures."""
    fields = [replace(rel.schema.field(k), time=None) for k in keys]
    for m in measures:
        fields.append(Field(m.names[0], type_of(_as_fields(m.expr), rel.schema).nullable()))
    for variable, condition in define:
        check_boolean(_as_fields(condition), rel.schema, "DEFINE %s" % variable)
    return ops.MatchRecognize(
        schema=Schema(tuple(fields)).check_unique(), input=rel, partition_by=tuple(keys),
        order_by=tuple(order), pattern=tuple(pattern), define=tuple(define),
        measures=tuple(measures), after=after, within_ms=within_ms)


def _as_fields(expr: ex.Expr) -> ex.Expr:
    """A pattern expression with its variable references read as the fields they read (for
    its type)."""
    if isinstance(expr, ex.Call) and expr.name in ("first", "last", "prev"):
        return expr.args[1]
    if isinstance(expr, ex.Call) and expr.name == "pattern_rows":
        return _as_fields(expr.args[1])
    if isinstance(expr, ex.Call):
        return ex.Call(expr.name, tuple(_as_fields(a) for a in expr.args), expr.distinct)
    if isinstance(expr, ex.Cast):
        return ex.Cast(_as_fields(expr.expr), expr.to, expr.safe)
    return expr


def with_over(rel: ops.Rel, exprs: Sequence[ex.Expr],
              windows: Dict[str, ops.OverWindow]) -> Tuple[ops.Rel, List[ex.Expr]]:
    """An ``Over`` node computing each OVER aggregate of ``exprs``, and ``exprs`` reading them."""
    calls: Dict[ex.Expr, str] = {}
    resolved: Dict[ex.Expr, ex.OverCall] = {}
    for e in exprs:
        for node in ex.walk(e):
            if isinstance(node, ex.OverCall) and node not in calls:
                window = node.window
                if isinstance(window, ex.WindowRef):
                    if window.alias not in windows:
                        raise ValidationException("Over window alias '%s' is not defined." %
                                                  window.alias)
                    window = windows[window.alias]
                resolved[node] = ex.OverCall(node.agg, window)
                calls[node] = "__over%d" % len(calls)
    fields = tuple(Field(n, type_of(resolved[c].agg, rel.schema)) for c, n in calls.items())
    node = ops.Over(schema=Schema(rel.schema.fields + fields), input=rel,
                    aggregates=tuple(ex.Alias(resolved[c], (n,)) for c, n in calls.items()))
    mapping = {c: ex.Column(n) for c, n in calls.items()}
    return node, [_keep_name(_substitute(e, mapping), e, i, False, {}) for i, e in enumerate(exprs)]


def join(left: ops.Rel, right: ops.Rel, kind: str, condition: Optional[ex.Expr]) -> ops.Rel:
    """A join; the result has the fields of both sides (outer sides become nullable)."""
    left_fields = left.schema.fields
    right_fields = right.schema.fields
    if kind in ("right", "full"):
        left_fields = tuple(replace(f, data_type=f.data_type.nullable(), time=None)
                            for f in left_fields)
    if kind in ("left", "full"):
        right_fields = tuple(replace(f, data_type=f.data_type.nullable(), time=None)
                             for f in right_fields)
    if kind in ("semi", "anti"):
        schema = left.schema
        both = Schema(left.schema.fields + right.schema.fields)
    else:
        schema = Schema(left_fields + right_fields).check_unique()
        both = schema
    if condition is not None:
        check_boolean(condition, both, "Join")
    return ops.Join(schema=schema, left=left, right=right, kind=kind, condition=condition)


LOOKUP_CONNECTORS = ("jdbc",)  # connectors whose tables can be looked up by key


def temporal_join(left: ops.Rel, right: ops.Rel, kind: str, condition: Optional[ex.Expr],
                  time_field: str) -> ops.Rel:
    """``left JOIN right FOR SYSTEM_TIME AS OF left.time_field ON condition``: an event-time
    temporal join (a rowtime) or a lookup join (a proctime); the checks are Flink's."""
    time = left.schema.field(time_field).time
    if time is None:
        raise ValidationException(
            "Temporal table join currently only supports 'FOR SYSTEM_TIME AS OF' left table's "
            "time attribute field")
    if kind not in ("inner", "left"):
        raise ValidationException("Unsupported join type for a temporal table join: %s (INNER "
                                  "and LEFT joins are)." % kind.upper())
    if condition is None:
        raise ValidationException("Temporal table join requires an equality condition on "
                                  "fields of table '%s'." % _table_name(right))
    joined = join(left, right, kind, condition)
    if not _equated_right_fields(condition, left, right):
        raise ValidationException(
            "Currently the join key in Temporal Table Join can not be empty.")
    scan = _scan_under(right)
    if time == "proctime":
        if scan is None or scan.options.get("connector") not in LOOKUP_CONNECTORS:
            raise ValidationException(
                "Processing-time temporal join is not supported yet.")
    else:
        keys = _renamed_keys(right)
        if not keys:
            raise ValidationException(
                "Temporal Table Join requires primary key in versioned table, but no primary "
                "key can be found. The physical plan is:\n%s" % explain(joined))
        if right.schema.rowtime() is None:
            raise ValidationException(
                "Event-Time Temporal Table Join requires both primary key and row time "
                "attribute in versioned table, but no row time attribute can be found.")
        if not set(keys) <= _equated_right_fields(condition, left, right):
            raise ValidationException(
                "Temporal table's primary key [%s] must be included in the equivalence "
                "condition of temporal join, but current temporal join condition is [%s]."
                % (", ".join(keys), expression_string(condition)))
    return ops.TemporalJoin(schema=joined.schema, left=left, right=right, kind=kind,
                            condition=condition, time_field=time_field,
                            lookup=time == "proctime")


def _scan_under(rel: ops.Rel) -> Optional[ops.ConnectorScan]:
    """The connector scan a table reference is (through the projection that renames it)."""
    while isinstance(rel, ops.Project):
        rel = rel.input
    return rel if isinstance(rel, ops.ConnectorScan) else None


def _table_name(rel: ops.Rel) -> str:
    scan = _scan_under(rel)
    return scan.name if scan is not None else "?"


def _renamed_keys(rel: ops.Rel) -> Tuple[str, ...]:
    """The primary key of the table ``rel`` reads, by ``rel``'s field names."""
    if isinstance(rel, ops.ConnectorScan):
        return rel.primary_key
    if isinstance(rel, ops.Project):
        inner = _renamed_keys(rel.input)
        names = {}
        for e, f in zip(rel.exprs, rel.schema):
            e = e.expr if isinstance(e, ex.Alias) else e
            if isinstance(e, ex.Column):
                names[e.name] = f.name
        return tuple(names[k] for k in inner) if all(k in names for k in inner) else ()
    return ()


def _equated_right_fields(condition: ex.Expr, left: ops.Rel, right: ops.Rel) -> set:
    """The right-hand fields a conjunct of ``condition`` equates to a left-hand expression."""
    found = set()
    for term in conjuncts(condition):
        if isinstance(term, ex.Call) and term.name == "equals":
            for a, b in (term.args, term.args[::-1]):
                if isinstance(a, ex.Column) and right.schema.has(a.name) and not any(
                        isinstance(c, ex.Column) and right.schema.has(c.name)
                        for c in ex.walk(b)):
                    found.add(a.name)
    return found


def table_aggregate_rows(rel: ops.Rel, column: str) -> ops.Rel:
    """The rows of a table aggregate function's results in ``column`` (see
    ``ops.TableAggregateRows``): the other columns, then the rows' fields."""
    row_type = rel.schema.field(column).data_type.fields[1].data_type.element_type
    others = [f for f in rel.schema if f.name != column]
    taken = {f.name for f in others}
    for f in row_type.fields:
        if f.name in taken:
            raise ValidationException("Ambiguous column name: %s" % f.name)
    return ops.TableAggregateRows(schema=Schema(tuple(others) + tuple(
        Field(f.name, f.data_type) for f in row_type.fields)), input=rel, column=column)


def set_op(left: ops.Rel, right: ops.Rel, kind: str, all: bool) -> ops.Rel:
    if len(left.schema) != len(right.schema):
        raise ValidationException(
            "%s two tables of different column sizes: %d and %d." % (
                kind.capitalize(), len(left.schema), len(right.schema)))
    fields = []
    for a, b in zip(left.schema.fields, right.schema.fields):
        common = type_rules.common_type([a.data_type, b.data_type])
        if common is None:
            raise ValidationException("Type mismatch in %s: %s and %s." % (
                kind, a.data_type.summary_string(), b.data_type.summary_string()))
        fields.append(Field(a.name, common))
    return ops.SetOp(schema=Schema(tuple(fields)), left=left, right=right, kind=kind, all=all)


def sort(rel: ops.Rel, keys: Sequence[ex.Expr] = (), offset: int = 0,
         fetch: Optional[int] = None) -> ops.Rel:
    orderings = tuple(k if isinstance(k, ex.Ordering) else ex.Ordering(k) for k in keys)
    for o in orderings:
        type_of(o.expr, rel.schema)
    if isinstance(rel, ops.Sort) and not orderings:  # offset/fetch after order_by
        return replace(rel, offset=rel.offset + offset,
                       fetch=fetch if rel.fetch is None or fetch is None
                       else min(fetch, max(rel.fetch - offset, 0)))
    return ops.Sort(schema=rel.schema, input=rel, keys=orderings, offset=offset, fetch=fetch)


def distinct(rel: ops.Rel) -> ops.Rel:
    return ops.Distinct(schema=rel.schema.without_time_attributes(), input=rel)


CHANGE_NAMES = ("INSERT", "UPDATE_BEFORE", "UPDATE_AFTER", "DELETE")  # by row kind value


def to_changelog(rel: ops.Rel) -> ops.Rel:
    """Each change of ``rel`` as an inserted row led by its kind's name, ``op``."""
    if "op" in rel.schema.names:
        raise ValidationException("to_changelog() adds a column 'op', which the table has: "
                                  "rename it first.")
    return ops.ToChangelog(schema=Schema((Field("op", DataTypes.STRING()),)
                                         + rel.schema.without_time_attributes().fields),
                           input=rel)


def from_changelog(rel: ops.Rel, op: str = "op") -> ops.Rel:
    """The rows of append-only ``rel`` as the changes its ``op`` column names (INSERT,
    UPDATE_BEFORE, UPDATE_AFTER, DELETE), without that column."""
    field = next((f for f in rel.schema.fields if f.name == op), None)
    if field is None or not isinstance(field.data_type, (CharType, VarCharType)):
        raise ValidationException(
            "from_changelog() reads the change of each row from a STRING column '%s'; the "
            "table's fields are [%s]." % (op, ", ".join(rel.schema.names)))
    return ops.FromChangelog(schema=Schema(tuple(f for f in rel.schema.fields if f.name != op)),
                             input=rel, op=op)


def rename_all(rel: ops.Rel, names: Sequence[str]) -> ops.Rel:
    """The same fields under ``names`` (the first ``len(names)`` fields)."""
    if len(names) > len(rel.schema):
        raise ValidationException(
            "Aliasing more fields than we actually have: %d names for %d fields." %
            (len(names), len(rel.schema)))
    exprs = [ex.Alias(ex.Column(f.name), (n,)) if n != f.name else ex.Column(f.name)
             for f, n in zip(rel.schema.fields, names)]
    exprs += [ex.Column(f.name) for f in rel.schema.fields[len(names):]]
    return project(rel, exprs)


def drop(rel: ops.Rel, names: Sequence[str]) -> ops.Rel:
    for n in names:
        rel.schema.field(n)
    return project(rel, [ex.Column(n) for n in rel.schema.names if n not in names])


def add_columns(rel: ops.Rel, exprs: Sequence[ex.Expr], replace_existing: bool) -> ops.Rel:
    exprs = _expand_all(exprs, rel.schema)
    new = {output_name(e, len(rel.schema) + i): e for i, e in enumerate(exprs)}
    if not replace_existing:
        clash = [n for n in new if rel.schema.has(n)]
        if clash:
            raise ValidationException("Field names must be unique, %s already exist(s)." %
                                      ", ".join(clash))
    kept = [new.pop(n) if n in new and replace_existing else ex.Column(n)
            for n in rel.schema.names]
    kept = [e if isinstance(e, ex.Alias) or not isinstance(e, ex.Column) or e.name == n
            else ex.Alias(e, (n,)) for e, n in zip(kept, rel.schema.names)]
    kept = [e if isinstance(e, (ex.Column, ex.Alias)) else ex.Alias(e, (n,))
            for e, n in zip(kept, rel.schema.names)]
    return project(rel, kept + list(new.values()))


def whole_row(schema: Schema) -> ex.Expr:
    """The row of all of ``schema``'s columns, each field named as its column: what a
    Python function given a whole row (``map``, ``flat_map``) is called with."""
    return ex.Call("row", tuple(ex.Alias(ex.Column(n), (n,)) for n in schema.names))


TEXTS = (CharType, VarCharType)
BYTES = (BinaryType, VarBinaryType)


def into_sink(rel: ops.Rel, columns: Schema, not_null: str) -> ops.Rel:
    """``rel`` as an INSERT writes it into a table of ``columns``: a text or binary value
    cast to its column's type (Flink's implicit cast: a CHAR(n) padded, a VARCHAR(n) cut),
    and a NULL in a NOT NULL column failing the job (``not_null`` 'ERROR') or its row left
    out ('DROP'), as Flink's ``table.exec.sink.not-null-enforcer`` says."""
    exprs, required = [], []
    for source, target in zip(rel.schema, columns):
        expr: ex.Expr = ex.Column(source.name)
        if source.data_type.nullable() != target.data_type.nullable() and any(
                isinstance(source.data_type, family) and isinstance(target.data_type, family)
                for family in (TEXTS, BYTES)):
            expr = ex.Cast(expr, target.data_type.nullable())
        if not target.data_type.is_nullable and source.data_type.is_nullable:
            required.append(source.name)
            if not_null == "ERROR":
                expr = ex.Call("sink_not_null", (expr, ex.Literal(
                    "Column '%s' is NOT NULL, however, a null value is being written into "
                    "it. You can set job configuration 'table.exec.sink.not-null-enforcer'="
                    "'DROP' to suppress this exception and drop such records silently."
                    % target.name, DataTypes.STRING().not_null())))
        exprs.append(expr if expr == ex.Column(source.name) else
                     ex.Alias(expr, (source.name,)))
    if not_null == "DROP" and required:
        rel = filter_(rel, functools.reduce(
            lambda a, b: ex.Call("and", (a, b)),
            [ex.Call("is_not_null", (ex.Column(n),)) for n in required]))
    if all(e == ex.Column(f.name) for e, f in zip(exprs, rel.schema)):
        return rel
    return project(rel, exprs)
