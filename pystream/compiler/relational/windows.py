"""Window TVFs (TUMBLE, HOP, CUMULATE, SESSION) and their aggregates, OVER aggregates and
MATCH_RECOGNIZE."""
from __future__ import annotations

import datetime
import math
import zoneinfo
from dataclasses import replace
from typing import Optional

from pyspark.sql import Column, Window
from pyspark.sql import functions as F
from pyspark.sql import types as st

from pystream.common.data_types import LocalZonedTimestampType
from pystream.compiler.expressions import (
    OFFSETS,
    RANKING,
    quoted,
    running_aggregate_column,
    to_column,
)
from pystream.compiler.relational.aggregates import (
    aggregate_columns,
    aggregated_by,
    collected_python_aggregates,
)
from pystream.compiler.relational.frames import (
    SEQ,
    Context,
    Frame,
    final_rows,
    not_on_unbounded,
    ordering,
    select_with_system_columns,
    translate,
)
from pystream.compiler.relational.scans import watermark_delay, with_watermark
from pystream.compiler.time_ordered import over_aggregate
from pystream.errors import UnsupportedFeatureError
from pystream.plan.relational import streams_over
from pystream.relational import expressions as ex
from pystream.relational import operations as ops
from pystream.relational.resolve import type_of
from pystream.relational.time_bounded import is_window_ranking
from pystream.runtime.matching import Matcher, MatchState


