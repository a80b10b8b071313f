"""The fused Python stage: a chain of per-record operators run over Arrow batches.

Consecutive map / flat_map / filter / process operators (and a trailing key selector) run as
one ``mapInArrow`` call, PyFlink's operator chaining. Each operator processes a whole batch
as a list, which keeps the per-record overhead to a list comprehension.
"""
from __future__ import annotations

import contextlib
import pickle
import time
from dataclasses import dataclass
from typing import Callable, Iterator, List, Optional, Tuple

import pyarrow as pa

from pystream.common.typeinfo import PickledBytesTypeInfo, TypeInformation
from pystream.common.watermark_strategy import TimestampAssigner
from pystream.core.functions import (
    FilterFunction,
    FlatMapFunction,
    Function,
    KeySelector,
    MapFunction,
    ProcessFunction,
    TimerService,
)
from pystream.core.output_tag import OutputTag
from pystream.errors import PystreamError
from pystream.runtime import records
from pystream.runtime.arrivals import PeriodicEmission, RecordClock
from pystream.runtime.async_io import AsyncRunner
from pystream.runtime.context import NO_TIMESTAMP, StreamingRuntimeContext, TaskInfo
from pystream.runtime.errors import operator_failure
from pystream.runtime.key_groups import KeyPlacement
from pystream.runtime.keyed import frozen_bytes, thaw
from pystream.runtime.layout import (
    ARRIVAL,
    ORDER,
    SEQ,
    TAG,
    TS,
    WM,
    Layout,
    timestamps_from_arrow,
    timestamps_to_arrow,
)
from pystream.runtime.metric_reports import write_reports
from pystream.runtime.shapes import output_shaper

MIN_WATERMARK = -(2 ** 63)


@dataclass(frozen=True)
class OpSpec:
    """One operator of a fused stage."""

    kind: str  # map | flat_map | filter | process | async | timestamps | key | partition
    fn: Callable
    label: str
    info: TaskInfo
    output_type: Optional[TypeInformation] = None  # declared: values take its PyFlink shape
    placement: Optional[KeyPlacement] = None  # a 'key' op: where Spark sends each key
    # a 'timestamps' op that also replays Flink's periodic watermarks (``runtime.arrivals``):
    # (the watermark's delay, the emission interval), both in ms
    emission: Optional[Tuple[int, int]] = None


_METHOD = {"map": (MapFunction, "map"), "flat_map": (FlatMapFunction, "flat_map"),
           "filter": (FilterFunction, "filter"), "key": (KeySelector, "get_key"),
           "process": (ProcessFunction, "process_element"),
           "timestamps": (TimestampAssigner, "extract_timestamp"),
           "partition": (object, "__call__")}


def bind(kind: str, fn) -> Callable:
    """The per-record callable of a user function (a Function instance or a plain callable)."""
    base, method = _METHOD[kind]
    if isinstance(fn, base):
        return getattr(fn, method)
    if isinstance(fn, Function) and hasattr(fn, method):
        return getattr(fn, method)
    return fn


class _StatelessTimerService(TimerService):
    def current_processing_time(self) -> int:
        return int(time.time() * 1000)

    def current_watermark(self) -> int:
        return MIN_WATERMARK

    # PyFlink's words (a non-keyed stream has no timers: key_by(...) and a
    # KeyedProcessFunction have them)
    def _no_registering(self, *_):
        raise PystreamError("Register timers is only supported on a keyed stream.")

    def _no_deleting(self, *_):
        raise PystreamError("Deleting timers is only supported on a keyed streams.")

    register_processing_time_timer = register_event_time_timer = _no_registering
    delete_processing_time_timer = delete_event_time_timer = _no_deleting


class _ProcessContext(ProcessFunction.Context):
    __slots__ = ("_timestamp", "_timers")

    def __init__(self):
        self._timestamp = None
        self._timers = _StatelessTimerService()

    def timer_service(self) -> TimerService:
        return self._timers

    def timestamp(self) -> int:
        return NO_TIMESTAMP if self._timestamp is None else self._timestamp


