"""Files: ``FileSource`` (bounded, or monitoring a directory) and ``FileSink`` (row or bulk
formats, exactly-once part files), with PyFlink's builders.

>>> source = FileSource.for_record_stream_format(StreamFormat.text_line_format(),
...                                              '/data/in').build()
>>> sink = (FileSink.for_row_format('/data/out', Encoder.simple_string_encoder())
...         .with_output_file_config(OutputFileConfig.builder().with_part_prefix('pre')
...                                  .with_part_suffix('.txt').build())
...         .build())

Paths are local directories (read recursively) or files (``/path`` or ``file:///path``);
hidden files (``.``/``_`` prefix) are skipped. See docs/connectors.md for how part files
are named and committed.
"""
from __future__ import annotations

import warnings
from typing import List, Optional

from pystream.common.serialization import BulkWriterFactory, Encoder
from pystream.common.time import Duration
from pystream.common.typeinfo import TypeInformation, Types
from pystream.core.connectors.base import Boundedness, Sink, Source
from pystream.errors import UnsupportedFeatureError

__all__ = ["FileCompactor", "FileCompactStrategy", "OutputFileConfig", "FileSource",
           "FileSourceBuilder", "FileSink", "StreamingFileSink", "StreamFormat", "BulkFormat",
           "TextLineInputFormat", "FileEnumeratorProvider", "FileSplitAssignerProvider",
           "RollingPolicy", "DefaultRollingPolicy", "OnCheckpointRollingPolicy",
           "BucketAssigner"]


def local_path(path: str) -> str:
    """``/p`` for ``file:///p``; any other path as given: a local one, or a URI of a file
    system the cluster has (``hdfs://``, ``s3a://``, ``gs://``, ``abfss://``)."""
    if path.startswith("file://"):
        return path[len("file://"):] or "/"
    return path


# ---------------------------------------------------------------------------------------------
# FileSource


class FileEnumeratorProvider:
    """Which files a FileSource reads: all non-hidden files under its paths (Spark lists
    and splits them; the choice of enumerator does not change that)."""

    def __init__(self, splittable: bool = True):
        self.splittable = splittable

    @staticmethod
    def default_splittable_file_enumerator() -> "FileEnumeratorProvider":
        return FileEnumeratorProvider(True)

    @staticmethod
    def default_non_splittable_file_enumerator() -> "FileEnumeratorProvider":
        return FileEnumeratorProvider(False)


class FileSplitAssignerProvider:
    """Which reader gets which split (Spark's scheduler decides; kept for compatibility)."""

    @staticmethod
    def locality_aware_split_assigner() -> "FileSplitAssignerProvider":
        return FileSplitAssignerProvider()


class StreamFormat:
    """Reads the records of a file from its bytes: ``text_line_format()`` gives one string
    per line; ``CsvReaderFormat`` and ``JsonReaderFormat`` (in ``pystream.datastream.formats``)
    decode each line into a row."""

    def __init__(self, charset_name: str = "UTF-8"):
        if charset_name.replace("-", "").upper() not in ("UTF8", "USASCII", "ASCII"):
            raise UnsupportedFeatureError("text charset %r: Spark's text reader decodes "
                                          "UTF-8 only" % charset_name)
        self.charset_name = charset_name

    @staticmethod
    def text_line_format(charset_name: str = "UTF-8") -> "StreamFormat":
        """One string per line of text (line breaks removed)."""
        return TextLineInputFormat(charset_name)

    def produced_type(self) -> TypeInformation:
        return Types.STRING()

    def line_decoder(self):
        """The ``line -> record or None`` function of this format (None: the line itself)."""
        return None

    @property
    def whole_files(self) -> bool:
        """Whether records depend on a line's place in its file (a header to skip)."""
        return False


class TextLineInputFormat(StreamFormat):
    """The lines of text files, as strings (Flink's TextLineInputFormat)."""


