"""Relational nodes: what a Table is, as a frozen tree (the Table half of the job graph).

``Table`` methods and Flink SQL build these; each node carries the ``schema`` of its result,
derived and checked when it was built (``pystream.relational.build``), so an unknown column
fails at the call that named it, as in PyFlink. Expressions inside nodes are resolved against
the input's schema. The compiler has one translation per node type.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Optional, Tuple

from pystream.relational.expressions import Expr, Ordering
from pystream.relational.schema import Schema

__all__ = ["Rel", "Values", "ConnectorScan", "StreamScan", "Project", "Correlate", "Filter",
           "Aggregate",
           "Join", "SetOp", "Sort", "Distinct", "GroupWindow", "WindowAggregate", "OverWindow",
           "Over", "walk"]


@dataclass(frozen=True, eq=False, kw_only=True)
class Rel:
    """A relational node; equality is identity, ``schema`` is its result's fields."""

    schema: Schema

    @property
    def inputs(self) -> Tuple["Rel", ...]:
        return ()


# -- sources ---------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False, kw_only=True)
class Values(Rel):
    """Rows given by the program (``from_elements``, ``from_pandas``, SQL ``VALUES``);
    ``position``: the place of the first row among a VALUES clause's rows (rows of
    expressions are each a Values of their own, united: they keep their order)."""

    rows: Tuple[tuple, ...] = field(repr=False)
    position: int = 0


@dataclass(frozen=True, eq=False, kw_only=True)
class ConnectorScan(Rel):
    """A table of a connector (``'connector' = 'datagen'``, filesystem, kafka, ...).

    ``physical`` are the connector's own fields (the schema less computed columns);
    ``computed`` the computed columns, by name; ``watermark`` the rowtime field and its
    watermark expression.
    """

    name: str
    options: Dict[str, str] = field(hash=False)
    physical: Schema
    computed: Tuple[Tuple[str, Expr], ...] = ()
    watermark: Optional[Tuple[str, Expr]] = None
    primary_key: Tuple[str, ...] = ()
    partition_keys: Tuple[str, ...] = ()
    bounded: bool = True
    metadata: Tuple[Tuple[str, str], ...] = ()  # METADATA columns: (column, connector's key)


@dataclass(frozen=True, eq=False, kw_only=True)
class StreamScan(Rel):
    """A DataStream as a table (``from_data_stream``): ``node`` is the ``pystream.graph`` node
    of its records (a KeyedStream's values), ``settings`` its environment's
    ``pystream.plan.JobSettings``; ``changelog`` for a changelog stream; ``unique_key``: the
    fields no two of its rows share (an upsert changelog's primary key)."""

    node: Any
    settings: Any
    columns: Tuple[Tuple[str, Expr], ...] = ()
    watermark: Optional[Tuple[str, Expr]] = None
    changelog: bool = False
    unique_key: Tuple[str, ...] = ()


# -- operators -------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False, kw_only=True)
class Project(Rel):
    """One output field per expression (``select``, ``add_columns``, renames...)."""

    input: Rel
    exprs: Tuple[Expr, ...]

    @property
    def inputs(self):
        return (self.input,)


@dataclass(frozen=True, eq=False, kw_only=True)
class TableAggregateRows(Rel):
    """The rows a table aggregate function emits (``flat_aggregate``): each input row's
    ``column`` holds them (``__rows``, an array of ROWs); the other columns (the group
    keys), then the rows' fields. In a changelog, the rows of a result that is replaced
    are deleted (-D) and the new result's rows inserted (+I), as Flink's table aggregates
    emit."""

    input: Rel
    column: str

    @property
    def inputs(self):
        return (self.input,)


@dataclass(frozen=True, eq=False, kw_only=True)
class Correlate(Rel):
    """Each input row joined with the rows a table function gives for it (``join_lateral``,
    ``flat_map``): ``call`` is a UserCall of the function; ``kind`` 'inner' or 'left'
    (a row with no result kept, with NULLs); ``keep_input`` False keeps only the function's
    fields (``flat_map``)."""

    input: Rel
    call: Expr
    kind: str = "inner"
    keep_input: bool = True

    @property
    def inputs(self):
        return (self.input,)


@dataclass(frozen=True, eq=False, kw_only=True)
class Expand(Rel):
    """Each input row once per projection, in their order (GROUPING SETS: a row per set,
    the keys the set leaves out NULL)."""

    input: Rel
    projections: Tuple[Tuple[Expr, ...], ...]

    @property
    def inputs(self):
        return (self.input,)


@dataclass(frozen=True, eq=False, kw_only=True)
class Unnest(Rel):
    """Each input row joined with the elements of an array (or a multiset, or a map's
    entries: key and value) it holds (``CROSS JOIN UNNEST(arr) AS t(e)``); the fields of an
    array of rows become columns; ``ordinality``: each element's position from 1, last;
    ``kind`` 'left' keeps a row with no elements, with NULLs."""

    input: Rel
    collection: Expr
    kind: str = "inner"
    ordinality: bool = False

    @property
    def inputs(self):
        return (self.input,)


@dataclass(frozen=True, eq=False, kw_only=True)
class Filter(Rel):
    input: Rel
    condition: Expr

    @property
    def inputs(self):
        return (self.input,)


@dataclass(frozen=True, eq=False, kw_only=True)
class Aggregate(Rel):
    """GROUP BY ``keys``: one row per key with the ``aggregates`` (named ``Call``s)."""

    input: Rel
    keys: Tuple[Expr, ...]
    aggregates: Tuple[Expr, ...]

    @property
    def inputs(self):
        return (self.input,)


