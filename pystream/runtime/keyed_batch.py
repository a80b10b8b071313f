"""BATCH mode keyed execution, the way Flink runs it: input sorted by key, one key at a time.

The compiler hash-partitions the stream by ``__key`` and sorts each partition by
(``__key``, input order); this stage walks the runs of equal keys with in-memory state, and at
the end of each key fires all of its timers (the watermark jumps to +inf, as in Flink BATCH).
"""
from __future__ import annotations

import pickle
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, Optional, Tuple

import pyarrow as pa
import pyarrow.compute as pc

from pystream.runtime import records
from pystream.runtime.context import TaskInfo
from pystream.runtime.keyed import (
    EVENT,
    MAX_WATERMARK,
    MIN_WATERMARK,
    PROCESSING,
    TIMERS,
    KeyedHost,
    process_one_by_one,
    timer_order,
)
from pystream.runtime.layout import KEY, ORDER, SEQ, TS, WM, Layout, timestamps_from_arrow
from pystream.runtime.stage import TaggedEncoder
from pystream.runtime.state import _MISSING, DictBackend

INPUT = "__input"  # which input of a two-input operator a record comes from


@dataclass(frozen=True)
class _KeyedStage:
    """What the keyed stages over batch DataFrames have: the function, its task, its input's
    and output's layouts, the side outputs read."""

    function: Any
    info: TaskInfo
    label: str
    input: Layout
    output: Layout
    side_tags: tuple = ()

    def _started(self) -> Tuple[KeyedHost, TaggedEncoder, Callable, int]:
        """The opened host, the output's encoder, the input's decoder and its number of
        data columns."""
        host = KeyedHost(self.function, self.info, self.label)
        host.open()
        return (host, TaggedEncoder(self.output, self.side_tags, self.label),
                records.batch_decoder(self.input.type_info), len(self.input.data_columns))


@dataclass(frozen=True)
class KeyedBatchStage(_KeyedStage):
    """The mapInArrow function of a keyed operator in BATCH mode."""

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        host, encode, decode, n_data = self._started()
        current = None
        try:
            for batch in batches:
                names = batch.schema.names
                values = decode(batch.columns[:n_data])
                ts = timestamps_from_arrow(batch.column(TS)) if TS in names else None
                for start, end, key, input_index in _runs(batch):
                    if key != current:
                        if current is not None:
                            self._end_key(host)
                        current = key
                        host.set_key(pickle.loads(key), DictBackend())
                    host.process_run(values[start:end],
                                     ts[start:end] if ts is not None else [None] * (end - start),
                                     input_index)
                out = encode.emitted(host.drain())
                if out.num_rows:
                    yield out
            if current is not None:
                self._end_key(host)
                out = encode.emitted(host.drain())
                if out.num_rows:
                    yield out
        finally:
            host.close()

    @staticmethod
    def _end_key(host: KeyedHost) -> None:
        """Flink's batch execution: at a key's end its watermark jumps to the maximum (every
        timer fires); the next key starts again from the minimum."""
        host.fire_due(MAX_WATERMARK, MAX_WATERMARK, domains=(EVENT, PROCESSING))
        host.finish_key()
        host.watermark = MIN_WATERMARK


