"""Graph nodes -> Spark DataFrames: one translate function per node type.

Stateless Python operators do not become Spark operators one by one: they accumulate on the
``Flow`` and run as one ``mapInArrow`` stage when something needs a DataFrame (a shuffle, a
union, a sink, a parallelism change, a chaining break): PyFlink's operator chaining. Where a
stage starts is the plan's decision (``pystream.plan``); the compiler follows it.
"""
from __future__ import annotations

from dataclasses import replace
from functools import singledispatchmethod
from typing import Dict, List, Optional, Tuple

from pystream import graph
from pystream.compiler.event_time import assign_timestamps, end_of_input_marker
from pystream.compiler.flow import Flow
from pystream.compiler.sources import source_flow
from pystream.errors import PystreamError
from pystream.plan import CHAIN, REBALANCE, Plan
from pystream.plan.batch import registers_event_timers_only, uses_timers
from pystream.runtime.context import TaskInfo
from pystream.runtime.dependencies import Bundle, shipped
from pystream.runtime.key_groups import KeyPlacement
from pystream.runtime.keyed_batch import INPUT, BoundedKeyedStage, KeyedBatchStage
from pystream.runtime.keyed_broadcast import KeyGroups, group_keys
from pystream.runtime.keyed_stream import EARLIEST_MS, TS_MILLIS, KeyedProcessor
from pystream.runtime.layout import (
    KEY,
    ORDER,
    PICKLED,
    PID,
    SEQ,
    TAG,
    TS,
    WM,
    Layout,
    millis_column,
    timestamp_column,
)
from pystream.runtime.metric_reports import MetricsTarget
from pystream.runtime.partitioning import CustomPartitionKey, RoundRobin
from pystream.runtime.records import VALUE_COLUMN
from pystream.runtime.stage import EVERY_RECORD, FusedStage, OpSpec, RoutedStage