class _Op:
    """A bound operator: ``run(values, timestamps, side)`` -> (values, timestamps)."""

    def __init__(self, spec: OpSpec):
        self.spec = spec
        self.call = bind(spec.kind, spec.fn) if spec.kind in _METHOD else None
        self.run = getattr(self, "_" + spec.kind)
        shape = output_shaper(spec.output_type) if spec.output_type is not None else None
        if shape is not None:
            self.run = self._shaping(self.run, shape)
        self.ctx = _ProcessContext() if spec.kind == "process" else None
        self.function = spec.fn
        self.waits = None
        if spec.kind == "async":
            self.function, self.waits = spec.fn.async_function, AsyncRunner(spec.fn, spec.label)

    def open(self):
        if isinstance(self.function, Function):
            try:
                self.function.open(StreamingRuntimeContext(self.spec.info))
            except Exception as e:  # noqa: BLE001 - any user error is reported
                raise operator_failure(e, self.spec.label) from None
        if self.waits is not None:
            self.waits.open()

    def close(self):
        if self.waits is not None:
            self.waits.close()
        if isinstance(self.function, Function):
            self.function.close()
        write_reports()

    def _map(self, values, ts, side):
        return list(map(self.call, values)), ts

    def _filter(self, values, ts, side):
        f = self.call
        if ts is None:
            return list(filter(f, values)), None
        kept = [(v, t) for v, t in zip(values, ts) if f(v)]
        return [v for v, _ in kept], [t for _, t in kept]

    def _flat_map(self, values, ts, side):
        f = self.call
        if ts is None:
            return [o for v in values for o in _iterate(f(v))], None
        out, out_ts = [], []
        for v, t in zip(values, ts):
            for o in _iterate(f(v)):
                out.append(o)
                out_ts.append(t)
        return out, out_ts

    def _process(self, values, ts, side):
        f, ctx = self.call, self.ctx
        out, out_ts = [], []
        for v, t in zip(values, ts if ts is not None else [None] * len(values)):
            ctx._timestamp = t
            for o in _iterate(f(v, ctx)):
                if type(o) is tuple and len(o) == 2 and isinstance(o[0], OutputTag):
                    side.append((o[0].tag_id, o[1], t))
                else:
                    out.append(o)
                    out_ts.append(t)
        return out, (out_ts if ts is not None else None)

    @staticmethod
    def _shaping(run, shape):
        """``run``, whose outputs take the shape PyFlink's serializers give values of the
        declared type (Rows get its field names, dicts Java's HashMap order)."""
        def shaped(values, ts, side):
            values, ts = run(values, ts, side)
            return [shape(v) for v in values], ts
        return shaped

    def _async(self, values, ts, side):
        return self.waits.run(values, ts)

    def _timestamps(self, values, ts, side):
        f = self.call
        previous = ts if ts is not None else [None] * len(values)
        return values, [int(f(v, MIN_WATERMARK if t is None else t))
                        for v, t in zip(values, previous)]

    def _key(self, values, ts, side):
        return list(map(self.call, values)), ts

    _partition = _key


def _iterate(result):
    return () if result is None else result


_SCALARS = frozenset((int, str, float, bool, bytes, type(None)))


def encode_keys(keys: list) -> list:
    """``encode_key`` of each key; scalar keys, the common case, in one pass, each distinct
    int or str pickled once when keys repeat."""
    kinds = set(map(type, keys))
    if not _SCALARS.issuperset(kinds):
        return [encode_key(k) for k in keys]
    dumps, protocol = pickle.dumps, records.PICKLE_PROTOCOL
    if kinds == {int} or kinds == {str}:  # equal keys are equal values (no 1 == True)
        distinct = set(keys)
        if len(distinct) * 2 <= len(keys):
            pickles = {k: dumps(k, protocol) for k in distinct}
            return list(map(pickles.__getitem__, keys))
    return [dumps(k, protocol) for k in keys]


def encode_key(key) -> bytes:
    """The bytes a key is grouped by: equal keys give equal bytes (no pickle memo)."""
    if type(key) in _SCALARS:
        return pickle.dumps(key, records.PICKLE_PROTOCOL)
    pickler_file = _KeyBuffer()
    pickler = pickle.Pickler(pickler_file, records.PICKLE_PROTOCOL)
    pickler.fast = True  # no memo: equal tuples pickle to equal bytes
    pickler.dump(key)
    return pickler_file.getvalue()


class _KeyBuffer:
    def __init__(self):
        self.parts = []

    def write(self, data):
        self.parts.append(bytes(data))

    def getvalue(self) -> bytes:
        return b"".join(self.parts)


@dataclass(frozen=True)
class FusedStage:
    """A chain of operators from one layout to another; the function given to mapInArrow.

    With a trailing 'key' op the output carries the ``__key`` column and the value pickled
    (ready for a keyed stage). With ``side_tags`` the output is tagged: main and side records
    pickled, each with the id of its output tag.
    """

    ops: tuple
    input: Layout
    output: Layout
    side_tags: tuple = ()
    # the input carries ``__order`` (a keyed operator's output order) and the ops keep one
    # record per record: each record's ``__seq`` is its ``__order``, not its partition's place
    places_from_order: bool = False

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        ops = [_Op(spec) for spec in self.ops]
        with _opened(ops):
            decode = _decoder(self.input)
            encode = self._encoder()
            replay = _Replay.of(self)
            for batch in batches:
                if replay is None:
                    out = encode(*_run(ops, *decode(batch)))
                else:
                    out = encode(*replay.run(ops, batch, *decode(batch)))
                if self.places_from_order:
                    out = out.set_column(out.schema.get_field_index(SEQ), SEQ,
                                         batch.column(ORDER))
                if out.num_rows:
                    yield out

    def _encoder(self) -> Callable:
        """Encodes the output; a value that does not fit is blamed on the operator that made
        it (a trailing key or partition op only routes it)."""
        makers = [op for op in self.ops if op.kind not in ("key", "partition")]
        label = makers[-1].label if makers else "source"
        placement = self.ops[-1].placement if self.ops else None
        return TaggedEncoder(self.output, self.side_tags, label, placement).encode


