"""``Table``: a relational query, as in PyFlink's ``pyflink.table.Table``.

Each method returns a new Table over a bigger relational tree (``pystream.relational``); nothing
runs until ``execute()``, ``execute_insert()`` or ``to_pandas()``.
"""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, Union

from pystream.common.data_types import DataTypes
from pystream.errors import UnsupportedFeatureError
from pystream.relational import build
from pystream.relational import expressions as ex
from pystream.relational import operations as ops
from pystream.relational.resolve import output_name
from pystream.table.expression import Expression, to_node
from pystream.table.expressions import call_sql
from pystream.table.table_pipeline import TablePipeline
from pystream.table.table_schema import TableSchema
from pystream.table.window import GroupWindow, OverWindow
from pystream.util.exceptions import ValidationException

if TYPE_CHECKING:  # pragma: no cover
    from pystream.table.table_environment import TableEnvironment
    from pystream.table.table_result import TableResult

__all__ = ["Table", "GroupedTable", "GroupWindowedTable", "WindowGroupedTable",
           "OverWindowedTable"]


def _nodes(fields, t_env) -> List[ex.Expr]:
    """Expression nodes of select-like arguments (Expressions, or strings of SQL
    expressions); calls of functions registered in ``t_env`` become calls of those."""
    result = []
    for f in fields:
        if isinstance(f, str):
            result.extend(_split_select_string(f, call_sql))
        else:
            result.append(to_node(f))
    return [t_env._with_user_functions(node) for node in result]


def _split_select_string(text: str, call_sql) -> List[ex.Expr]:
    return [call_sql(part)._node for part in _top_level_commas(text)]


def _top_level_commas(text: str) -> List[str]:
    parts, depth, current, quoted = [], 0, [], False
    for ch in text:
        if ch == "'":
            quoted = not quoted
        elif not quoted and ch == "(":
            depth += 1
        elif not quoted and ch == ")":
            depth -= 1
        elif not quoted and ch == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    parts.append("".join(current).strip())
    return [p for p in parts if p]


