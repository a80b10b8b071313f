"""Relational nodes -> Spark DataFrames, one translation per node type (``TRANSLATIONS``),
in one module per family: ``scans`` (values, connector and stream scans), ``projections``
(project, filter, table functions, unnest), ``aggregates`` (group aggregates, DISTINCT),
``joins`` (regular, interval, temporal and lookup joins), ``set_operations``, ``sorting``,
``ranking`` (Top-N, deduplication) and ``windows`` (window TVFs and aggregates, OVER,
MATCH_RECOGNIZE); ``frames`` holds what they share. ``context(...)`` makes the ``Context``
a job's translation starts from, with this table in it.

Every frame has the node's fields as columns, in order, plus system columns:

* ``__seq`` (changelog mode): the arrival order of the record that produced the row, so that a
  streaming job over bounded inputs gives Flink's changelog in Flink's order;
* ``__op`` and ``__sub`` (updating frames): the row kind (0 +I, 1 -U, 2 +U, 3 -D) and the
  row's place among the rows one input record produced (-U before +U).

In BATCH mode frames are plain batch DataFrames. In STREAMING mode over bounded inputs a
frame is a batch DataFrame too, with the system columns that make it a changelog: an
aggregate emits, per input record in ``__seq`` order, ``+I`` for a new key and ``-U``/``+U``
when the result changed (running aggregates over Spark window functions, natively). Over
unbounded inputs (``Context.unbounded``) frames are streaming DataFrames of Structured
Streaming: calculations, table functions and UNION ALL as they are, group windows as Spark's
windowed aggregation, emitted when the watermark passes the window's end.
"""
from __future__ import annotations

from typing import Any, Callable, Dict

from pystream.compiler.relational.aggregates import aggregate_frame, distinct_frame
from pystream.compiler.relational.changelogs import from_changelog_frame, to_changelog_frame
from pystream.compiler.relational.frames import OP, SEQ, SUB, Context, Frame, translate
from pystream.compiler.relational.joins import join_frame, temporal_join_frame
from pystream.compiler.relational.projections import (
    correlate_frame,
    expand_frame,
    filter_frame,
    project_frame,
    table_aggregate_rows_frame,
    unnest_frame,
)
from pystream.compiler.relational.scans import shared_scan_frame, stream_scan_frame, values_frame
from pystream.compiler.relational.set_operations import set_op_frame
from pystream.compiler.relational.sorting import sort_frame
from pystream.compiler.relational.windows import (
    match_recognize_frame,
    over_frame,
    window_aggregate_frame,
    window_table_frame,
)
from pystream.plan.relational import is_updating
from pystream.relational import operations as ops

__all__ = ["Frame", "Context", "context", "translate", "TRANSLATIONS", "SEQ", "OP", "SUB",
           "is_updating"]


TRANSLATIONS: Dict[type, Callable[[ops.Rel, Context], Frame]] = {
    ops.Values: values_frame,
    ops.ConnectorScan: shared_scan_frame,
    ops.StreamScan: stream_scan_frame,
    ops.Correlate: correlate_frame,
    ops.Unnest: unnest_frame,
    ops.Expand: expand_frame,
    ops.TableAggregateRows: table_aggregate_rows_frame,
    ops.Project: project_frame,
    ops.Filter: filter_frame,
    ops.Aggregate: aggregate_frame,
    ops.Distinct: distinct_frame,
    ops.Join: join_frame,
    ops.TemporalJoin: temporal_join_frame,
    ops.SetOp: set_op_frame,
    ops.Sort: sort_frame,
    ops.WindowAggregate: window_aggregate_frame,
    ops.WindowTable: window_table_frame,
    ops.MatchRecognize: match_recognize_frame,
    ops.Over: over_frame,
    ops.ToChangelog: to_changelog_frame,
    ops.FromChangelog: from_changelog_frame,
}


def context(spark: Any, changelog: bool, **settings: Any) -> Context:
    """The context a job's relational trees are translated in (see ``Context``)."""
    return Context(spark=spark, changelog=changelog, translations=TRANSLATIONS, **settings)
