"""The columns a stream travels in between Spark stages.

Data columns follow the stream's type (see ``records``). Three optional system columns:
``__ts`` the record's event-time timestamp, ``__key`` the pickled key of a keyed stream,
``__tag`` the side output a record belongs to (None for the main output).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import List

import pyarrow as pa

from pystream.common.typeinfo import PickledBytesTypeInfo, TypeInformation
from pystream.runtime import records

TS, KEY, TAG, PID = "__ts", "__key", "__tag", "__pid"
PICKLED = PickledBytesTypeInfo()


@dataclass(frozen=True)
class Layout:
    type_info: TypeInformation
    timestamped: bool = False
    keyed: bool = False
    tagged: bool = False
    partition_ids: bool = False  # a ``__pid`` column: the partition chosen for each record

    @property
    def data_columns(self) -> List[str]:
        return records.column_names(self.type_info)

    @property
    def columns(self) -> List[str]:
        cols = list(self.data_columns)
        if self.timestamped:
            cols.append(TS)
        if self.keyed:
            cols.append(KEY)
        if self.tagged:
            cols.append(TAG)
        if self.partition_ids:
            cols.append(PID)
        return cols

    def spark_schema(self):
        from pyspark.sql import types as st

        fields = [st.StructField(name, t, True) for name, t in
                  zip(self.data_columns, records.column_types(self.type_info))]
        if self.timestamped:
            fields.append(st.StructField(TS, st.TimestampType(), True))
        if self.keyed:
            fields.append(st.StructField(KEY, st.BinaryType(), True))
        if self.tagged:
            fields.append(st.StructField(TAG, st.StringType(), True))
        if self.partition_ids:
            fields.append(st.StructField(PID, st.IntegerType(), True))
        return st.StructType(fields)

    def arrow_schema(self) -> pa.Schema:
        from pyspark.sql.pandas.types import to_arrow_schema

        return to_arrow_schema(self.spark_schema(), timezone="UTC")

    def but(self, **changes) -> "Layout":
        return replace(self, **changes)


def timestamps_to_arrow(ts: list) -> pa.Array:
    """Millisecond timestamps (or None) as a Spark TIMESTAMP column."""
    return pa.array([None if t is None else t * 1000 for t in ts], pa.int64()).cast(
        pa.timestamp("us", tz="UTC"))


def timestamps_from_arrow(array) -> list:
    """A Spark TIMESTAMP column as millisecond timestamps (or None)."""
    micros = array.cast(pa.int64()).to_pylist()
    return [None if us is None else us // 1000 for us in micros]
