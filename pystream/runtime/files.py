"""Writing part files (FileSink), in Spark's Python workers.

One ``PartFileStage`` runs per micro-batch (or once in BATCH mode) as a ``mapInArrow``
function: each task (subtask) writes its records into part files of one bucket directory,
each file first under a hidden in-progress name, then renamed to
``<prefix>-<uuid>-<counter><suffix>``. The uuid derives from the sink, the batch id and the
subtask, so a replayed batch rewrites the same names instead of adding files; the stage
returns the paths it wrote. ``FileBatchCommitter`` is the ``foreachBatch`` function of a
streaming FileSink: it pins each batch's processing time (the bucket) in the checkpoint, so
a replay also lands in the same bucket.
"""
from __future__ import annotations

import datetime
import json
import re
import time
import uuid
from dataclasses import dataclass
from typing import Iterator, List, Optional

import pyarrow as pa

from pystream.common.typeinfo import (
    TypeInformation,
)
from pystream.runtime import filesystems, records
from pystream.runtime.errors import operator_failure
from pystream.runtime.filesystems import Directory
from pystream.runtime.layout import Layout
from pystream.runtime.records import ROW_KIND

RESULT_SCHEMA = "path string, records long"
_RESULT_ARROW = pa.schema([("path", pa.string()), ("records", pa.int64())])


# ---------------------------------------------------------------------------------------------
# bucket names


_JAVA_TOKENS = re.compile(r"'[^']*'|yyyy|yy|MM|dd|HH|hh|mm|ss|SSS|a")
_STRFTIME = {"yyyy": "%Y", "yy": "%y", "MM": "%m", "dd": "%d", "HH": "%H", "hh": "%I",
             "mm": "%M", "ss": "%S", "a": "%p"}


