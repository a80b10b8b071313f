"""Python-side sources served to Spark through one Python Data Source, ``pystream``.

A ``ReadSpec`` says what to read: a schema, a list of splits and how to read a split into
Arrow batches. The same spec serves a batch read (``spark.read``) and a streaming read
(``spark.readStream``; every split is available at once, so a bounded source finishes by
itself under ``trigger(availableNow=True)``). The spec travels in the ``spec`` option,
cloudpickled, so user functions and modules go with it.
"""
from __future__ import annotations

import base64
from typing import Any, Iterator, List

import pyarrow as pa
from pyspark.sql.datasource import (
    DataSource,
    DataSourceReader,
    DataSourceStreamReader,
    InputPartition,
)
from pyspark.sql.streaming.datasource import SupportsTriggerAvailableNow

FORMAT = "pystream"


class ReadSpec:
    """What a Python-side source reads (subclasses run in Spark's Python workers)."""

    def schema(self):
        """The Spark StructType of the records."""
        raise NotImplementedError

    def splits(self) -> List[Any]:
        """Picklable descriptions of the parallel pieces of the input."""
        raise NotImplementedError

    def read(self, split: Any) -> Iterator[pa.RecordBatch]:
        """The records of one split."""
        raise NotImplementedError

    # A spec whose input grows (an unbounded source) also defines ``stream_reader()``: the
    # DataSourceStreamReader to use instead of the all-splits-at-once one.

    #: the records are fixed when the job is compiled (a collection, a number range): a
    #: streaming read may then serve them from files written at compile time
    static = False


def encode_spec(spec: ReadSpec) -> str:
    from pyspark import cloudpickle

    return base64.b64encode(cloudpickle.dumps(spec)).decode("ascii")


def _decode_spec(text: str) -> ReadSpec:
    import pickle

    return pickle.loads(base64.b64decode(text))


class PystreamDataSource(DataSource):
    """The ``pystream`` format: reads whatever the ``spec`` option describes."""

    @classmethod
    def name(cls) -> str:
        return FORMAT

    def __init__(self, options):
        super().__init__(options)
        self.spec = _decode_spec(options["spec"])

    def schema(self):
        return self.spec.schema()

    def reader(self, schema) -> DataSourceReader:
        return _BatchReader(self.spec)

    def streamReader(self, schema) -> DataSourceStreamReader:
        own = getattr(self.spec, "stream_reader", None)  # a spec with real offsets (Kafka)
        return own() if own is not None else _StreamReader(self.spec)


class _BatchReader(DataSourceReader):
    def __init__(self, spec: ReadSpec):
        self.spec = spec

    def partitions(self):
        return [InputPartition(split) for split in self.spec.splits()]

    def read(self, partition):
        yield from self.spec.read(partition.value)


class _StreamReader(DataSourceStreamReader, SupportsTriggerAvailableNow):
    """All splits are available from the start: offset n means the first n splits are read."""

    def __init__(self, spec: ReadSpec):
        self.spec = spec
        self._splits = spec.splits()

    def initialOffset(self) -> dict:
        return {"splits": 0}

    def prepareForTriggerAvailableNow(self) -> None:
        pass

    def latestOffset(self, start=None, limit=None) -> dict:
        return {"splits": len(self._splits)}

    def partitions(self, start: dict, end: dict):
        return [InputPartition(split) for split in self._splits[start["splits"]:end["splits"]]]

    def read(self, partition):
        yield from self.spec.read(partition.value)

    def commit(self, end: dict) -> None:
        pass


def arrow_table(spec: ReadSpec, batches: List[pa.RecordBatch]) -> pa.Table:
    """``batches`` of ``spec`` as one Arrow table of its schema."""
    from pyspark.sql.pandas.types import to_arrow_schema

    return pa.Table.from_batches(batches, to_arrow_schema(spec.schema(), timezone="UTC"))


def write_parquet(spec: ReadSpec, directory: str) -> None:
    """Write each split of ``spec`` to its own Parquet file in ``directory``."""
    import os

    import pyarrow.parquet as pq
    from pyspark.sql.pandas.types import to_arrow_schema

    schema = to_arrow_schema(spec.schema(), timezone="UTC")
    for index, split in enumerate(spec.splits()):
        path = os.path.join(directory, "split-%05d.parquet" % index)
        with pq.ParquetWriter(path, schema) as writer:
            for batch in spec.read(split):
                writer.write_batch(batch)