def _offset_start(zone: str, period: int) -> Optional[str]:
    """``F.window``'s ``startTime`` that aligns windows of ``period`` milliseconds to the wall
    clock of ``zone`` (None: UTC's, or a zone whose offset changes over the year: daylight
    saving time, where windows stay aligned to UTC)."""
    try:
        tz = zoneinfo.ZoneInfo(zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None
    year = datetime.datetime.now().year
    offsets = {tz.utcoffset(datetime.datetime(year, month, 1)) for month in (1, 7)}
    if len(offsets) != 1:
        return None
    start = -int(offsets.pop() / datetime.timedelta(milliseconds=1)) % period
    return "%d milliseconds" % start if start else None


def by_window_end(end: Column, within: Optional[Column] = None) -> Column:
    """The place of a window's result in a changelog: windows fire in the order of their
    ends, as the watermark passes them; within one, rows come in ``within``'s order (by
    default their input order)."""
    within = F.col(SEQ) % 1_000_000 if within is None else within
    return F.unix_millis(end.cast("timestamp")) * 1_000_000 + within


def window_aggregate_frame(node: ops.WindowAggregate, ctx: Context) -> Frame:
    frame = translate(node.input, ctx)
    schema = node.input.schema
    w = node.window
    ts = quoted(w.time_field)
    local = isinstance(type_of(ex.Column(w.time_field), schema), LocalZonedTimestampType)
    start = None  # windows of the local time zone's wall clock:
    if local and not ctx.unbounded:
        ts = ts.cast("timestamp_ntz")
    elif local:  # a streaming window's rowtime keeps its watermark: the zone's offset instead
        start = _offset_start(ctx.time_zone, w.slide if w.kind == "slide" else w.size)
    millis = "%d milliseconds"
    if w.kind == "tumble":
        window = F.window(ts, millis % w.size, startTime=start)
    elif w.kind == "slide":
        window = F.window(ts, millis % w.size, millis % w.slide, startTime=start)
    elif w.kind == "session":
        window = F.session_window(ts, millis % w.gap)
    elif w.kind == "cumulate":
        frame, window = _cumulate(frame, ts, w.size, w.slide, ctx.time_zone)
    else:
        raise UnsupportedFeatureError("%s windows" % w.kind)
    key_fields = node.schema.fields[:len(node.keys)]
    keys = [to_column(k, schema).alias(f.name) for k, f in zip(node.keys, key_fields)]
    # a sliding window's slices (of the sizes' greatest common divisor), as Flink's panes
    pane = F.floor(F.unix_millis(ts.cast("timestamp")) / math.gcd(w.size, w.slide)) \
        .cast("bigint") if w.kind == "slide" else None
    aggs = aggregate_columns(node.aggregates, schema, pane)
    folds = {}
    if w.kind == "session":  # Spark merges sessions right with its own aggregates only
        aggs, folds = collected_python_aggregates(node.aggregates, schema, aggs)
    if ctx.unbounded and watermark_delay(frame.df, w.time_field) is None:
        # a rowtime without a watermark Spark knows (a DataStream's): no delay
        frame = replace(frame, df=with_watermark(frame.df, w.time_field,
                                                  ex.Column(w.time_field)))
    if ctx.changelog:  # among the windows that close at once, the one whose first row
        # came first fires first (its timer was registered first, as Flink fires them)
        aggs.append((F.min(SEQ).alias(SEQ), SEQ, False))
    if frame.updating:
        raise UnsupportedFeatureError("a group window over an updating table")
    df, window = frame.df, window.alias("__w")
    if ctx.unbounded and w.kind == "cumulate":  # an event time, as F.window's struct is:
        df = df.withColumn("__w", window.alias("__w", metadata={  # Spark emits it once the
            "spark.watermarkDelayMs": watermark_delay(df, w.time_field)}))  # watermark
        window = F.col("__w")  # passes its end
    grouped = aggregated_by(df, [window, *keys], aggs)
    if folds:
        grouped = grouped.withColumns({name: fold(quoted(name)) for name, fold in folds.items()})
    props = {"window_start": F.col("__w.start"), "window_end": F.col("__w.end"),
             "window_rowtime": F.col("__w.end") - F.expr("INTERVAL 1 MILLISECOND")}
    properties = [props[p.expr.name].cast(f.data_type.spark_type()).alias(p.names[0])
                  for p, f in zip(node.properties, node.schema.fields[-len(node.properties):]
                                  if node.properties else [])]
    columns = [quoted(f.name) for f in key_fields] + \
        [quoted(a.names[0]) for a in node.aggregates] + properties
    if ctx.changelog:
        columns.append(by_window_end(F.col("__w.end")).alias(SEQ))
        return Frame(grouped.select(*columns))
    if ctx.unbounded:  # Spark emits a window once the watermark passes its end
        return Frame(grouped.select(*columns))
    # BATCH: Flink aggregates windows sort-based, so results come by key, then by window
    # (cumulating windows: by their common start, then key, then end)
    key_order = [quoted(f.name) for f in key_fields]
    order = [F.col("__w.start"), *key_order, F.col("__w.end")] if w.kind == "cumulate" \
        else [*key_order, F.col("__w.start")]
    return Frame(grouped.orderBy(*order).select(*columns))


def match_recognize_frame(node: ops.MatchRecognize, ctx: Context) -> Frame:
    """MATCH_RECOGNIZE over a bounded table: each partition's rows, in time order, through
    ``runtime.matching.Matcher`` (one Python pass per partition, ``applyInArrow``); the
    matches are append-only, each at the arrival of its last row."""
    frame = translate(node.input, ctx)
    if frame.updating:
        raise UnsupportedFeatureError("MATCH_RECOGNIZE over an updating table")
    if ctx.unbounded:
        return _match_recognize_stream(node, frame, ctx)
    output = st.StructType(node.schema.spark_type().fields +
                           ([st.StructField(SEQ, st.LongType(), False)] if ctx.changelog else []))
    run = _matcher(node, output, SEQ if ctx.changelog else None)
    df = frame.df.select(*[quoted(n) for n in node.input.schema.names],
                         *[F.col(c) for c in frame.system_columns(ctx)],
                         F.lit(0).alias("__all"))
    keys = [quoted(k) for k in node.partition_by] or [F.col("__all")]
    return Frame(df.groupBy(*keys).applyInArrow(lambda table: run(table), output))


def _matcher(node: ops.MatchRecognize, output: st.StructType, seq: Optional[str]):
    """The ``runtime.matching.Matcher`` of ``node``, writing rows of ``output``."""
    from pyspark.sql.pandas.types import to_arrow_schema


    return Matcher(node.pattern, dict(node.define), [a.expr for a in node.measures],
                   node.partition_by, node.order_by[0].expr.name, node.after, node.within_ms,
                   to_arrow_schema(output), seq)


def _match_recognize_stream(node: ops.MatchRecognize, frame: Frame, ctx: Context) -> Frame:
    """MATCH_RECOGNIZE over an unbounded table: each partition's rows in Spark's state store
    until the watermark passes them (``runtime.matching.MatchState``, event time), then
    matched in time order as over a bounded table."""
    output = node.schema.spark_type()
    names = list(node.input.schema.names)
    processor = MatchState(_matcher(node, output, None), names)
    if ctx.compiler is not None:
        processor = ctx.compiler.ship(processor)
    keys = [quoted(k).alias("__part%d" % i) for i, k in enumerate(node.partition_by)] or \
        [F.lit(0).alias("__part0")]
    df = frame.df.select(*keys, *[quoted(n) for n in names])
    df = df.groupBy(*df.columns[:len(keys)]).transformWithState(
        processor, output, "Append", "EventTime")
    return Frame(df)


def window_table_frame(node: ops.WindowTable, ctx: Context) -> Frame:
    """Each row once per window it falls in, with window_start, window_end and window_time
    (windows aligned to the epoch of the local time zone's wall clock, as Flink's). A row's
    copies keep its place in the input's order."""
    frame = translate(node.input, ctx)
    w = node.window
    ts = quoted(w.time_field)
    if w.kind == "cumulate":
        frame, window = _cumulate(frame, ts, w.size, w.slide, ctx.time_zone)
        df = frame.df.withColumn("__w", window)
    else:
        t = wall_clock_millis(ts, ctx.time_zone)
        slide = w.slide or w.size
        last = _aligned_start(t, slide)  # the start of the last window holding t
        first = last - ((w.size - 1) // slide) * slide
        starts = F.filter(F.sequence(first, last, F.lit(slide)), lambda s: s + w.size > t)
        df = frame.df.withColumn("__start", F.explode(starts)).withColumn(
            "__w", _wall_clock_window(F.col("__start"), F.col("__start") + w.size,
                                      ctx.time_zone))
    fields = node.schema.fields[-3:]
    properties = [F.col("__w.start"), F.col("__w.end"),
                  F.col("__w.end") - F.expr("INTERVAL 1 MILLISECOND")]
    columns = [quoted(n) for n in node.input.schema.names] + [
        p.cast(f.data_type.spark_type()).alias(f.name) for p, f in zip(properties, fields)]
    df = df.select(*columns, *[F.col(c) for c in frame.system_columns(ctx)])
    delay = watermark_delay(frame.df, w.time_field)
    if ctx.unbounded and delay is not None:
        # window_end marked as an event time of the input's watermark (as Spark marks the
        # window of F.window): a streaming aggregate or join on it drops a window's state,
        # and emits it, once the watermark passes its end, as Flink fires windows
        df = df.withColumn("window_end", F.col("window_end").cast("timestamp").alias(
            "window_end", metadata={"spark.watermarkDelayMs": delay}))
    return Frame(df, frame.updating)


def _cumulate(frame: Frame, ts: Column, size: int, step: int, zone: str):
    """CUMULATE windows: each row belongs to the windows of its ``size``-long period (aligned
    to the local wall clock's epoch) that end after it, every ``step``. The frame gets a row
    per window; the window is the struct (start, end) that ``F.window`` gives."""
    t = wall_clock_millis(ts, zone)
    start = _aligned_start(t, size)
    first_end = start + (F.floor((t - start) / step) + 1) * step
    df = frame.df.withColumn("__wstart", start).withColumn(
        "__wend", F.explode(F.sequence(first_end, start + size, F.lit(step))))
    return replace(frame, df=df), _wall_clock_window(F.col("__wstart"), F.col("__wend"), zone)


# the names of a zone whose wall clock is UTC's: no conversion per row
UTC_ZONES = frozenset({"UTC", "Etc/UTC", "GMT", "Etc/GMT", "Z", "+00:00", "UCT", "Etc/UCT"})


def wall_clock_millis(ts: Column, zone: str) -> Column:
    """A time attribute's wall-clock time in the local time zone (``table.local-time-zone``,
    the session's while the job runs), as milliseconds of an epoch in that zone: Flink aligns
    windows to it, for a TIMESTAMP_LTZ rowtime too (a day window is a local day)."""
    instant = ts.cast("timestamp")
    if zone in UTC_ZONES:
        return F.unix_millis(instant)
    return F.unix_millis(F.from_utc_timestamp(instant, F.current_timezone()))


def instant_of_wall_clock(millis: Column, zone: str) -> Column:
    """The instant whose wall-clock time in the local time zone is ``millis``."""
    if zone in UTC_ZONES:
        return F.timestamp_millis(millis)
    return F.to_utc_timestamp(F.timestamp_millis(millis), F.current_timezone())


def _aligned_start(millis: Column, length: int) -> Column:
    """The start of the ``length``-long period (aligned to the epoch) that holds ``millis``."""
    return millis - F.pmod(millis, F.lit(length))


def _wall_clock_window(start: Column, end: Column, zone: str) -> Column:
    """The window from ``start`` to ``end`` (wall-clock milliseconds of ``zone``) as
    instants: the struct (start, end) that ``F.window`` gives."""
    return F.struct(instant_of_wall_clock(start, zone).alias("start"),
                    instant_of_wall_clock(end, zone).alias("end"))


def over_frame(node: ops.Over, ctx: Context) -> Frame:
    if (ctx.changelog or ctx.unbounded) and streams_over(node, ctx.unbounded):
        return _streaming_over(node, ctx)
    ranking = [a for a in node.aggregates if agg_name(unaliased(a.expr)) in RANKING]
    not_on_unbounded(ctx, "window Top-N or window deduplication" if is_window_ranking(node)
                      else "an OVER window not ordered by a time attribute")
    if ctx.changelog and ranking:  # Top-N and deduplication are ranked's
        raise UnsupportedFeatureError(
            "%s OVER a window in STREAMING mode other than Top-N or deduplication (ROW_NUMBER "
            "filtered by rn <= N, rn < N or rn = 1)"
            % agg_name(unaliased(ranking[0].expr)).upper())
    return _over_rows(node, translate(node.input, ctx), ctx)


def _over_rows(node: ops.Over, frame: Frame, ctx: Context) -> Frame:
    """``node``'s aggregates as Spark's window functions over ``frame``'s rows; of an
    updating (bounded) frame, over the rows its changes leave, each once (Flink refuses)."""
    schema = node.input.schema
    if frame.updating:
        frame = final_rows(frame, list(schema.names))
    columns = [quoted(n) for n in schema.names]
    for a in node.aggregates:
        call: ex.OverCall = unaliased(a.expr)
        spec = ranking_spec(call.window, schema) \
            if agg_name(call) in {**RANKING, **OFFSETS, "ntile": None} \
            else _over_spec(call.window, schema)
        columns.append(running_aggregate_column(call.agg, schema, spec).alias(a.names[0]))
    return select_with_system_columns(frame, ctx, columns)


def _streaming_over(node: ops.Over, ctx: Context) -> Frame:
    """Aggregates OVER a window ordered by a time attribute in STREAMING mode, as Flink's
    streaming over aggregate (``plan.relational.streams_over`` says which):
    ``compiler.time_ordered``."""
    frame = translate(node.input, ctx)
    if frame.updating and ctx.unbounded:
        raise UnsupportedFeatureError("an OVER window over an updating unbounded table")
    if frame.updating:  # bounded: over the rows its changes leave, as BATCH mode
        return _over_rows(node, frame, ctx)
    return Frame(over_aggregate(node, frame, ctx, translate))


def agg_name(call: ex.OverCall) -> Optional[str]:
    """The name of a built-in aggregate OVER a window (None: a user-defined one)."""
    return getattr(call.agg, "name", None)


def unaliased(expr: ex.Expr) -> ex.Expr:
    return expr.expr if isinstance(expr, ex.Alias) else expr


def ranking_spec(w: ops.OverWindow, schema):
    """ROW_NUMBER / RANK / DENSE_RANK: partitions in their order, without a frame."""
    return Window.partitionBy(*[to_column(p, schema) for p in w.partition_by]).orderBy(
        *[ordering(o, schema) for o in w.order_by])


def _over_spec(w: ops.OverWindow, schema):
    spec = Window.partitionBy(*[to_column(p, schema) for p in w.partition_by])
    order = w.order_by[0]
    if w.rows:
        spec = spec.orderBy(ordering(order, schema))
        start = Window.unboundedPreceding if w.preceding is None else -w.preceding
        return spec.rowsBetween(start, w.following or 0)
    micros = F.unix_micros(to_column(order.expr, schema).cast("timestamp"))
    spec = spec.orderBy(micros)
    start = Window.unboundedPreceding if w.preceding is None else -w.preceding * 1000
    return spec.rangeBetween(start, (w.following or 0) * 1000)