class Table:
    """A table: the result of relational operations on sources, computed lazily."""

    def __init__(self, rel: ops.Rel, t_env: "TableEnvironment"):
        self._rel = rel
        self._t_env = t_env

    def _with(self, rel: ops.Rel) -> "Table":
        return Table(rel, self._t_env)

    # projection and filtering
    def select(self, *fields: Union[Expression, str]) -> "Table":
        """Selects fields and expressions (aggregates without group_by aggregate all rows)."""
        return self._with(build.project(self._rel, _nodes(fields, self._t_env)))

    def where(self, predicate: Union[Expression, str]) -> "Table":
        """Keeps the rows for which ``predicate`` is true."""
        return self._with(build.filter_(self._rel, _nodes([predicate], self._t_env)[0]))

    filter = where

    def add_columns(self, *fields: Union[Expression, str]) -> "Table":
        return self._with(build.add_columns(self._rel, _nodes(fields, self._t_env),
                                            replace_existing=False))

    def add_or_replace_columns(self, *fields: Union[Expression, str]) -> "Table":
        return self._with(build.add_columns(self._rel, _nodes(fields, self._t_env),
                                            replace_existing=True))

    def rename_columns(self, *fields: Union[Expression, str]) -> "Table":
        """Renames fields: ``rename_columns(col('a').alias('x'))``."""
        renames = {}
        for node in _nodes(fields, self._t_env):
            if not (isinstance(node, ex.Alias) and isinstance(node.expr, ex.Column)):
                raise ValidationException("rename_columns expects field.alias(name), not %s" %
                                          node)
            self._rel.schema.field(node.expr.name)
            renames[node.expr.name] = node.names[0]
        names = [renames.get(n, n) for n in self._rel.schema.names]
        return self._with(build.rename_all(self._rel, names))

    def drop_columns(self, *fields: Union[Expression, str]) -> "Table":
        names = []
        for node in _nodes(fields, self._t_env):
            if not isinstance(node, ex.Column):
                raise ValidationException("drop_columns expects field references, not %s" % node)
            names.append(node.name)
        return self._with(build.drop(self._rel, names))

    def alias(self, field: str, *fields: str) -> "Table":
        """Renames all fields in order: ``alias('a', 'b')``."""
        names = [to_node(f).name if isinstance(f, Expression) else f for f in (field,) + fields]
        return self._with(build.rename_all(self._rel, names))

    def distinct(self) -> "Table":
        return self._with(build.distinct(self._rel))

    # changelogs as tables
    def to_changelog(self, *arguments: Expression) -> "Table":
        """This table's changes as an append-only table, each led by an ``op`` column naming
        its kind (INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE)."""
        _no_changelog_arguments("to_changelog", arguments)
        return self._with(build.to_changelog(self._rel))

    def from_changelog(self, *arguments: Expression) -> "Table":
        """This append-only table's rows as the changes its ``op`` column names (INSERT,
        UPDATE_BEFORE, UPDATE_AFTER, DELETE), without that column."""
        _no_changelog_arguments("from_changelog", arguments)
        return self._with(build.from_changelog(self._rel))

    # grouping and windows
    def group_by(self, *fields: Union[Expression, str]) -> "GroupedTable":
        return GroupedTable(self, _nodes(fields, self._t_env))

    def aggregate(self, func) -> "AggregatedTable":
        """Aggregates all rows with an aggregate function whose ROW result becomes columns;
        then ``select`` from them."""
        return AggregatedTable(self, _aggregated(self, [], func))

    def flat_aggregate(self, func):
        return GroupedTable(self, []).flat_aggregate(func)

    def window(self, window: GroupWindow) -> "GroupWindowedTable":
        return GroupWindowedTable(self, window)

    def over_window(self, *over_windows: OverWindow) -> "OverWindowedTable":
        return OverWindowedTable(self, over_windows)

    # joins
    def join(self, right: "Table", join_predicate: Union[Expression, str] = None) -> "Table":
        return self._join(right, "inner", join_predicate)

    def left_outer_join(self, right: "Table",
                        join_predicate: Union[Expression, str] = None) -> "Table":
        return self._join(right, "left", join_predicate)

    def right_outer_join(self, right: "Table",
                         join_predicate: Union[Expression, str]) -> "Table":
        return self._join(right, "right", join_predicate)

    def full_outer_join(self, right: "Table",
                        join_predicate: Union[Expression, str]) -> "Table":
        return self._join(right, "full", join_predicate)

    def _join(self, right: "Table", kind: str, predicate) -> "Table":
        self._check_same_env(right)
        condition = None if predicate is None else _nodes([predicate], self._t_env)[0]
        return self._with(build.join(self._rel, right._rel, kind, condition))

    def join_lateral(self, table_function_call: Union[Expression, str],
                     join_predicate: Union[Expression, str] = None) -> "Table":
        """Joins each row with the rows a table function (udtf) gives for it."""
        return self._lateral(table_function_call, "inner", join_predicate)

    def left_outer_join_lateral(self, table_function_call: Union[Expression, str],
                                join_predicate: Union[Expression, str] = None) -> "Table":
        """As ``join_lateral``, keeping rows the function gives nothing for (with NULLs)."""
        return self._lateral(table_function_call, "left", join_predicate)

    def map(self, func: Union[Expression, Any]) -> "Table":
        """One row per row from a scalar function (udf): a ROW result becomes its fields
        (named as the ROW's), any other result one column ``_c0``. A function given alone is
        called with the whole row."""
        if not isinstance(func, Expression):
            func = func(Expression(build.whole_row(self._rel.schema)))
        call = _nodes([func], self._t_env)[0]
        result = build.type_of(call, self._rel.schema)
        if not hasattr(result, "fields"):
            return self._with(build.project(self._rel, [call]))
        exprs = [ex.Alias(ex.Call("get", (call, to_node(f.name))), (f.name,))
                 for f in result.fields]
        return self._with(build.project(self._rel, exprs))

    def flat_map(self, func: Union[Expression, Any]) -> "Table":
        """The rows a table function gives for each row (called with the whole row)."""
        call = func if isinstance(func, Expression) else func()
        return self._with(build.correlate(self._rel, _nodes([call], self._t_env)[0],
                                          keep_input=False))

    def _lateral(self, call, kind: str, predicate) -> "Table":
        call = call if isinstance(call, (Expression, str)) else call()
        condition = None if predicate is None else _nodes([predicate], self._t_env)[0]
        return self._with(build.correlate(self._rel, _nodes([call], self._t_env)[0], kind,
                                          condition))

    def _check_same_env(self, other: "Table") -> None:
        if other._t_env is not self._t_env:
            raise ValidationException("Only tables from the same TableEnvironment can be joined.")

    # sorting and limits
    def order_by(self, *fields: Union[Expression, str]) -> "Table":
        return self._with(build.sort(self._rel, _nodes(fields, self._t_env)))

    def offset(self, offset: int) -> "Table":
        return self._with(build.sort(self._rel, (), offset=offset))

    def fetch(self, fetch: int) -> "Table":
        return self._with(build.sort(self._rel, (), fetch=fetch))

    def limit(self, fetch: int, offset: int = 0) -> "Table":
        return self._with(build.sort(self._rel, (), offset=offset, fetch=fetch))

    # set operations
    def union(self, right: "Table") -> "Table":
        return self._set_op(right, "union", False)

    def union_all(self, right: "Table") -> "Table":
        return self._set_op(right, "union", True)

    def intersect(self, right: "Table") -> "Table":
        return self._set_op(right, "intersect", False)

    def intersect_all(self, right: "Table") -> "Table":
        return self._set_op(right, "intersect", True)

    def minus(self, right: "Table") -> "Table":
        return self._set_op(right, "minus", False)

    def minus_all(self, right: "Table") -> "Table":
        return self._set_op(right, "minus", True)

    def _set_op(self, right: "Table", kind: str, all: bool) -> "Table":
        self._check_same_env(right)
        return self._with(build.set_op(self._rel, right._rel, kind, all))

    # schema and plans
    def get_schema(self) -> TableSchema:
        return TableSchema.of(self._rel.schema)

    def get_resolved_schema(self) -> TableSchema:
        return TableSchema.of(self._rel.schema)

    def print_schema(self) -> None:
        print(self.get_schema().summary())

    def explain(self, *extra_details) -> str:
        return self._t_env.explain_internal(self._rel)

    def print_explain(self, *extra_details) -> None:
        """Prints ``explain()``."""
        print(self.explain(*extra_details))

    # running
    def execute(self) -> "TableResult":
        """Runs the query; its rows come from ``collect()`` or ``print()`` of the result."""
        return self._t_env.execute_query_internal(self._rel)

    def execute_insert(self, table_path_or_descriptor, overwrite: bool = False) -> "TableResult":
        """Writes the rows into a registered table (or one described by a TableDescriptor)."""
        return self._t_env.execute_insert_internal(self._rel, table_path_or_descriptor, overwrite)

    def insert_into(self, table_path_or_descriptor, overwrite: bool = False):
        """An INSERT of the rows into a registered table (or one a TableDescriptor
        describes), not yet run: ``execute()`` it, or add it to a StatementSet."""
        return TablePipeline(self, table_path_or_descriptor, overwrite)

    def to_pandas(self):
        """The rows as a pandas DataFrame (the final rows of an updating table)."""
        return self._t_env._to_pandas(self._rel)

    def __getattr__(self, name: str) -> Expression:
        """A column by attribute (``table.word``), as PyFlink allows."""
        if name.startswith("_") or not self._rel.schema.has(name):
            raise AttributeError("The table has no field named '%s'; fields: [%s]." % (
                name, ", ".join(self._rel.schema.names)))
        return Expression(ex.Column(name))

    def __str__(self) -> str:
        """A name to use inside SQL: ``f"SELECT * FROM {table}"``."""
        return self._t_env._anonymous_name(self)

    __repr__ = __str__