def register(session) -> None:
    """Make the ``pystream`` format known to ``session`` (idempotent; a job registers it
    when it first reads one of pystream's sources: registering starts a Python worker)."""
    if getattr(session, "_pystream_source_registered", False):
        return
    session.dataSource.register(PystreamDataSource)
    try:
        session._pystream_source_registered = True
    except AttributeError:  # pragma: no cover - a session object that refuses attributes
        pass


# ---------------------------------------------------------------------------------------------
# The specs of the built-in bounded sources


class ArrowRead(ReadSpec):
    """Pre-encoded Arrow data (``from_collection``): one split per IPC buffer."""

    static = True

    def __init__(self, spark_schema, buffers: List[bytes]):
        self._schema = spark_schema
        self.buffers = buffers

    def schema(self):
        return self._schema

    def splits(self):
        return list(range(len(self.buffers)))

    def read(self, split):
        reader = pa.ipc.open_stream(self.buffers[split])
        yield from reader


class RangeRead(ReadSpec):
    """The longs start..end (inclusive) in ``parallelism`` contiguous splits."""

    static = True

    CHUNK = 10_000

    def __init__(self, start: int, end: int, parallelism: int, column: str = "value"):
        self.start, self.end = start, end
        self.parallelism = max(1, parallelism)
        self.column = column

    def schema(self):
        from pyspark.sql import types as st

        return st.StructType([st.StructField(self.column, st.LongType(), True)])

    def splits(self):
        total = self.end - self.start + 1
        bounds = [self.start + total * i // self.parallelism for i in range(self.parallelism + 1)]
        return [(lo, hi) for lo, hi in zip(bounds, bounds[1:]) if hi > lo]

    def read(self, split):
        lo, hi = split
        for chunk in range(lo, hi, self.CHUNK):
            values = pa.array(range(chunk, min(chunk + self.CHUNK, hi)), pa.int64())
            yield pa.RecordBatch.from_arrays([values], names=[self.column])


class PacedRangeRead(RangeRead):
    """``RangeRead`` at ``rows_per_second`` (a bounded DataGeneratorSource with a rate).

    A batch read sleeps between chunks; a streaming read offers, at each micro-batch, the
    indices due by then (waiting for the next one when none is), so the stream advances at
    the rate and ends with the last index.
    """

    static = False

    def __init__(self, start: int, end: int, parallelism: int, rows_per_second: float):
        super().__init__(start, end, parallelism)
        self.rows_per_second = rows_per_second

    def read(self, split):
        import time

        lo, hi = split
        rate = self.rows_per_second * (hi - lo) / max(1, self.end - self.start + 1)
        chunk = max(1, min(self.CHUNK, int(rate // 10) or 1))  # ~10 batches a second
        began = time.monotonic()
        for first in range(lo, hi, chunk):
            wait = began + (first - lo) / rate - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            values = pa.array(range(first, min(first + chunk, hi)), pa.int64())
            yield pa.RecordBatch.from_arrays([values], names=[self.column])

    def stream_reader(self):
        return _PacedStreamReader(self)


class _PacedStreamReader(DataSourceStreamReader, SupportsTriggerAvailableNow):
    """Offset n: indices start..start+n-1 have been offered."""

    def __init__(self, spec: PacedRangeRead):
        self.spec = spec
        self.total = spec.end - spec.start + 1
        self.began = None

    def initialOffset(self) -> dict:
        return {"next": 0}

    def prepareForTriggerAvailableNow(self) -> None:
        pass

    def latestOffset(self, start=None, limit=None) -> dict:
        import time

        now = time.monotonic()
        if self.began is None:
            self.began = now - (start or {"next": 0})["next"] / self.spec.rows_per_second
        offered = (start or {"next": 0})["next"]
        if offered >= self.total:
            return {"next": self.total}
        # wait for the next index due: an empty micro-batch would end an availableNow query
        due = self.began + (offered + 1) / self.spec.rows_per_second
        if due > now:
            time.sleep(due - now)
            now = due
        due_now = int((now - self.began) * self.spec.rows_per_second)
        return {"next": min(self.total, max(offered + 1, due_now))}

    def partitions(self, start: dict, end: dict):
        lo, hi = self.spec.start + start["next"], self.spec.start + end["next"]
        n = self.spec.parallelism
        bounds = [lo + (hi - lo) * i // n for i in range(n + 1)]
        return [InputPartition((a, b)) for a, b in zip(bounds, bounds[1:]) if b > a]

    def read(self, partition):
        yield from RangeRead.read(self.spec, partition.value)  # due already: not paced

    def commit(self, end: dict) -> None:
        pass
