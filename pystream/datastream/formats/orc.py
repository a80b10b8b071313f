"""ORC: the bulk writer for ``FileSink``.

>>> sink = FileSink.for_bulk_format('/data/out', OrcBulkWriters.for_row_type(row_type)
...                                 ).build()                           # doctest: +SKIP
"""
from __future__ import annotations

from typing import Optional

from pystream.common.configuration import Configuration
from pystream.common.data_types import RowType
from pystream.common.typeinfo import TypeInformation
from pystream.datastream.formats.parquet import ParquetWriterFactory

__all__ = ["OrcBulkWriters"]


class OrcBulkWriters:
    """Writers of ORC part files for ``FileSink.for_bulk_format``."""

    @staticmethod
    def for_row_type(row_type: RowType, writer_properties: Optional[Configuration] = None,
                     hadoop_config: Optional[Configuration] = None) -> "OrcWriterFactory":
        if not isinstance(row_type, RowType):
            raise TypeError("row_type must be an instance of RowType")
        return OrcWriterFactory(row_type)


class OrcWriterFactory(ParquetWriterFactory):
    """Writes rows of a RowType as ORC."""

    def file_writer(self, type_info: TypeInformation):
        from pystream.runtime.files import ArrowFileWriter

        return ArrowFileWriter("orc", self._row_type.to_type_info())