@contextlib.contextmanager
def _opened(ops: List[_Op]) -> Iterator[None]:
    """The user functions of ``ops`` opened, and closed at the end (those that opened)."""
    opened = []
    try:
        for op in ops:
            op.open()
            opened.append(op)
        yield
    finally:
        for op in opened:
            op.close()


def _decoder(layout: Layout) -> Callable[[pa.RecordBatch], tuple]:
    """``batch -> (values, timestamps or None)`` for batches of ``layout``."""
    decode = records.batch_decoder(layout.type_info)
    n_data = len(layout.data_columns)
    kinds = records.ROW_KIND in layout.data_columns

    def values_and_timestamps(batch: pa.RecordBatch) -> tuple:
        data = batch.columns[:n_data]
        if kinds and batch.schema.names[n_data - 1] != records.ROW_KIND:
            data = data[:n_data - 1]  # rows a Spark source made without their kinds: +I
        return (decode(data),
                timestamps_from_arrow(batch.column(TS)) if layout.timestamped else None)
    return values_and_timestamps


def _run(ops: List[_Op], values: list, ts: Optional[list]) -> tuple:
    """Run the chain over one batch: ``(values, timestamps, trailing keys, side outputs)``."""
    side: list = []
    trailing = None  # the keys or partition ids a trailing key/partition op gives
    for op in ops:
        try:
            if op.spec.kind in ("key", "partition"):
                trailing, _ = op.run(values, ts, side)
            else:
                values, ts = op.run(values, ts, side)
        except Exception as e:  # noqa: BLE001 - any user error is reported
            raise operator_failure(e, op.spec.label) from None
    return values, ts, trailing, side


class _Replay:
    """A stage on the way of Flink's periodic watermarks over a bounded input
    (``runtime.arrivals``): its chain runs record by record, timed; each output carries
    when it left the stage and the watermark its record came with, which a trailing
    assigner's ``emission`` gives."""

    def __init__(self, stage: "FusedStage"):
        self.input = stage.input
        self.clock = RecordClock()
        last = stage.ops[-1] if stage.ops else None
        self.emission = PeriodicEmission(*last.emission) \
            if last is not None and last.emission and stage.output.watermarks else None
        self.routes = any(op.kind in ("key", "partition") for op in stage.ops)

    @classmethod
    def of(cls, stage: "FusedStage") -> Optional["_Replay"]:
        """The replay of ``stage``, if what it makes carries one (an async operator runs
        its records together: they come out without, and the watermark moves per batch)."""
        if not (stage.output.arrival or stage.output.watermarks) or \
                any(op.kind == "async" for op in stage.ops):
            return None
        return cls(stage)

    def run(self, ops: List[_Op], batch: pa.RecordBatch, values: list,
            ts: Optional[list]) -> tuple:
        """``_run``, record by record: ``(values, timestamps, trailing, side, replayed)``,
        ``replayed`` the arrival and watermark of each output."""
        n = len(values)
        arrived = batch.column(ARRIVAL).to_pylist() if self.input.arrival else [None] * n
        came_with = batch.column(WM).to_pylist() if self.input.watermarks else [None] * n
        stamps = ts if ts is not None else [None] * n
        out, out_ts, trailing, side, arrivals, watermarks = [], [], [], [], [], []
        leave, clock = self.clock.leave, time.perf_counter
        for i, value in enumerate(values):
            start = clock()
            made, made_ts, keys, made_side = _run(ops, [value], [stamps[i]])
            left = leave(arrived[i], (clock() - start) * 1000.0)
            out += made
            out_ts += made_ts if made_ts is not None else [None] * len(made)
            trailing += keys or ()
            side += made_side
            arrivals += [left] * len(made)
            watermarks += [came_with[i]] * len(made)
        if self.emission is not None:
            watermarks = list(map(self.emission.came_with, arrivals, out_ts))
        return out, out_ts, trailing if self.routes else None, side, (arrivals, watermarks)


EVERY_RECORD = "*"  # a branch of a RoutedStage over an untagged input


