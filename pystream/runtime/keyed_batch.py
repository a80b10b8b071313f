"""BATCH mode keyed execution, the way Flink runs it: input sorted by key, one key at a time.

The compiler hash-partitions the stream by ``__key`` and sorts each partition by
(``__key``, input order); this stage walks the runs of equal keys with in-memory state, and at
the end of each key fires all of its timers (the watermark jumps to +inf, as in Flink BATCH).
"""
from __future__ import annotations

import pickle
from dataclasses import dataclass
from typing import Any, Iterator

import pyarrow as pa

from pystream.runtime.context import TaskInfo
from pystream.runtime.keyed import EVENT, MAX_WATERMARK, PROCESSING, KeyedHost
from pystream.runtime.layout import KEY, TS, Layout, timestamps_from_arrow
from pystream.runtime.records import VALUE_COLUMN
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
        current = None
        try:
            for batch in batches:
                names = batch.schema.names
                keys = batch.column(KEY).to_pylist()
                values = [pickle.loads(b) for b in batch.column(VALUE_COLUMN).to_pylist()]
                ts = (timestamps_from_arrow(batch.column(TS)) if TS in names
                      else [None] * len(keys))
                inputs = batch.column(INPUT).to_pylist() if INPUT in names else [0] * len(keys)
                for kb, value, t, i in zip(keys, values, ts, inputs):
                    if kb != current:
                        if current is not None:
                            self._end_key(host)
                        current = kb
                        host.set_key(pickle.loads(kb), DictBackend())
                    host.process(value, t, i)
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
        host.fire_due(MAX_WATERMARK, MAX_WATERMARK, domains=(EVENT, PROCESSING))
        host.finish_key()