@dataclass(frozen=True, eq=False, kw_only=True)
class Join(Rel):
    """``kind``: inner, left, right, full, semi, anti; ``condition`` over both inputs."""

    left: Rel
    right: Rel
    kind: str
    condition: Optional[Expr] = None

    @property
    def inputs(self):
        return (self.left, self.right)


@dataclass(frozen=True, eq=False, kw_only=True)
class TemporalJoin(Rel):
    """``JOIN right FOR SYSTEM_TIME AS OF left.time ON ...``: each left row joined with the
    right table's rows as they were at the left row's ``time_field``. An event-time
    attribute makes it an event-time temporal join against a versioned table (a primary
    key and a watermark); a processing-time one a lookup join (the rows as they are when
    the left row is processed). ``kind`` is inner or left."""

    left: Rel
    right: Rel
    kind: str
    condition: Expr
    time_field: str
    lookup: bool

    @property
    def inputs(self):
        return (self.left, self.right)


@dataclass(frozen=True, eq=False, kw_only=True)
class SetOp(Rel):
    """``kind``: union, intersect, minus; ``all`` keeps duplicates."""

    left: Rel
    right: Rel
    kind: str
    all: bool

    @property
    def inputs(self):
        return (self.left, self.right)


@dataclass(frozen=True, eq=False, kw_only=True)
class Sort(Rel):
    """ORDER BY ``keys`` then OFFSET / FETCH (``keys`` may be empty for a plain LIMIT)."""

    input: Rel
    keys: Tuple[Ordering, ...] = ()
    offset: int = 0
    fetch: Optional[int] = None

    @property
    def inputs(self):
        return (self.input,)


@dataclass(frozen=True, eq=False, kw_only=True)
class Distinct(Rel):
    input: Rel

    @property
    def inputs(self):
        return (self.input,)


@dataclass(frozen=True, eq=False, kw_only=True)
class ToChangelog(Rel):
    """TO_CHANGELOG (``Table.to_changelog()``): each change of ``input`` as an inserted row,
    led by an ``op`` column naming its kind (INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE)."""

    input: Rel

    @property
    def inputs(self):
        return (self.input,)


@dataclass(frozen=True, eq=False, kw_only=True)
class FromChangelog(Rel):
    """FROM_CHANGELOG (``Table.from_changelog()``): the rows of an append-only ``input`` as
    the changes its ``op`` column names, without that column."""

    input: Rel
    op: str = "op"

    @property
    def inputs(self):
        return (self.input,)


@dataclass(frozen=True, eq=False, kw_only=True)
class GroupWindow:
    """A group window: ``kind`` tumble, slide (hop), session or cumulate, on ``time_field``.

    Sizes are in milliseconds (time windows) or rows (count windows, ``rows=True``).
    """

    kind: str
    time_field: str
    alias: Optional[str] = None
    size: Optional[int] = None
    slide: Optional[int] = None
    gap: Optional[int] = None
    rows: bool = False


@dataclass(frozen=True, eq=False, kw_only=True)
class WindowAggregate(Rel):
    """Aggregates per window and key; ``properties`` are the window's start/end/rowtime fields
    (named ``Call('window_start', ...)`` and so on), placed after the keys and aggregates."""

    input: Rel
    window: GroupWindow
    keys: Tuple[Expr, ...]
    aggregates: Tuple[Expr, ...]
    properties: Tuple[Expr, ...] = ()

    @property
    def inputs(self):
        return (self.input,)


@dataclass(frozen=True, eq=False, kw_only=True)
class WindowTable(Rel):
    """The rows of a window table function (``TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), ...))``)
    that no GROUP BY aggregates: the input's fields, then window_start, window_end and
    window_time, one row per window each record falls in."""

    input: Rel
    window: GroupWindow

    @property
    def inputs(self):
        return (self.input,)


@dataclass(frozen=True, eq=False, kw_only=True)
class MatchRecognize(Rel):
    """``MATCH_RECOGNIZE``, one row per match: the partition fields, then the measures.

    ``pattern`` holds (variable, min, max or None, greedy) per element; ``define`` each
    variable's condition. In DEFINE and MEASURES, ``last(Symbol(v), Column(f), n)`` /
    ``first(...)`` read field ``f`` of variable ``v``'s n-th row from the end / start
    (``v`` is ``*`` for every row of the match) and an aggregate's argument is
    ``pattern_rows(Symbol(v), expr)``: ``expr`` over each row of ``v``."""

    input: Rel
    partition_by: Tuple[str, ...]
    order_by: Tuple[Ordering, ...]
    pattern: Tuple[Tuple[str, int, Optional[int], bool], ...]
    define: Tuple[Tuple[str, Expr], ...]
    measures: Tuple[Expr, ...]
    after: str = "TO NEXT ROW"
    within_ms: Optional[int] = None

    @property
    def inputs(self):
        return (self.input,)


@dataclass(frozen=True, eq=False, kw_only=True)
class OverWindow:
    """``PARTITION BY`` / ``ORDER BY`` and a frame: ``preceding`` rows or milliseconds
    (None: unbounded), ``following`` likewise (0: current row)."""

    partition_by: Tuple[Expr, ...] = ()
    order_by: Tuple[Ordering, ...] = ()
    rows: bool = True
    preceding: Optional[int] = None
    following: Optional[int] = 0
    alias: Optional[str] = None


@dataclass(frozen=True, eq=False, kw_only=True)
class Over(Rel):
    """The input's fields followed by aggregates over windows (``OverCall`` expressions)."""

    input: Rel
    aggregates: Tuple[Expr, ...]

    @property
    def inputs(self):
        return (self.input,)


def walk(root: Rel):
    """``root`` and every node it reads, inputs first, each once."""
    seen = set()

    def visit(node):
        if id(node) in seen:
            return
        seen.add(id(node))
        for child in node.inputs:
            yield from visit(child)
        yield node

    yield from visit(root)