class GroupedTable:
    """A table grouped by keys: ``select`` aggregates per key."""

    def __init__(self, table: Table, keys: List[ex.Expr]):
        self._table = table
        self._keys = keys

    def select(self, *fields: Union[Expression, str]) -> Table:
        rel = build.aggregate(self._table._rel, self._keys,
                              _nodes(fields, self._table._t_env))
        return self._table._with(rel)

    def aggregate(self, func) -> "AggregatedTable":
        """Aggregates each group with an aggregate function whose ROW result becomes columns
        (``agg.alias('c', 'd')``: called with the whole row; or ``agg(col('b'))``); then
        ``select`` the keys and those columns."""
        return AggregatedTable(self._table, _aggregated(self._table, self._keys, func))

    def flat_aggregate(self, func) -> "FlatAggregateTable":
        """The rows a table aggregate function (``udtaf``) emits per group: ``udtaf``
        alone (called with the whole row), ``f.alias('a', 'b')`` or ``f(col('x'))``; then
        ``select`` the keys and those rows' fields. In STREAMING mode a group's rows are
        retracted (-D) and emitted again (+I) as its records come."""
        return FlatAggregateTable(self._table, _aggregated(self._table, self._keys, func,
                                                           table_aggregate=True))


class AggregatedTable:
    """The result of ``aggregate``: ``select`` from the keys and the function's columns."""

    def __init__(self, table: Table, rel: ops.Rel):
        self._table = table
        self._rel = rel

    def select(self, *fields: Union[Expression, str]) -> Table:
        aggregated = self._table._with(self._rel)
        return aggregated.select(*fields)