class BulkFormat:
    """Reads whole files in batches (``ParquetColumnarRowInputFormat``)."""

    def produced_type(self) -> TypeInformation:
        raise NotImplementedError


class FileSourceBuilder:
    """Configures a FileSource: bounded (the default) or ``monitor_continuously``."""

    def __init__(self, stream_format, paths: List[str]):
        self._format = stream_format
        self._paths = [local_path(p) for p in paths]
        self._discovery_interval: Optional[Duration] = None

    def monitor_continuously(self, discovery_interval: Duration) -> "FileSourceBuilder":
        """Keep running and read new files as they appear in the paths (unbounded). New
        files are found at every micro-batch trigger (the checkpoint interval)."""
        self._discovery_interval = discovery_interval
        return self

    def process_static_file_set(self) -> "FileSourceBuilder":
        """Read the files present when the job starts, then end (bounded, the default)."""
        self._discovery_interval = None
        return self

    def set_file_enumerator(self, file_enumerator: FileEnumeratorProvider
                            ) -> "FileSourceBuilder":
        return self

    def set_split_assigner(self, split_assigner: FileSplitAssignerProvider
                           ) -> "FileSourceBuilder":
        return self

    def build(self) -> "FileSource":
        if not self._paths:
            raise ValueError("FileSource needs at least one path")
        return FileSource(self._format, self._paths, self._discovery_interval)


class FileSource(Source):
    """Reads files, bounded or continuously (``monitor_continuously``).

    >>> ds = env.from_source(FileSource.for_record_stream_format(
    ...     StreamFormat.text_line_format(), '/tmp/in').build(),
    ...     WatermarkStrategy.no_watermarks(), 'files')                   # doctest: +SKIP
    """

    def __init__(self, stream_format, paths: List[str],
                 discovery_interval: Optional[Duration] = None):
        self.format = stream_format
        self.paths = list(paths)
        self.discovery_interval = discovery_interval

    @staticmethod
    def for_record_stream_format(stream_format: StreamFormat, *paths: str) -> FileSourceBuilder:
        return FileSourceBuilder(stream_format, list(paths))

    @staticmethod
    def for_bulk_file_format(bulk_format: BulkFormat, *paths: str) -> FileSourceBuilder:
        return FileSourceBuilder(bulk_format, list(paths))

    @property
    def produced_type(self) -> TypeInformation:
        return self.format.produced_type()

    def get_boundedness(self) -> Boundedness:
        return (Boundedness.BOUNDED if self.discovery_interval is None
                else Boundedness.CONTINUOUS_UNBOUNDED)

    def __repr__(self):
        return "FileSource(%s)" % ", ".join(self.paths)


# ---------------------------------------------------------------------------------------------
# FileSink


class BucketAssigner:
    """The sub-directory of the base path a record's part file goes to."""

    def __init__(self, format_str: Optional[str] = None, timezone_id: Optional[str] = None):
        self.format_str = format_str  # None: the base path itself
        self.timezone_id = timezone_id

    @staticmethod
    def base_path_bucket_assigner() -> "BucketAssigner":
        """All part files directly in the base path."""
        return BucketAssigner()

    @staticmethod
    def date_time_bucket_assigner(format_str: str = "yyyy-MM-dd--HH",
                                  timezone_id: Optional[str] = None) -> "BucketAssigner":
        """One directory per processing-time period, named with the Java date pattern
        ``format_str`` (the default assigner: ``2024-05-01--13``)."""
        return BucketAssigner(format_str, timezone_id)


class RollingPolicy:
    """When a part file is closed and a new one started. Every micro-batch (checkpoint)
    closes its files; ``part_size`` also rolls a file that grows past it."""

    def __init__(self, part_size: Optional[int] = None):
        self.part_size = part_size

    @staticmethod
    def default_rolling_policy(part_size: int = 1024 * 1024 * 128,
                               rollover_interval: int = 60 * 1000,
                               inactivity_interval: int = 60 * 1000) -> "DefaultRollingPolicy":
        return DefaultRollingPolicy(part_size, rollover_interval, inactivity_interval)

    @staticmethod
    def on_checkpoint_rolling_policy() -> "OnCheckpointRollingPolicy":
        return OnCheckpointRollingPolicy()


