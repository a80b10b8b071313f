"""What every relational translation shares: the ``Context`` it runs in, the ``Frame`` it
gives (a node's rows and the system columns ``__seq``, ``__op``, ``__sub``), ``translate``
for a node's inputs, and the changelog helpers (``retractions``)."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Dict, List, Mapping, Optional, Set

from pyspark.sql import Column, DataFrame, Window
from pyspark.sql import functions as F
from pyspark.sql import types as st

from pystream.compiler.expressions import quoted, to_column
from pystream.errors import UnsupportedFeatureError
from pystream.relational import expressions as ex
from pystream.relational import operations as ops

SEQ, OP, SUB = "__seq", "__op", "__sub"
INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE = 0, 1, 2, 3


@dataclass(frozen=True)
class Context:
    """What a translation needs besides the node: the session, the job's mode, and the
    translation of each node type (``relational.TRANSLATIONS``: ``translate`` follows it for
    a node's inputs)."""

    spark: object
    changelog: bool  # STREAMING mode: rows carry __seq (and __op/__sub when updating)
    translations: Mapping[type, Callable[[ops.Rel, "Context"], "Frame"]] = field(
        default_factory=dict, repr=False)
    time_zone: str = "UTC"  # table.local-time-zone (the Spark session's, while it runs)
    unbounded: bool = False  # STREAMING over an unbounded source: streaming DataFrames
    bundle_size: int = 100000  # python.fn-execution.bundle.size: Python aggregates emit per
    compiler: object = None  # the DataStream compiler of the job (unbounded mode)
    state_ttl_ms: Optional[int] = None  # table.exec.state.ttl (unbounded mode's keyed state)
    # the ids of the nodes translated (the job checks it followed its plan)
    translated: Set[int] = field(default_factory=set, repr=False)
    # tables read more than once: what their uses need (``plan.reads.SharedRead``), and
    # the cached frame each is read into (None: read by each use; the job drops them from
    # Spark's cache once it ran)
    shared_reads: Mapping[Any, Any] = field(default_factory=dict)
    shared_frames: Dict[Any, Optional["Frame"]] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class Frame:
    """A node's rows: ``df`` with the node's fields, then the system columns."""

    df: DataFrame
    updating: bool = False
    inserts_only: bool = False  # updating in form (with its kinds) but +I only: DISTINCT's

    def system_columns(self, ctx: Context) -> List[str]:
        if ctx.unbounded:
            return [OP] if self.updating else []
        if not ctx.changelog:
            return []
        return [SEQ, OP, SUB] if self.updating else [SEQ]


def translate(node: ops.Rel, ctx: Context) -> Frame:
    """The frame of ``node`` (and of everything it reads)."""
    ctx.translated.add(id(node))
    return ctx.translations[type(node)](node, ctx)


def select_with_system_columns(frame: Frame, ctx: Context, columns: List[Column]) -> Frame:
    system = [F.col(c) for c in frame.system_columns(ctx)]
    return replace(frame, df=frame.df.select(*columns, *system))


def not_on_unbounded(ctx: Context, what: str) -> None:
    if ctx.unbounded:
        raise UnsupportedFeatureError(
            "%s over an unbounded STREAMING source (Spark runs it on bounded inputs only; "
            "read a bounded table, or use a window aggregate)" % what)


def final_rows(frame: Frame, names: List[str]) -> Frame:
    """The rows an updating bounded ``frame`` leaves once all its changes are applied (+I/+U
    add a row, -U/-D take one away), insert-only, in the order of each row's last addition
    (``__seq`` renumbered)."""
    adds = F.col(OP).isin(INSERT, UPDATE_AFTER)
    counted = frame.df.groupBy(*[quoted(n) for n in names]).agg(
        F.sum(F.when(adds, 1).otherwise(-1)).alias("__count"),
        F.max(F.when(adds, F.col(SEQ))).alias("__last"))
    rows = counted.where(F.col("__count") > 0).select(
        *[quoted(n) for n in names], "__last",
        F.explode(F.sequence(F.lit(1), F.col("__count"))).alias("__copy"))
    ordered = rows.orderBy("__last", "__copy").select(
        *[quoted(n) for n in names], F.monotonically_increasing_id().alias(SEQ))
    return Frame(ordered)


def changelog_of_running(df: DataFrame, keys: List[str], values: List[str]) -> DataFrame:
    """Per record: +I for a key's first row, -U/+U when its values changed, else nothing."""
    order = Window.partitionBy(*[quoted(k) for k in keys]).orderBy(SEQ)
    return retractions(df, order, keys + values, compared=values)


def retractions(df: DataFrame, order, names: List[str],
                 compared: Optional[List[str]] = None,
                 present: Optional[str] = None) -> DataFrame:
    """Per record, in ``order`` (a window over ``__seq``): +I for a partition's first row,
    else -U of the row before it and +U of this one (only where the ``compared`` fields
    changed, if given). With ``present``, a record where that column is false deletes the
    row before it (-D), and the next one inserts again. Input records that are changes
    themselves (``__sub``) keep their order."""
    row = F.struct(*[quoted(n) for n in names])
    df = df.withColumn("__new", F.when(F.col(present), row) if present else row)
    df = df.withColumn("__old", F.lag("__new").over(order))
    return changes(df, names, compared)


def changes(df: DataFrame, names: List[str], compared: Optional[List[str]] = None
            ) -> DataFrame:
    """The changes of records that carry their row after (``__new``, NULL: none) and before
    (``__old``, NULL: none) them, as ``retractions`` describes."""
    base = F.col(SUB) * 2 if SUB in df.columns else F.lit(0)
    first = F.array(F.struct(F.col("__new").alias("row"), F.lit(INSERT).alias("op"),
                             base.alias("sub")))
    update = F.array(F.struct(F.col("__old").alias("row"), F.lit(UPDATE_BEFORE).alias("op"),
                              base.alias("sub")),
                     F.struct(F.col("__new").alias("row"), F.lit(UPDATE_AFTER).alias("op"),
                              (base + 1).alias("sub")))
    delete = F.array(F.struct(F.col("__old").alias("row"), F.lit(DELETE).alias("op"),
                              base.alias("sub")))
    emitted = F.when(F.col("__new").isNull(), F.when(F.col("__old").isNotNull(), delete)) \
        .when(F.col("__old").isNull(), first)
    if compared is None:
        emitted = emitted.otherwise(update)
    else:
        maps = {f.name for f in df.schema["__new"].dataType.fields
                if isinstance(f.dataType, st.MapType)}
        old, new = [F.struct(*[_comparable(F.col(side)[c], c in maps).alias(c)
                               for c in compared]) for side in ("__old", "__new")]
        emitted = emitted.when(old != new, update)
    exploded = df.select(F.explode(emitted).alias("__e"), F.col(SEQ))
    return exploded.select(*[F.col("__e.row")[n].alias(n) for n in names], F.col(SEQ),
                           F.col("__e.op").alias(OP), F.col("__e.sub").alias(SUB))


def _comparable(value: Column, is_map: bool) -> Column:
    """``value`` as Spark compares it: a map (a MULTISET's counts, Spark has no = of maps)
    as its entries, sorted."""
    return F.array_sort(F.map_entries(value)) if is_map else value


def ordering(o: ex.Ordering, schema) -> Column:
    column = to_column(o.expr, schema)
    nulls_first = o.nulls_first if o.nulls_first is not None else o.ascending
    if o.ascending:
        return column.asc_nulls_first() if nulls_first else column.asc_nulls_last()
    return column.desc_nulls_first() if nulls_first else column.desc_nulls_last()