class Compiler:
    """Translates the nodes of a plan's graph into DataFrames of ``spark``, each node once;
    ``bundle``: the job's prepared dependencies, shipped with its Python functions."""

    def __init__(self, spark, plan: Plan, bundle: Optional[Bundle] = None,
                 metrics: Optional[MetricsTarget] = None):
        self.spark = spark
        self.plan = plan
        self.settings = plan.settings
        self.bundle = bundle
        self.metrics = metrics  # where its functions' metrics go
        self._raw: Dict[int, Flow] = {}
        self._tagged_flows: Dict[int, Flow] = {}
        # STREAMING: Spark's partitions of keyed state, one per subtask of the widest keyed
        # operator (Spark hashes every stateful operator's input into as many)
        self.shuffle_partitions: Optional[int] = None if self.settings.batch else max(
            (self.keyed_parallelism(n) for n in plan.nodes() if isinstance(n, graph.Keyed)),
            default=None)
        # a STREAMING job with an assigner of watermarks at parallelism 1 replays Flink's
        # periodic ones over its bounded inputs (``runtime.arrivals``)
        self.replays_watermarks = not self.settings.batch and any(
            isinstance(n, graph.AssignTimestamps) and n.strategy.has_watermarks
            and n.strategy.timestamp_assigner is not None and plan.parallelism_of(n) == 1
            for n in plan.nodes())
        self.temp_dirs: List[str] = []  # removed when the job ends
        # the graph nodes whose functions each Python stage runs, as built (checked against
        # the plan's stages by the tests)
        self.fused: List[Tuple[int, ...]] = []
        self._op_nodes: Dict[int, int] = {}  # id(OpSpec) -> node id

    # -- flows of nodes

    def raw_flow(self, node: graph.Node) -> Flow:
        """The translation of ``node`` (memoized), side outputs still mixed in."""
        if id(node) not in self._raw:
            self._raw[id(node)] = self.translate(node)
        return self._raw[id(node)]

    def flow(self, node: graph.Node) -> Flow:
        """The main output of ``node``, as its consumers read it."""
        if node.id not in self.plan.side_tags:
            return self.raw_flow(node)
        from pyspark.sql import functions as F

        tagged = self.tagged_flow(node)
        df = tagged.df.where(F.col(TAG).isNull()).drop(TAG)
        return tagged.but(df=df, layout=tagged.layout.but(tagged=False),
                          type_info=node.output_type,
                          selected_from=(tagged, None, df))

    def tagged_flow(self, node: graph.Node) -> Flow:
        """Main and wanted side-output records of ``node``, pickled and tagged."""
        if id(node) not in self._tagged_flows:
            flow = self.raw_flow(node)
            if not flow.layout.tagged:  # a keyed stage emits tagged records itself
                tags = tuple(sorted(self.plan.side_tags[node.id]))
                layout = Layout(PICKLED, timestamped=flow.layout.timestamped, tagged=True)
                flow = self.materialize(flow, layout, side_tags=tags)
            self._tagged_flows[id(node)] = flow
        return self._tagged_flows[id(node)]

    # -- helpers

    def parallelism_of(self, node: graph.Node, inherited: Optional[int]) -> Optional[int]:
        """The operator's parallelism: its own, else the environment's default (as in Flink:
        after a non-parallel source such as ``from_collection`` the next operator runs at
        the default parallelism, its input rebalanced over its instances)."""
        return node.meta.parallelism or self.settings.parallelism

    def task_info(self, node: graph.Node, parallelism: Optional[int]) -> TaskInfo:
        return TaskInfo(task_name=node.meta.name, parallelism=parallelism or 1,
                        max_parallelism=node.meta.max_parallelism or self.settings.max_parallelism,
                        job_parameters=dict(self.settings.job_parameters),
                        batch_mode=self.settings.batch, metrics=self.metrics)

    def ship(self, obj):
        """``obj`` as sent to Spark's Python workers: with the job's dependencies, installed
        before ``obj`` is unpickled (see ``pystream.runtime.dependencies``)."""
        return shipped(obj, self.bundle)

    def op(self, node: graph.Node, kind: str, fn, parallelism: Optional[int]) -> OpSpec:
        declared = node.output_type if kind in ("map", "flat_map", "process", "async") \
            else None
        spec = OpSpec(kind=kind, fn=fn, label=node.meta.label(),
                      info=self.task_info(node, parallelism), output_type=declared)
        self._op_nodes[id(spec)] = node.id
        return spec

    def _record(self, ops) -> None:
        self.fused.append(tuple(self._op_nodes[id(op)] for op in ops if id(op) in self._op_nodes))

    def materialize(self, flow: Flow, layout: Optional[Layout] = None,
                    key_op: Optional[OpSpec] = None, side_tags: tuple = (),
                    places_from_order: bool = False) -> Flow:
        """Run the pending operators: a Flow whose DataFrame has ``layout`` (with
        ``places_from_order``, see ``FusedStage``)."""
        layout = layout or Layout(flow.type_info, timestamped=flow.layout.timestamped,
                                  arrival=flow.layout.arrival,
                                  watermarks=flow.layout.watermarks)
        ops = flow.ops + ((key_op,) if key_op is not None else ())
        if not ops and layout == flow.layout:
            return flow
        if not ops and flow.layout.type_info == layout.type_info and not layout.keyed:
            return flow.but(df=_project(flow.df, flow.layout, layout), layout=layout)
        stage = FusedStage(ops=ops, input=flow.layout, output=layout, side_tags=side_tags,
                           places_from_order=places_from_order)
        self._record(ops)
        df = flow.df.mapInArrow(self.ship(stage), layout.spark_schema())
        return flow.but(df=df, layout=layout, ops=(), type_info=layout.type_info
                        if layout.tagged else flow.type_info)

    def repartitioned(self, flow: Flow, parallelism: Optional[int]) -> Flow:
        """``flow`` with ``parallelism`` partitions (a rebalance), if it differs."""
        if parallelism is None or parallelism == flow.parallelism:
            return flow
        op = OpSpec(kind="partition", fn=RoundRobin(parallelism), label="Rebalance",
                    info=TaskInfo("Rebalance", parallelism, self.settings.max_parallelism))
        return self._partition_by(flow, parallelism, op)

    def keyed_parallelism(self, node: graph.Keyed) -> int:
        return node.meta.parallelism or self.settings.parallelism

    def keyed_input(self, key_by: graph.KeyBy, parallelism: int, pickled: bool,
                    partitions: Optional[int], sequenced: bool = False) -> Flow:
        """The input of ``key_by`` with its ``__key`` column (values pickled if ``pickled``),
        its keys placed so that of ``partitions`` hash partitions each key lands on the
        subtask Flink gives it (None: keys as they are); ``sequenced``: with each record's
        place in its micro-batch: after a keyed operator, its place in that operator's output
        (not in its partition of keys)."""
        flow = self.flow(key_by.input)
        in_order = sequenced and flow.settled and flow.ordered_df is not None
        if in_order:
            flow = flow.but(df=flow.ordered_df)
        key_op = self.op(key_by, "key", key_by.key_selector, parallelism)
        if partitions is not None:
            key_op = replace(key_op, placement=KeyPlacement(
                parallelism, key_by.meta.max_parallelism or self.settings.max_parallelism,
                partitions, key_by.key_type))
        layout = Layout(PICKLED if pickled else flow.type_info, flow.layout.timestamped,
                        keyed=True, sequenced=sequenced, watermarks=flow.layout.watermarks)
        return self.materialize(flow, layout, key_op=key_op, places_from_order=in_order)

    # -- translations

    @singledispatchmethod
    def translate(self, node: graph.Node) -> Flow:
        raise PystreamError("internal: no translation for %s" % type(node).__name__)

    @translate.register
    def _source(self, node: graph.Source) -> Flow:
        return source_flow(self, node)

    @translate.register
    def _stateless(self, node: graph.Stateless) -> Flow:
        entry = self.plan.entry(node)
        p = self.plan.parallelism_of(node)
        if isinstance(node.input, graph.Partition):  # partition for this operator's instances
            flow = self.partitioned(node.input, p)
        else:
            flow = self.flow(node.input)
        if (p != flow.parallelism) != (entry == REBALANCE):
            raise PystreamError("internal: the plan reads %s by %s, but its input has %s "
                                "partitions" % (node.meta.label(), entry, flow.parallelism))
        if entry == REBALANCE:
            flow = self.repartitioned(flow, p)
        elif entry != CHAIN:
            flow = self.materialize(flow)
        flow = flow.then(self.op(node, node.kind, node.fn, p), node.output_type)
        if node.meta.chaining == "disabled" and node.id not in self.plan.side_tags:
            flow = self.materialize(flow)
        return flow

    @translate.register
    def _side_output(self, node: graph.SideOutput) -> Flow:
        from pyspark.sql import functions as F

        tagged = self.tagged_flow(node.input)
        df = tagged.df.where(F.col(TAG) == F.lit(node.tag.tag_id)).drop(TAG)
        return tagged.but(df=df, layout=tagged.layout.but(tagged=False),
                          type_info=node.tag.type_info,
                          selected_from=(tagged, node.tag.tag_id, df))

    @translate.register
    def _cache(self, node: graph.Cache) -> Flow:
        """BATCH: the input's result, computed by the first job that reads it and kept in
        Spark (a local checkpoint: no lineage back to sources or temporary files) for the
        environment's later jobs. STREAMING: the input, computed again."""
        if not self.settings.batch:
            return self.flow(node.input)
        slot = node.slot
        if slot.result is None or slot.session is not self.spark:
            flow = self.materialize(self.flow(node.input))
            slot.result = flow.but(df=flow.df.localCheckpoint(eager=True))
            slot.session = self.spark
        return slot.result

    @translate.register
    def _key_by(self, node: graph.KeyBy) -> Flow:
        """A KeyedStream read by a stateless operator: partitioned by key."""
        from pyspark.sql import functions as F

        inherited = self.flow(node.input).parallelism
        p = self.parallelism_of(node, inherited) or inherited
        keyed = self.keyed_input(node, p, pickled=False, partitions=p)
        df = keyed.df.repartition(p, F.col(KEY))
        return keyed.but(df=df.drop(KEY), layout=keyed.layout.but(keyed=False), parallelism=p)

    @translate.register
    def _keyed(self, node: graph.Keyed) -> Flow:
        from pyspark.sql import functions as F


        p = self.keyed_parallelism(node)
        partitions = p if self.settings.batch else self.shuffle_partitions
        if node.input2 is None:
            keyed = self.keyed_input(node.input, p, pickled=not self.settings.batch,
                                     partitions=partitions,
                                     sequenced=p == 1 and not self.settings.batch)
        else:
            keyed = self.two_keyed_inputs(node, p, partitions)
        tags = tuple(sorted(self.plan.side_tags.get(node.id, ())))
        info, label = self.task_info(node, p), node.meta.label()
        out = Layout(PICKLED if tags else node.output_type, keyed.layout.timestamped,
                     tagged=bool(tags))
        if self.settings.spark_batch and not self.settings.batch:
            return self._keyed_bounded(node, keyed, p, info, tags, out)
        if not self.settings.batch:
            return self._keyed_streaming(node, keyed, p, info, tags)
        # Flink's BATCH order: by key, then timestamp; broadcast elements first. Spark's sort
        # is stable in memory: a key's records keep their arrival order, as in Flink (which
        # gives no order beyond that either)
        by_time = keyed.layout.timestamped and node.input.key_selector is not None
        order = [F.col(KEY)] + ([F.col(INPUT).desc()] if node.broadcast else []) + \
            ([F.col(TS)] if by_time else [])
        df = keyed.df.repartition(p, F.col(KEY)).sortWithinPartitions(*order)
        stage = KeyedBatchStage(node.function, info, label, keyed.layout, out, tags)
        df = df.mapInArrow(self.ship(stage), out.spark_schema())
        return keyed.but(df=df, layout=out, type_info=node.output_type, parallelism=p, ops=())

    def _keyed_bounded(self, node: graph.Keyed, keyed: Flow, p: int, info: TaskInfo,
                       tags: tuple, out: Layout) -> Flow:
        """A STREAMING keyed operator over a bounded input, on a batch DataFrame
        (``plan.batch``): the key partitions of its transformWithState (the same hash
        partitioning of ``__key``), each key's records in arrival order, and at parallelism
        1 all records in arrival order, as Flink's one instance takes them."""
        from pyspark.sql import functions as F


        event_time = uses_timers(node)
        if event_time and self.time_mode(node, keyed) != "EventTime":
            raise PystreamError("internal: the plan runs %s as a batch job, but it needs "
                                "%s timers" % (node.meta.label(), self.time_mode(node, keyed)))
        ordered = keyed.layout.sequenced
        df = keyed.df.repartition(self.shuffle_partitions, F.col(KEY))
        df = df.sortWithinPartitions(SEQ if ordered else KEY)
        stage = BoundedKeyedStage(node.function, info, node.meta.label(), keyed.layout, out,
                                  tags, event_time)
        df = df.mapInArrow(self.ship(stage), stage.output_schema())
        return keyed.but(df=df.select(*out.columns), layout=out, type_info=node.output_type,
                         parallelism=p, ops=(),
                         ordered_df=df.select(*out.columns, ORDER) if ordered else None)

    def two_keyed_inputs(self, node: graph.Keyed, p: int, partitions: int) -> Flow:
        """The inputs of a two-input keyed operator as one keyed flow: values pickled, the
        ``__input`` column 0 or 1. A broadcast operator's first input is keyed by key group
        and its second input copied to every group (see ``runtime.keyed_broadcast``)."""
        from pyspark.sql import functions as F


        first = node.input
        if node.broadcast:
            max_parallelism = first.meta.max_parallelism or self.settings.max_parallelism
            first = replace(first, key_selector=KeyGroups(
                first.key_selector, p, max_parallelism, getattr(first, "key_type", None)))
            second = self.flow(node.input2)
            second = self.materialize(second, Layout(PICKLED, second.layout.timestamped))
            groups = F.array(*[F.lit(k) for k in group_keys(p)])
            copies = self.spark.range(p).select(
                F.element_at(groups, F.col("id").cast("int") + 1).alias(KEY))
            second = second.but(df=second.df.crossJoin(copies),
                                layout=second.layout.but(keyed=True))
        else:
            second = self.keyed_input(node.input2, p, pickled=True, partitions=partitions)
        flows = [self.keyed_input(first, p, pickled=True,
                                  partitions=None if node.broadcast else partitions), second]
        layout = Layout(PICKLED, any(f.layout.timestamped for f in flows), keyed=True)
        df = None
        for index, flow in enumerate(flows):
            part = _project(flow.df, flow.layout, layout).withColumn(INPUT, F.lit(index))
            df = part if df is None else df.union(part)
        return Flow(df=df, layout=layout, type_info=PICKLED, parallelism=p,
                    bounded=all(f.bounded for f in flows),
                    event_time=any(f.event_time for f in flows),
                    # a watermark declared upstream of either input holds for both: Spark
                    # refuses to declare another on their union
                    watermarked=any(f.watermarked for f in flows),
                    watermark_delay_ms=max(f.watermark_delay_ms or 0 for f in flows))

    def _keyed_streaming(self, node: graph.Keyed, keyed: Flow, p: int, info: TaskInfo,
                         tags: tuple) -> Flow:
        """``groupBy(__key).transformWithState``: the input carries only the columns the
        operator reads (PySpark converts transformWithState rows value by value).

        Event time: the watermark is declared once, on the timestamps of the first event-time
        operator's input, and that column is then dropped: Spark then hands late records to
        the operator (which decides, as Flink's do) instead of dropping them.
        """
        from pyspark.sql import functions as F


        time_mode = self.time_mode(node, keyed)
        timestamped = keyed.layout.timestamped
        df, columns = keyed.df, [KEY, VALUE_COLUMN]
        if timestamped:
            df = df.withColumn(TS_MILLIS, millis_column(F.col(TS)))
            columns.append(TS_MILLIS)
        if node.input2 is not None:
            columns.append(INPUT)
        watermarked = keyed.watermarked
        ordered = keyed.layout.sequenced  # each record's place: outputs in PyFlink's order
        if ordered:
            columns.append(SEQ)
        if keyed.layout.watermarks and time_mode == "EventTime":
            columns.append(WM)  # the watermark each record came with (``runtime.arrivals``)
        if time_mode == "EventTime" and not watermarked:
            if not timestamped:  # records without timestamps keep the watermark at its
                df = df.withColumn(TS, F.timestamp_millis(F.lit(EARLIEST_MS)))  # least
            df = df.select(*columns, TS)
            if keyed.bounded:
                df = df.union(end_of_input_marker(self, df.columns))
            df = df.withWatermark(TS, "%d milliseconds" % (keyed.watermark_delay_ms or 0))
            watermarked = True
        df = df.select(*columns)
        processor = KeyedProcessor(node.function, info, node.meta.label(), tuple(columns),
                                   timestamped, time_mode, tags, node.output_type,
                                   broadcast_first=node.broadcast,
                                   after_event_time=time_mode == "EventTime"
                                   and keyed.watermarked)
        df = df.groupBy(KEY).transformWithState(self.ship(processor), processor.output_schema(),
                                                "Append", time_mode)
        out = Layout(processor.output_type or PICKLED, timestamped=timestamped, tagged=bool(tags))
        if timestamped:
            df = df.withColumn(TS, timestamp_column(F.col(TS_MILLIS)))
        return keyed.but(df=df.select(*out.columns), layout=out, type_info=node.output_type,
                         parallelism=p, ops=(), watermarked=watermarked,
                         ordered_df=df.select(*out.columns, ORDER) if ordered else None)

    @staticmethod
    def time_mode(node: graph.Keyed, flow: Flow) -> str:
        """Spark's time mode for a keyed operator: the timers it can fire natively."""
        if not uses_timers(node):
            return "None"
        if node.time_domain == "processing":
            return "ProcessingTime"
        if not flow.event_time:  # no timestamps: event-time timers fire at the end of a
            # bounded input (Flink's final watermark), when they are the function's timers
            known = node.time_domain == "event" or registers_event_timers_only(node)
            return "EventTime" if flow.bounded and known else "ProcessingTime"
        return "EventTime"

    @translate.register
    def _union(self, node: graph.Union) -> Flow:
        flows = [self.flow(s) for s in node.streams]
        layout = Layout(node.output_type, timestamped=any(f.layout.timestamped for f in flows))
        dfs = [self._union_branches(branches, layout)
               for branches in _by_source(flows).values()]
        df = dfs[0]
        for other in dfs[1:]:
            df = df.union(other)
        return Flow(df=df, layout=layout, type_info=node.output_type,
                    parallelism=sum(f.parallelism or 1 for f in flows),
                    bounded=all(f.bounded for f in flows),
                    event_time=all(f.event_time for f in flows),
                    watermarked=all(f.watermarked for f in flows),
                    watermark_delay_ms=max(f.watermark_delay_ms or 0 for f in flows))

    def _union_branches(self, branches: List[Tuple[Flow, str, Flow]], layout: Layout):
        """The union's records from ``(source, tag, flow)`` branches that all read one source
        (see ``_by_source``): one stage over it, so what made it runs once."""
        if len(branches) == 1:
            return self.materialize(branches[0][2], layout).df
        from pyspark.sql import functions as F


        source = branches[0][0]
        tags = [tag for _, tag, _ in branches]
        df = source.df
        if source.layout.tagged:
            sides = [t for t in tags if t is not None]
            wanted = F.col(TAG).isin(sides) if sides else F.lit(False)
            df = df.where(wanted | F.col(TAG).isNull() if None in tags else wanted)
        stage = RoutedStage(tuple((tag, flow.ops) for _, tag, flow in branches), source.layout,
                            layout)
        self._record([op for _, _, flow in branches for op in flow.ops])
        return df.mapInArrow(self.ship(stage), layout.spark_schema())

    @translate.register
    def _partition(self, node: graph.Partition) -> Flow:
        inherited = self.flow(node.input).parallelism
        return self.partitioned(node, self.parallelism_of(node, inherited) or inherited or 1)

    def partitioned(self, node: graph.Partition, p: int) -> Flow:
        """``node``'s input redistributed over ``p`` partitions, the parallelism of the
        operator that reads it."""
        from pyspark.sql import functions as F

        flow = self.materialize(self.flow(node.input))
        strategy = node.strategy
        if strategy == "forward":
            return flow
        if strategy == "custom":
            return self._partition_custom(node, flow, p)
        if strategy in ("rebalance", "rescale"):
            return self._partition_by(flow, p, self.op(node, "partition", RoundRobin(p), p))
        if strategy == "shuffle":
            df = flow.df.repartition(p, F.rand())
        elif strategy == "global":
            df, p = flow.df.repartition(1), 1
        elif strategy == "broadcast":
            copies = self.spark.range(p).select(F.col("id").cast("int").alias("__copy"))
            df = flow.df.crossJoin(copies).repartitionById(p, F.col("__copy")).drop("__copy")
        else:
            raise PystreamError("unknown partitioning %r" % strategy)
        return single_arrival_order(flow.but(df=df, parallelism=p))

    def _partition_custom(self, node: graph.Partition, flow: Flow, p: int) -> Flow:
        chooser = CustomPartitionKey(node.partitioner, node.key_selector, p)
        return self._partition_by(flow, p, self.op(node, "partition", chooser, p))

    def _partition_by(self, flow: Flow, p: int, op: OpSpec) -> Flow:
        """``flow`` over ``p`` partitions, each record in the one the partition op names."""
        from pyspark.sql import functions as F


        if isinstance(op.fn, RoundRobin) and self.settings.spark_batch:
            return self._round_robin(flow, p)
        layout = flow.layout.but(type_info=flow.type_info, partition_ids=True)
        chosen = self.materialize(flow, layout, key_op=op)
        df = chosen.df.repartitionById(p, F.col(PID)).drop(PID)
        return single_arrival_order(
            chosen.but(df=df, layout=chosen.layout.but(partition_ids=False), parallelism=p))

    def _round_robin(self, flow: Flow, p: int) -> Flow:
        """RoundRobin as a Spark expression (batch DataFrames only): the i-th record of each
        input partition goes to partition i % p, as the Python partitioner sends it."""
        from pyspark.sql import functions as F

        flow = self.materialize(flow, flow.layout.but(type_info=flow.type_info))
        index = F.monotonically_increasing_id().bitwiseAND((1 << 33) - 1)  # within partition
        df = flow.df.repartitionById(p, F.pmod(index, F.lit(p)).cast("int"))
        return flow.but(df=df, parallelism=p)

    @translate.register
    def _assign_timestamps(self, node: graph.AssignTimestamps) -> Flow:
        return assign_timestamps(self, node)