@dataclass(frozen=True)
class BoundedKeyedStage(_KeyedStage):
    """The mapInArrow function of a STREAMING keyed operator over a bounded input read at
    once (``plan.batch``): what its transformWithState does (``runtime.keyed_stream``) in
    the micro-batch that reads the input and, with event time, in the one after it, where
    the final watermark fires every timer left. Records come in arrival order (at
    parallelism 1, where each has its place, ``__seq``) or sorted by key, each key's in
    arrival order; the function's STREAMING semantics hold (a reduce
    emits every update; timers fire as the watermark each record came with passes them).
    Where the input has each record's place (``__seq``, parallelism 1), the output has each
    output's (``__order``), as keyed_stream gives them."""

    event_time: bool = False

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        host, encode, decode, n_data = self._started()
        states: Dict[bytes, DictBackend] = {}
        watermarks: Dict[bytes, int] = {}  # each key's, from Spark's (the minimum) up
        try:
            for batch in batches:
                names = batch.schema.names
                values = decode(batch.columns[:n_data])
                n = batch.num_rows
                ts = timestamps_from_arrow(batch.column(TS)) if TS in names else [None] * n
                seq = batch.column(SEQ).to_pylist() if SEQ in names else None
                came_with = batch.column(WM).to_pylist() if WM in names else None
                for start, end, key, input_index in _runs(batch):
                    if key not in states:
                        states[key] = DictBackend()
                    host.set_key(pickle.loads(key), states[key])
                    host.watermark = watermarks.get(key, MIN_WATERMARK)
                    orders = None
                    if seq is not None or came_with is not None:
                        places = seq[start:end] if seq is not None else [None] * (end - start)
                        marks = came_with[start:end] if came_with is not None \
                            else [None] * (end - start)
                        placed = process_one_by_one(host, list(zip(
                            [input_index] * (end - start), values[start:end], ts[start:end],
                            places, marks)))
                        orders = placed if seq is not None else None
                    else:
                        host.process_run(values[start:end], ts[start:end], input_index)
                    watermarks[key] = host.watermark
                    out = self._finish(host, encode, orders)
                    if out.num_rows:
                        yield out
            if self.event_time:  # the final watermark: every key's timers, earliest first
                yield from self._end_of_input(host, encode, states)
        finally:
            host.close()

    def _end_of_input(self, host: KeyedHost, encode: "TaggedEncoder",
                      states: Dict[bytes, DictBackend]) -> Iterator[pa.RecordBatch]:
        pending = []
        for key, state in states.items():
            timers = state.get(TIMERS)
            events = [ts for domain, ts in timers if domain == EVENT] \
                if timers is not _MISSING else []
            if events:
                pending.append((min(events), key))
        for _, key in sorted(pending):
            host.set_key(pickle.loads(key), states[key])
            host.fire_due(MAX_WATERMARK, domains=(EVENT,))
            out = self._finish(host, encode, None)
            if out.num_rows:
                yield out

    def _finish(self, host: KeyedHost, encode: "TaggedEncoder",
                orders: Optional[list]) -> pa.RecordBatch:
        """The key's outputs (after the processing-time timers an event-time function has
        due now, as keyed_stream fires them), with their places when ``__seq`` came in."""
        if self.event_time:
            host.fire_due(host.watermark, int(time.time() * 1000), domains=(PROCESSING,))
        host.finish_key()
        emitted = host.drain()
        if orders is None and not self.input.sequenced:
            return encode.emitted(emitted)
        orders = (orders or [])[:len(emitted)]
        orders += [timer_order(t) for _, _, t in emitted[len(orders):]]
        kept = [i for i, (tag, _, _) in enumerate(emitted)
                if tag is None or (self.output.tagged and tag in self.side_tags)]
        out = encode.emitted([emitted[i] for i in kept])
        return out.append_column(ORDER, pa.array([orders[i] for i in kept], pa.int64()))

    def output_schema(self):
        """The Spark schema of the stage's output (``__order`` after the layout's columns
        when the input has each record's place)."""
        from pyspark.sql import types as st

        schema = self.output.spark_schema()
        if self.input.sequenced:
            schema = schema.add(ORDER, st.LongType(), False)
        return schema


def _runs(batch: pa.RecordBatch) -> Iterator[Tuple[int, int, bytes, int]]:
    """The runs of equal (key, input) rows of a sorted batch: (start, end, key, input)."""
    n = batch.num_rows
    if n == 0:
        return iter(())
    keys = batch.column(KEY)
    changed = pc.not_equal(keys.slice(1), keys.slice(0, n - 1))
    inputs = batch.column(INPUT) if INPUT in batch.schema.names else None
    if inputs is not None:
        changed = pc.or_(changed, pc.not_equal(inputs.slice(1), inputs.slice(0, n - 1)))
    starts = [0] + [i + 1 for i in pc.indices_nonzero(changed).to_pylist()]
    ends = starts[1:] + [n]
    run_keys = keys.take(pa.array(starts)).to_pylist()
    run_inputs = (inputs.take(pa.array(starts)).to_pylist() if inputs is not None
                  else [0] * len(starts))
    return zip(starts, ends, run_keys, run_inputs)