def java_date_format(pattern: str, when: datetime.datetime) -> str:
    """``when`` formatted with a Java DateTimeFormatter pattern (the common letters)."""
    def token(match):
        text = match.group(0)
        if text.startswith("'"):
            return text[1:-1] or "'"
        if text == "SSS":
            return "%03d" % (when.microsecond // 1000)
        return when.strftime(_STRFTIME[text])
    return _JAVA_TOKENS.sub(token, pattern)


def bucket_of(pattern: Optional[str], timezone_id: Optional[str], time_ms: int) -> str:
    """The bucket directory (relative to the base path) of records written at ``time_ms``."""
    if pattern is None:
        return ""
    if timezone_id:
        from zoneinfo import ZoneInfo

        when = datetime.datetime.fromtimestamp(time_ms / 1000, ZoneInfo(timezone_id))
    else:
        when = datetime.datetime.fromtimestamp(time_ms / 1000)
    return java_date_format(pattern, when)


# ---------------------------------------------------------------------------------------------
# file writers: how the records of one part file are written


class FileWriter:
    """Writes records into one open binary file; ``row_based`` writers can roll per record."""

    row_based = False

    def open(self, f) -> None:
        self.f = f

    def write(self, batch: pa.RecordBatch) -> None:
        raise NotImplementedError

    def close(self) -> None:
        pass


class EncoderFileWriter(FileWriter):
    """A row format: the Encoder's bytes of each record."""

    row_based = True

    def __init__(self, encoder, type_info: TypeInformation):
        self.encoder = encoder
        self.type_info = type_info

    def encoded(self, batch: pa.RecordBatch) -> List[bytes]:
        """The bytes of each record of ``batch``."""
        if not hasattr(self, "_encode"):
            self._decode = records.batch_decoder(self.type_info)
            self._encode = self.encoder.encoder_for(self.type_info)
        encode = self._encode
        return [encode(v) for v in self._decode(batch.columns)]


class CsvFileWriter(EncoderFileWriter):
    """CSV lines of a CsvSchema, with an optional header line per file."""

    row_based = False

    def __init__(self, codec, type_info: TypeInformation, header: Optional[str]):
        self.codec = codec
        self.type_info = type_info
        self.header = header

    def open(self, f) -> None:
        super().open(f)
        if self.header:
            f.write(self.header.encode("utf-8"))

    def write(self, batch: pa.RecordBatch) -> None:
        decode = records.batch_decoder(self.type_info)
        self.f.write("".join(self.codec.format_row(v) for v in decode(batch.columns))
                     .encode("utf-8"))


class ArrowFileWriter(FileWriter):
    """Parquet or ORC files of a row type: the stream's columns, renamed and cast."""

    def __init__(self, kind: str, row_type_info: TypeInformation):
        self.kind = kind
        schema = Layout(row_type_info).arrow_schema()
        self.schema = pa.schema([f for f in schema if f.name != ROW_KIND])  # data only
        self.writer = None

    def write(self, batch: pa.RecordBatch) -> None:
        if ROW_KIND in batch.schema.names:
            batch = batch.drop_columns([ROW_KIND])
        if batch.num_columns != len(self.schema):
            raise TypeError("the stream has %d fields but the writer's row type has %d"
                            % (batch.num_columns, len(self.schema)))
        table = pa.Table.from_batches([batch]).rename_columns(self.schema.names)
        table = table.cast(self.schema)
        if self.writer is None:
            if self.kind == "parquet":
                import pyarrow.parquet as pq

                self.writer = pq.ParquetWriter(self.f, self.schema)
            else:
                import pyarrow.orc as orc

                self.writer = orc.ORCWriter(self.f)
        self.writer.write_table(table) if self.kind == "parquet" else self.writer.write(table)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


# ---------------------------------------------------------------------------------------------
# the write stage


@dataclass(frozen=True)
class PartFileSpec:
    """Everything a task needs to write a FileSink's part files."""

    base_path: str
    type_info: TypeInformation
    encoder: object  # an Encoder (row format) or None
    writer_factory: object  # a bulk writer factory or None
    bucket_pattern: Optional[str]
    timezone_id: Optional[str]
    prefix: str
    suffix: str
    part_size: Optional[int]
    label: str

    def file_writer(self) -> FileWriter:
        if self.encoder is not None:
            return EncoderFileWriter(self.encoder, self.type_info)
        return self.writer_factory.file_writer(self.type_info)


class _Part:
    """One part file being written under its hidden in-progress name."""

    def __init__(self, directory: Directory, name: str, writer: FileWriter):
        self.directory = directory
        self.name = name
        self.temp = ".%s.inprogress.%s" % (name, uuid.uuid4())
        self.file = directory.open_output(self.temp)  # closed in commit()
        self.writer = writer
        self.records = 0
        self.size = 0  # bytes of the records given to a row writer
        writer.open(self.file)

    def commit(self) -> str:
        self.writer.close()
        self.file.close()
        self.directory.sync(self.temp)
        self.directory.rename(self.temp, self.name)
        return self.directory.file(self.name)


class PartFileStage:
    """The mapInArrow function writing one batch of a FileSink (see the module docstring)."""

    def __init__(self, spec: PartFileSpec, sink_id: str, batch_id: int, time_ms: int):
        self.spec = spec
        self.sink_id = sink_id
        self.batch_id = batch_id
        self.time_ms = time_ms

    def file_uuid(self, subtask: int) -> str:
        return str(uuid.uuid5(uuid.NAMESPACE_URL, "pystream-filesink:%s/%d/%d"
                              % (self.sink_id, self.batch_id, subtask)))

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        from pyspark import TaskContext


        spec = self.spec
        subtask = TaskContext.get().partitionId()
        directory = filesystems.directory(spec.base_path).join(
            bucket_of(spec.bucket_pattern, spec.timezone_id, self.time_ms))
        stem = "%s-%s-" % (spec.prefix, self.file_uuid(subtask))
        written: List[tuple] = []
        part: Optional[_Part] = None
        try:
            directory.make()
            for name in directory.names():
                if name.startswith("." + stem) and ".inprogress." in name:
                    directory.remove(name)  # an earlier attempt of this task
            for batch in batches:
                if not batch.num_rows:
                    continue
                if part is None:
                    part = self._open(directory, stem, len(written))
                if not part.writer.row_based:
                    part.writer.write(batch)
                    part.records += batch.num_rows
                    continue
                chunks = part.writer.encoded(batch)
                first = 0
                for i, data in enumerate(chunks if spec.part_size else ()):
                    if part.records and part.size >= spec.part_size:  # roll
                        part.file.write(b"".join(chunks[first:i]))
                        written.append((part.commit(), part.records))
                        part = self._open(directory, stem, len(written))
                        first = i
                    part.size += len(data)
                    part.records += 1
                part.file.write(b"".join(chunks[first:]))
                if not spec.part_size:
                    part.records += len(chunks)
            if part is not None:
                written.append((part.commit(), part.records))
                part = None
        except OSError as e:
            raise operator_failure(OSError("cannot write part files in %s: %s"
                                           % (directory.path, e)), spec.label, None) from None
        except Exception as e:  # noqa: BLE001 - a record that does not fit the format
            raise operator_failure(e, spec.label) from None
        finally:
            if part is not None:
                part.file.close()
        yield pa.RecordBatch.from_arrays([pa.array([w[0] for w in written], pa.string()),
                                          pa.array([w[1] for w in written], pa.int64())],
                                         schema=_RESULT_ARROW)

    def _open(self, directory: Directory, stem: str, counter: int) -> _Part:
        return _Part(directory, "%s%d%s" % (stem, counter, self.spec.suffix),
                     self.spec.file_writer())


def write_batch(df, spec: PartFileSpec, sink_id: str, batch_id: int, time_ms: int) -> list:
    """Write the records of ``df`` (typed columns) as part files; the paths written."""
    stage = PartFileStage(spec, sink_id, batch_id, time_ms)
    return [row.path for row in df.mapInArrow(stage, RESULT_SCHEMA).collect()]


class FileBatchCommitter:
    """The ``foreachBatch`` function of a streaming FileSink (see the module docstring)."""

    LOG = "pystream-filesink"

    def __init__(self, spec: PartFileSpec, checkpoint: str):
        self.spec = spec
        self.log = filesystems.directory(checkpoint).join(self.LOG)
        where = filesystems.local_path(checkpoint) if filesystems.is_local(checkpoint) \
            else checkpoint
        self.sink_id = str(uuid.uuid5(uuid.NAMESPACE_URL, "pystream-sink:" + where))

    def __call__(self, batch_df, batch_id: int) -> None:
        write_batch(batch_df, self.spec, self.sink_id, batch_id, self.batch_time(batch_id))

    def batch_time(self, batch_id: int) -> int:
        """The processing time of ``batch_id``: now, or what its first attempt recorded."""
        log = self.log
        name = "%d.json" % batch_id
        if log.exists(name):
            return json.loads(log.read_text(name))["time"]
        log.make()
        time_ms = int(time.time() * 1000)
        log.write_text(name, json.dumps({"time": time_ms}))
        for other in log.names():  # earlier batches are committed: never replayed
            if other.endswith(".json") and int(other.split(".")[0]) < batch_id:
                log.remove(other)
        return time_ms