def _project(df, have: Layout, want: Layout):
    """Select ``want``'s columns from a DataFrame of layout ``have`` (null __ts if missing)."""
    from pyspark.sql import functions as F

    cols = []
    for name in want.columns:
        if name in have.columns:
            cols.append(F.col(name))
        elif name == TS:
            cols.append(F.lit(None).cast("timestamp").alias(TS))
        else:
            raise PystreamError("internal: cannot add column %s" % name)
    return df.select(*cols)


def single_arrival_order(flow: Flow) -> Flow:
    """``flow``, without its records' arrivals once it is spread over several partitions:
    they no longer come in one order, so no assigner replays Flink's periodic watermarks
    over them (``runtime.arrivals``)."""
    if not flow.layout.arrival or (flow.parallelism or 1) == 1:
        return flow
    layout = flow.layout.but(arrival=False)
    return flow.but(df=_project(flow.df, flow.layout, layout), layout=layout)


def _by_source(flows: List[Flow]) -> Dict[int, List[Tuple[Flow, str, Flow]]]:
    """A union's inputs as ``(source, tag, flow)``, grouped by the DataFrame they read, in
    input order: an output of a tagged flow with only operators pending reads the tagged flow
    (its tag: an output tag id, None for the main output); any other flow reads its own
    DataFrame before its pending operators (tag EVERY_RECORD)."""
    groups: Dict[int, List[Tuple[Flow, str, Flow]]] = {}
    for flow in flows:
        selected = flow.selected_from
        if selected is not None and selected[2] is flow.df:
            source, tag = selected[0], selected[1]
        else:
            source, tag = flow.but(ops=()), EVERY_RECORD
        groups.setdefault(id(source.df), []).append((source, tag, flow))
    return groups