class FlatAggregateTable(AggregatedTable):
    """The result of ``flat_aggregate``: ``select`` from the keys and the rows' fields."""


def _aggregate_call(table: Table, func) -> Tuple[ex.Expr, Tuple[str, ...]]:
    """The call of the aggregate function ``aggregate``/``flat_aggregate`` were given (called
    with the whole row when given alone) and the names its alias gives its fields."""
    node = to_node(func) if isinstance(func, Expression) else \
        to_node(func()) if hasattr(func, "is_aggregate_function") else \
        _nodes([func], table._t_env)[0]
    names: Tuple[str, ...] = ()
    if isinstance(node, ex.Alias):
        names, node = node.names, node.expr
    node = table._t_env._with_user_functions(node)
    if isinstance(node, ex.UserCall) and not node.args:  # the whole row, as one Row
        node = dataclasses.replace(node, args=(build.whole_row(table._rel.schema),))
    return node, names


def _aggregated(table: Table, keys: List[ex.Expr], func,
                table_aggregate: bool = False) -> ops.Rel:
    """``keys`` and the columns of ``func``'s result per group (a ROW's fields, named by
    the call's alias or the ROW's names); of a table aggregate function, the rows it
    emits."""
    node, names = _aggregate_call(table, func)
    is_table = getattr(getattr(node, "function", None), "is_table_aggregate", False)
    if is_table != table_aggregate:
        raise ValidationException(
            "flat_aggregate takes a table aggregate function (udtaf)" if table_aggregate
            else "aggregate takes an aggregate function (udaf); flat_aggregate a udtaf")
    rel = build.aggregate(table._rel, keys, list(keys) + [ex.Alias(node, ("__agg",))])
    key_names = rel.schema.names[:len(keys)]
    if is_table:  # the rows it emits, their fields as columns
        rel = build.table_aggregate_rows(rel, "__agg")
        fields = list(rel.schema.names[len(keys):])
        produced = [ex.Column(f) for f in fields]
    else:
        result = rel.schema.field("__agg").data_type
        fields = [f.name for f in result.fields] if hasattr(result, "fields") else ["_c0"]
        produced = [ex.Call("get", (ex.Column("__agg"), to_node(f))) for f in fields] \
            if hasattr(result, "fields") else [ex.Column("__agg")]
    if names and len(names) != len(fields):
        raise ValidationException("The function's result has %d fields, the alias names %d."
                                  % (len(fields), len(names)))
    columns = [ex.Alias(p, (n,)) for p, n in zip(produced, names or fields)]
    return build.project(rel, [ex.Column(k) for k in key_names] + columns)


class GroupWindowedTable:
    """A table with a group window: ``group_by`` names the window alias and the keys."""

    def __init__(self, table: Table, window: GroupWindow):
        self._table = table
        self._window = window._window

    def group_by(self, *fields: Union[Expression, str]) -> "WindowGroupedTable":
        keys = _nodes(fields, self._table._t_env)
        aliases = [k for k in keys if isinstance(k, ex.Column) and k.name == self._window.alias]
        if not aliases:
            raise ValidationException(
                "A group window must be part of group_by: group_by(col('%s'), ...)."
                % self._window.alias)
        return WindowGroupedTable(self._table, self._window, keys)