@dataclass(frozen=True)
class RoutedStage:
    """The branches of a union that read one DataFrame, in one pass over it: each branch
    (an output tag, None for the main output, or EVERY_RECORD) runs its chain of operators
    over its records, and the outputs are concatenated. Spark would otherwise plan what made
    the DataFrame once per branch: a keyed operator would run twice, each copy with its own
    state and timers.
    """

    branches: tuple  # ((tag, ops), ...)
    input: Layout
    output: Layout

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        import pyarrow.compute as pc


        routes = [(tag, [_Op(spec) for spec in ops],
                   TaggedEncoder(self.output, (), ops[-1].label if ops else "union").encode)
                  for tag, ops in self.branches]
        with _opened([op for _, ops, _ in routes for op in ops]):
            decode = _decoder(self.input)
            for batch in batches:
                for tag, ops, encode in routes:
                    part = batch if tag == EVERY_RECORD else batch.filter(
                        pc.is_null(batch.column(TAG)) if tag is None
                        else pc.equal(batch.column(TAG), tag))
                    # decoded per branch: each branch gets its own copies of the records
                    out = encode(*_run(ops, *decode(part))) if part.num_rows else part
                    if out.num_rows:
                        yield out


class TaggedEncoder:
    """Encodes a stage's output into a batch of ``layout``: main records, and with a tagged
    layout also the side-output records of the wanted tags."""

    def __init__(self, layout: Layout, side_tags: tuple, label: str,
                 placement: Optional[KeyPlacement] = None):
        self.layout = layout
        self.placement = placement
        self.schema = layout.arrow_schema()
        self.label = label
        self.encode_data = records.batch_encoder(layout.type_info)
        self.wanted = set(side_tags)

    def emitted(self, triples: list) -> pa.RecordBatch:
        """Encode what a keyed function emitted: ``(tag, value, timestamp)`` triples, values
        as ``keyed.freeze`` left them (tag None: the main output)."""
        if isinstance(self.layout.type_info, PickledBytesTypeInfo):
            return self._pickled(triples)
        main = [t for t in triples if t[0] is None]
        side = [(t[0], thaw(t[1]), t[2]) for t in triples if t[0] is not None]
        return self.encode([thaw(t[1]) for t in main], [t[2] for t in main], None, side)

    def _pickled(self, triples: list) -> pa.RecordBatch:
        """Emitted values into a pickled layout (snapshots are pickles already)."""
        if not self.layout.tagged:
            triples = [t for t in triples if t[0] is None]
        else:
            triples = [t for t in triples if t[0] is None or t[0] in self.wanted]
        columns = [pa.array([frozen_bytes(t[1]) for t in triples], pa.binary())]
        if self.layout.timestamped:
            columns.append(timestamps_to_arrow([t[2] for t in triples]))
        if self.layout.tagged:
            columns.append(pa.array([t[0] for t in triples], pa.string()))
        return pa.RecordBatch.from_arrays(columns, schema=self.schema)

    def encode(self, values: list, ts: Optional[list], trailing: Optional[list],
               side: list, replayed: Optional[tuple] = None) -> pa.RecordBatch:
        """``replayed``: the arrival and watermark of each record, see ``_Replay``."""
        layout = self.layout
        tags: Optional[List[Optional[str]]] = None
        if layout.tagged:
            side = [s for s in side if s[0] in self.wanted]
            tags = [None] * len(values) + [s[0] for s in side]
            ts = (ts if ts is not None else [None] * len(values)) + [s[2] for s in side]
            values = values + [s[1] for s in side]
        try:
            columns = self.encode_data(values)
        except records.RecordTypeError as e:
            raise operator_failure(e, self.label, e.value) from None
        if layout.timestamped:
            columns.append(timestamps_to_arrow(ts if ts is not None else [None] * len(values)))
        if layout.keyed:
            keys = encode_keys(trailing)
            if self.placement is not None:
                keys = self.placement.place(trailing, keys)
            columns.append(pa.array(keys, pa.binary()))
        if layout.tagged:
            columns.append(pa.array(tags, pa.string()))
        if layout.partition_ids:
            columns.append(pa.array(trailing, pa.int32()))
        if layout.sequenced:
            columns.append(self._places(len(values)))
        arrivals, watermarks = replayed or (None, None)
        if layout.arrival:
            columns.append(pa.array(arrivals or [None] * len(values), pa.float64()))
        if layout.watermarks:
            columns.append(pa.array(watermarks or [None] * len(values), pa.int64()))
        return pa.RecordBatch.from_arrays(columns, schema=self.schema)

    def _places(self, n: int) -> pa.Array:
        """The next ``n`` places of this task's records: its partition's, then in order."""
        if getattr(self, "_next_place", None) is None:
            from pyspark import TaskContext

            ctx = TaskContext.get()
            self._next_place = (ctx.partitionId() if ctx is not None else 0) << 33
        start, self._next_place = self._next_place, self._next_place + n
        return pa.array(range(start, start + n), pa.int64())
