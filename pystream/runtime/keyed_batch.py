"""BATCH mode keyed execution, the way Flink runs it: input sorted by key, one key at a time.

The compiler hash-partitions the stream by ``__key`` and sorts each partition by
(``__key``, input order); this stage walks the runs of equal keys with in-memory state, and at
the end of each key fires all of its timers (the watermark jumps to +inf, as in Flink BATCH).
"""
from __future__ import annotations

import pickle
from dataclasses import dataclass
from typing import Any, Iterator, Tuple

import pyarrow as pa
import pyarrow.compute as pc

from pystream.runtime import records
from pystream.runtime.context import TaskInfo
from pystream.runtime.keyed import EVENT, MAX_WATERMARK, MIN_WATERMARK, PROCESSING, KeyedHost
from pystream.runtime.layout import KEY, TS, Layout, timestamps_from_arrow
from pystream.runtime.stage import TaggedEncoder
from pystream.runtime.state import DictBackend

INPUT = "__input"  # which input of a two-input operator a record comes from


@dataclass(frozen=True)
class KeyedBatchStage:
    """The mapInArrow function of a keyed operator in BATCH mode."""

    function: Any
    info: TaskInfo
    label: str
    input: Layout
    output: Layout
    side_tags: tuple = ()

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        host = KeyedHost(self.function, self.info, self.label)
        host.open()
        encode = TaggedEncoder(self.output, self.side_tags, self.label)
        decode = records.batch_decoder(self.input.type_info)
        n_data = len(self.input.data_columns)
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
class BoundedKeyedStage:
    """The mapInArrow function of a STREAMING keyed operator without timers over a bounded
    input read at once (``plan.batch``): what its transformWithState does in that one
    micro-batch. Records are taken in the order they come (the compiler gives each key's in
    arrival order), each key's state kept from its first record to the end; nothing fires
    at the end, and the function's STREAMING semantics hold (a reduce emits every update)."""

    function: Any
    info: TaskInfo
    label: str
    input: Layout
    output: Layout
    side_tags: tuple = ()

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        host = KeyedHost(self.function, self.info, self.label)
        host.open()
        encode = TaggedEncoder(self.output, self.side_tags, self.label)
        decode = records.batch_decoder(self.input.type_info)
        n_data = len(self.input.data_columns)
        states: dict = {}  # key -> its state
        try:
            for batch in batches:
                values = decode(batch.columns[:n_data])
                ts = timestamps_from_arrow(batch.column(TS)) if TS in batch.schema.names \
                    else [None] * batch.num_rows
                for start, end, key, input_index in _runs(batch):
                    if key not in states:
                        states[key] = DictBackend()
                    host.set_key(pickle.loads(key), states[key])
                    host.process_run(values[start:end], ts[start:end], input_index)
                    host.finish_key()
                out = encode.emitted(host.drain())
                if out.num_rows:
                    yield out
        finally:
            host.close()


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