class WindowGroupedTable:
    def __init__(self, table: Table, window, keys: List[ex.Expr]):
        self._table = table
        self._window = window
        self._keys = keys

    def select(self, *fields: Union[Expression, str]) -> Table:
        rel = build.window_aggregate(self._table._rel, self._window, self._keys,
                                     _nodes(fields, self._table._t_env))
        return self._table._with(rel)

    def aggregate(self, func) -> "WindowAggregatedTable":
        """Aggregates each window and group with an aggregate function whose ROW result
        becomes columns (``agg.alias('c', 'd')``: called with the whole row; or
        ``agg(col('b'))``); then ``select`` the keys, those columns and the window's
        properties (``col('w').start``)."""
        return WindowAggregatedTable(self, *_aggregate_call(self._table, func))


class WindowAggregatedTable:
    """The result of a window's ``aggregate``: ``select`` from the keys, the function's
    columns and the window's properties."""

    def __init__(self, grouped: WindowGroupedTable, call: ex.Expr, names: Tuple[str, ...]):
        self._grouped = grouped
        self._call = call
        self._names = names

    def select(self, *fields: Union[Expression, str]) -> Table:
        grouped, table = self._grouped, self._grouped._table
        result = getattr(self._call, "function", None)
        result = getattr(result, "result_type", None)
        fields_of = [f.name for f in result.fields] if hasattr(result, "fields") else []
        if not fields_of:
            raise ValidationException("aggregate() of a window takes an aggregate function "
                                      "with a ROW result.")
        if self._names and len(self._names) != len(fields_of):
            raise ValidationException("The function's result has %d fields, the alias names "
                                      "%d." % (len(fields_of), len(self._names)))
        produced = {name: ex.Call("get", (self._call, ex.Literal(field, DataTypes.STRING())))
                    for name, field in zip(self._names or fields_of, fields_of)}
        exprs: List[ex.Expr] = []
        unnamed = 0
        for expr in _nodes(fields, table._t_env):
            if isinstance(expr, ex.Column):  # a key or one of the function's fields
                expr = ex.Alias(_with_columns(expr, produced), (expr.name,))
            elif not isinstance(expr, ex.Alias):  # as Flink names them: EXPR$0, EXPR$1, ...
                expr, unnamed = ex.Alias(expr, ("EXPR$%d" % unnamed,)), unnamed + 1
            exprs.append(_with_columns(expr, produced))
        return table._with(build.window_aggregate(table._rel, grouped._window, grouped._keys,
                                                  exprs))


def _with_columns(expr: ex.Expr, columns: Dict[str, ex.Expr]) -> ex.Expr:
    """``expr`` with its references to ``columns`` replaced by their expressions."""
    if isinstance(expr, ex.Column) and expr.name in columns:
        return columns[expr.name]
    if isinstance(expr, (ex.Call, ex.UserCall)):
        return dataclasses.replace(expr, args=tuple(_with_columns(a, columns)
                                                    for a in expr.args))
    if isinstance(expr, (ex.Alias, ex.Cast)):
        return dataclasses.replace(expr, expr=_with_columns(expr.expr, columns))
    return expr



class OverWindowedTable:
    """A table with over windows: ``select`` may use ``agg.over(col('w'))``."""

    def __init__(self, table: Table, windows):
        self._table = table
        self._windows = {w._window.alias: w._window for w in windows}

    def select(self, *fields: Union[Expression, str]) -> Table:
        rel = self._table._rel
        exprs = build._expand_all(_nodes(fields, self._table._t_env), rel.schema)
        over_rel, rewritten = build.with_over(rel, exprs, self._windows)
        return self._table._with(build.project(over_rel, [
            e if isinstance(e, ex.Alias) else ex.Alias(e, (output_name(orig, i),))
            if not isinstance(orig, ex.Column) else e
            for i, (e, orig) in enumerate(zip(rewritten, exprs))]))


def table_name_of(value: Optional[Union[str, Table]]) -> Optional[str]:
    return value if value is None or isinstance(value, str) else str(value)


def _no_changelog_arguments(method: str, arguments) -> None:
    if arguments:
        raise UnsupportedFeatureError(
            "%s() with arguments (op, op_mapping): only its default form, an 'op' column of "
            "INSERT, UPDATE_BEFORE, UPDATE_AFTER and DELETE" % method)
