"""The columns a stream travels in between Spark stages.

Data columns follow the stream's type (see ``records``). Optional system columns: ``__ts``
the record's event-time timestamp, ``__key`` the pickled key of a keyed stream, ``__tag``
the side output a record belongs to (None for the main output), ``__pid`` a chosen
partition, ``__seq`` a record's place in its micro-batch. A bounded STREAMING input replays
Flink's periodic watermarks (see ``runtime.arrivals``): ``__arrival`` when a record reached
the operator after its stage, ``__wm`` the watermark it came with.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import List

import pyarrow as pa

from pystream.common.typeinfo import PickledBytesTypeInfo, TypeInformation
from pystream.runtime import records

TS, KEY, TAG, PID = "__ts", "__key", "__tag", "__pid"
# a keyed operator's input at parallelism 1: each record's place in its micro-batch; the
# order of the operator's outputs, beside its layout's columns (see ``Flow.ordered_df``,
# ``runtime.keyed_stream.KeyedProcessor``)
SEQ, ORDER = "__seq", "__order"
ARRIVAL, WM = "__arrival", "__wm"
PICKLED = PickledBytesTypeInfo()


@dataclass(frozen=True)
class Layout:
    type_info: TypeInformation
    timestamped: bool = False
    keyed: bool = False
    tagged: bool = False
    partition_ids: bool = False  # a ``__pid`` column: the partition chosen for each record
    sequenced: bool = False  # a ``__seq`` column: each record's place in its micro-batch
    arrival: bool = False  # an ``__arrival`` column: when the record left its stage (ms)
    watermarks: bool = False  # a ``__wm`` column: the watermark the record came with

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
        if self.sequenced:
            cols.append(SEQ)
        if self.arrival:
            cols.append(ARRIVAL)
        if self.watermarks:
            cols.append(WM)
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
        if self.sequenced:
            fields.append(st.StructField(SEQ, st.LongType(), True))
        if self.arrival:
            fields.append(st.StructField(ARRIVAL, st.DoubleType(), True))
        if self.watermarks:
            fields.append(st.StructField(WM, st.LongType(), True))
        return st.StructType(fields)

    def arrow_schema(self) -> pa.Schema:
        from pyspark.sql.pandas.types import to_arrow_schema

        return to_arrow_schema(self.spark_schema(), timezone="UTC")

    def but(self, **changes) -> "Layout":
        return replace(self, **changes)


_LONG_MAX, _LONG_MIN = 2 ** 63 - 1, -(2 ** 63)
_MICROS_LIMIT = _LONG_MAX // 1000  # larger millisecond timestamps saturate to Long.MAX/MIN


def _to_micros(t: int) -> int:
    if -_MICROS_LIMIT <= t <= _MICROS_LIMIT:
        return t * 1000
    return _LONG_MAX if t > 0 else _LONG_MIN


def _to_millis(us: int) -> int:
    if us == _LONG_MAX or us == _LONG_MIN:
        return us
    return us // 1000


def timestamps_to_arrow(ts: list) -> pa.Array:
    """Millisecond timestamps (or None) as a Spark TIMESTAMP column (Flink's Long.MAX_VALUE,
    a global window's timestamp, travels as the largest TIMESTAMP)."""
    return pa.array([None if t is None else _to_micros(t) for t in ts], pa.int64()).cast(
        pa.timestamp("us", tz="UTC"))


def timestamps_from_arrow(array) -> list:
    """A Spark TIMESTAMP column as millisecond timestamps (or None)."""
    micros = array.cast(pa.int64()).to_pylist()
    return [None if us is None else _to_millis(us) for us in micros]


def millis_column(ts_column):
    """A TIMESTAMP column as epoch milliseconds (the largest TIMESTAMP as Long.MAX)."""
    from pyspark.sql import functions as F

    micros = F.unix_micros(ts_column)
    return F.when(micros == F.lit(_LONG_MAX), F.lit(_LONG_MAX)).otherwise(
        F.unix_millis(ts_column))


def timestamp_column(millis_col):
    """Epoch milliseconds as a TIMESTAMP column (saturating like ``timestamps_to_arrow``)."""
    from pyspark.sql import functions as F

    return (F.when(millis_col > F.lit(_MICROS_LIMIT), F.timestamp_micros(F.lit(_LONG_MAX)))
            .when(millis_col < F.lit(-_MICROS_LIMIT), F.timestamp_micros(F.lit(_LONG_MIN)))
            .otherwise(F.timestamp_millis(millis_col)))
