"""Parquet: the bulk writer for ``FileSink`` and the columnar reader for ``FileSource``.

>>> row_type = DataTypes.ROW([DataTypes.FIELD('id', DataTypes.INT()),
...                           DataTypes.FIELD('name', DataTypes.STRING())])
>>> sink = FileSink.for_bulk_format('/data/out', ParquetBulkWriters.for_row_type(row_type)
...                                 ).build()                           # doctest: +SKIP
"""
from __future__ import annotations

from typing import Optional

from pystream.common.configuration import Configuration
from pystream.common.data_types import DataTypes, RowType  # noqa: F401 - doctest
from pystream.common.serialization import RowDataBulkWriterFactory
from pystream.common.typeinfo import TypeInformation
from pystream.core.connectors.file_system import BulkFormat
from pystream.errors import UnsupportedFeatureError

__all__ = ["AvroParquetReaders", "AvroParquetWriters", "ParquetColumnarRowInputFormat",
           "ParquetBulkWriters"]


class ParquetColumnarRowInputFormat(BulkFormat):
    """Reads Parquet files as rows of ``row_type`` (columns matched by name)."""

    def __init__(self, row_type: RowType, hadoop_config: Optional[Configuration] = None,
                 batch_size: int = 2048, is_utc_timestamp: bool = False,
                 is_case_sensitive: bool = True):
        self.row_type = row_type

    def produced_type(self) -> TypeInformation:
        return self.row_type.to_type_info()


class ParquetBulkWriters:
    """Writers of Parquet part files for ``FileSink.for_bulk_format``."""

    @staticmethod
    def for_row_type(row_type: RowType, hadoop_config: Optional[Configuration] = None,
                     utc_timestamp: bool = False) -> "ParquetWriterFactory":
        return ParquetWriterFactory(row_type)


class ParquetWriterFactory(RowDataBulkWriterFactory):
    """Writes rows of a RowType as Parquet (one row group per micro-batch and subtask)."""

    def file_writer(self, type_info: TypeInformation):
        from pystream.runtime.files import ArrowFileWriter

        return ArrowFileWriter("parquet", self._row_type.to_type_info())


class AvroParquetReaders:
    """Avro GenericRecords from Parquet (not supported: use ParquetColumnarRowInputFormat)."""

    @staticmethod
    def for_generic_record(schema):
        raise UnsupportedFeatureError("AvroParquetReaders: Avro GenericRecord streams are not "
                                      "supported; use ParquetColumnarRowInputFormat")


class AvroParquetWriters:
    """Avro GenericRecords to Parquet (not supported: use ParquetBulkWriters)."""

    @staticmethod
    def for_generic_record(schema):
        raise UnsupportedFeatureError("AvroParquetWriters: Avro GenericRecord streams are not "
                                      "supported; use ParquetBulkWriters.for_row_type")