class DefaultRollingPolicy(RollingPolicy):
    """Rolls at ``part_size`` bytes and at every checkpoint (a micro-batch is never longer
    than the rollover interval in pystream's commit model)."""

    def __init__(self, part_size: int, rollover_interval: int, inactivity_interval: int):
        super().__init__(part_size)
        self.rollover_interval = rollover_interval
        self.inactivity_interval = inactivity_interval


class OnCheckpointRollingPolicy(RollingPolicy):
    """Rolls at every checkpoint (micro-batch) only."""


class OutputFileConfig:
    """The part file name's prefix (default ``part``) and suffix (default empty)."""

    def __init__(self, part_prefix: str = "part", part_suffix: str = ""):
        self._part_prefix = part_prefix
        self._part_suffix = part_suffix

    @staticmethod
    def builder() -> "OutputFileConfig.OutputFileConfigBuilder":
        return OutputFileConfig.OutputFileConfigBuilder()

    def get_part_prefix(self) -> str:
        return self._part_prefix

    def get_part_suffix(self) -> str:
        return self._part_suffix

    class OutputFileConfigBuilder:
        def __init__(self):
            self.part_prefix = "part"
            self.part_suffix = ""

        def with_part_prefix(self, prefix) -> "OutputFileConfig.OutputFileConfigBuilder":
            self.part_prefix = prefix
            return self

        def with_part_suffix(self, suffix) -> "OutputFileConfig.OutputFileConfigBuilder":
            self.part_suffix = suffix
            return self

        def build(self) -> "OutputFileConfig":
            return OutputFileConfig(self.part_prefix, self.part_suffix)


class FileCompactStrategy:
    """Compaction of small part files (not supported: ``enable_compact`` raises)."""

    @staticmethod
    def builder() -> "FileCompactStrategy.Builder":
        return FileCompactStrategy.Builder()

    class Builder:
        def build(self) -> "FileCompactStrategy":
            return FileCompactStrategy()

        def enable_compaction_on_checkpoint(self, num_checkpoints_before_compaction: int):
            return self

        def set_size_threshold(self, size_threshold: int):
            return self

        def set_num_compact_threads(self, num_compact_threads: int):
            return self


class FileCompactor:
    """How compaction merges files (not supported)."""

    @staticmethod
    def concat_file_compactor(file_delimiter: Optional[bytes] = None) -> "FileCompactor":
        return FileCompactor()

    @staticmethod
    def identical_file_compactor() -> "FileCompactor":
        return FileCompactor()


class FileSink(Sink):
    """Writes records into part files under ``base_path``, exactly once: files appear
    complete (written under a hidden name, then renamed) when their micro-batch commits,
    and a replayed micro-batch rewrites the same file names.

    >>> ds.sink_to(FileSink.for_row_format('/tmp/out', Encoder.simple_string_encoder())
    ...            .build())                                           # doctest: +SKIP
    """

    name = "FileSink"

    def __init__(self, base_path: str, encoder: Optional[Encoder] = None,
                 writer_factory: Optional[BulkWriterFactory] = None,
                 bucket_assigner: Optional[BucketAssigner] = None,
                 output_file_config: Optional[OutputFileConfig] = None,
                 rolling_policy: Optional[RollingPolicy] = None):
        self.base_path = local_path(base_path)
        self.encoder = encoder
        self.writer_factory = writer_factory
        self.bucket_assigner = bucket_assigner or BucketAssigner.date_time_bucket_assigner()
        self.output_file_config = output_file_config or OutputFileConfig()
        self.rolling_policy = rolling_policy or (RollingPolicy.default_rolling_policy()
                                                 if encoder is not None
                                                 else RollingPolicy.on_checkpoint_rolling_policy())

    def __repr__(self):
        return "FileSink(%s)" % self.base_path

    def get_transformer(self) -> None:
        """The stream transformer PyFlink applies before a bulk writer: none, pystream's
        writers take the records as they are."""
        return None

    class BaseBuilder:
        def __init__(self, base_path: str, encoder=None, writer_factory=None):
            self._base_path = base_path
            self._encoder = encoder
            self._writer_factory = writer_factory
            self._bucket_assigner: Optional[BucketAssigner] = None
            self._output_file_config: Optional[OutputFileConfig] = None
            self._rolling_policy: Optional[RollingPolicy] = None

        def with_bucket_check_interval(self, interval: int):
            return self

        def with_bucket_assigner(self, bucket_assigner: BucketAssigner):
            self._bucket_assigner = bucket_assigner
            return self

        def with_output_file_config(self, output_file_config: OutputFileConfig):
            self._output_file_config = output_file_config
            return self

        def enable_compact(self, strategy: FileCompactStrategy, compactor: FileCompactor):
            raise UnsupportedFeatureError("FileSink.enable_compact: file compaction is not "
                                          "supported by pystream")

        def disable_compact(self):
            return self

        def with_rolling_policy(self, rolling_policy: RollingPolicy):
            self._rolling_policy = rolling_policy
            return self

        def _sink_class(self):
            return FileSink

        def build(self) -> "FileSink":
            return self._sink_class()(self._base_path, self._encoder, self._writer_factory,
                                      self._bucket_assigner, self._output_file_config,
                                      self._rolling_policy)

    class RowFormatBuilder(BaseBuilder):
        """Builds a FileSink writing one record at a time with an Encoder."""

    class BulkFormatBuilder(BaseBuilder):
        """Builds a FileSink writing whole files with a bulk writer (Parquet, ORC, CSV)."""

        def with_rolling_policy(self, rolling_policy: OnCheckpointRollingPolicy):
            if not isinstance(rolling_policy, OnCheckpointRollingPolicy):
                raise ValueError("rolling_policy must be OnCheckpointRollingPolicy for bulk "
                                 "format")
            return super().with_rolling_policy(rolling_policy)

    @staticmethod
    def for_row_format(base_path: str, encoder: Encoder) -> "FileSink.RowFormatBuilder":
        return FileSink.RowFormatBuilder(base_path, encoder=encoder)

    @staticmethod
    def for_bulk_format(base_path: str, writer_factory: BulkWriterFactory
                        ) -> "FileSink.BulkFormatBuilder":
        return FileSink.BulkFormatBuilder(base_path, writer_factory=writer_factory)


class StreamingFileSink(FileSink):
    """The legacy name of FileSink (deprecated since Flink 1.15), for ``add_sink``."""

    name = "StreamingFileSink"

    class BaseBuilder(FileSink.BaseBuilder):
        def with_rolling_policy(self, policy: RollingPolicy):
            return super().with_rolling_policy(policy)

        def _sink_class(self):
            return StreamingFileSink

    class DefaultRowFormatBuilder(BaseBuilder, FileSink.RowFormatBuilder):
        pass

    class DefaultBulkFormatBuilder(BaseBuilder, FileSink.BulkFormatBuilder):
        pass

    @staticmethod
    def for_row_format(base_path: str, encoder: Encoder
                       ) -> "StreamingFileSink.DefaultRowFormatBuilder":
        warnings.warn("Deprecated in 1.15. Use FileSink instead.", DeprecationWarning,
                      stacklevel=2)
        return StreamingFileSink.DefaultRowFormatBuilder(base_path, encoder=encoder)

    @staticmethod
    def for_bulk_format(base_path: str, writer_factory: BulkWriterFactory
                        ) -> "StreamingFileSink.DefaultBulkFormatBuilder":
        warnings.warn("Deprecated in 1.15. Use FileSink instead.", DeprecationWarning,
                      stacklevel=2)
        return StreamingFileSink.DefaultBulkFormatBuilder(base_path,
                                                          writer_factory=writer_factory)
