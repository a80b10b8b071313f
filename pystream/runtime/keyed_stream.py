"""STREAMING mode keyed execution on Spark's transformWithState.

``KeyedProcessor`` is a Spark StatefulProcessor hosting a pystream keyed function: all of a
key's state (state name -> object, timers included) is one pickled dict in one Spark
ValueState: read once and written at most once per visit of the key. For timers of the
operator's time mode one Spark timer per key (at its earliest) wakes the key up to fire all
its due ones; the other kind fire when the key is next active. The function's ``open()``
runs lazily on the first key of a task, so Spark's driver-side schema probe (``init`` +
``close``) never runs user code.
"""
from __future__ import annotations

import pickle
import time
from itertools import groupby
from typing import Any, Iterator, Optional, Tuple

from pyspark.sql import Row as SparkRow
from pyspark.sql.streaming import StatefulProcessor, StatefulProcessorHandle

from pystream.common.typeinfo import RowTypeInfo, TypeInformation, _CompositeTypeInfo
from pystream.runtime import records
from pystream.runtime.context import TaskInfo
from pystream.runtime.errors import operator_failure
from pystream.runtime.keyed import (
    EVENT,
    MAX_WATERMARK,
    MIN_WATERMARK,
    PROCESSING,
    Frozen,
    KeyedHost,
    NativeTimers,
    frozen_bytes,
    process_one_by_one,
    timer_order,
)
from pystream.runtime.layout import ORDER, SEQ, TAG, WM
from pystream.runtime.records import VALUE_COLUMN
from pystream.runtime.state import _MISSING, value_checker

TS_MILLIS = "__tsms"  # record timestamps as epoch milliseconds
INPUT = "__input"  # which input of a two-input operator a record comes from
# The end of a bounded input, for event time: Flink's final watermark fires every pending
# event-time timer. A bounded streaming job unions one marker record (this key, the latest
# timestamp Spark holds) into the input of its first event-time operator; the watermark then
# passes every timer (a watermark this late is Flink's final one) and the operator skips the key.
END_OF_INPUT_KEY = b""
END_OF_INPUT_MS = 253402300799999  # 9999-12-31T23:59:59.999Z
EARLIEST_MS = -62135596800000  # 0001-01-01T00:00:00Z: records without timestamps, in Spark's
_END_OF_INPUT_WATERMARK = END_OF_INPUT_MS - 10 ** 12
_STATE_SCHEMA = "blob binary"


class _SparkStateBackend:
    """The state of the current key: a dict (state name -> object) in one Spark ValueState,
    pickled whole; one read when the key first touches state and at most one write when it
    is done (``commit``), however many states (windows, timers) the key has."""

    __slots__ = ("value_state", "data", "changed")

    def __init__(self, value_state):
        self.value_state = value_state
        self.data: Optional[dict] = None
        self.changed = False

    def begin(self) -> None:
        """A new key: nothing read yet."""
        self.data, self.changed = None, False

    def _loaded(self) -> dict:
        if self.data is None:
            row = self.value_state.get()
            self.data = {} if row is None else pickle.loads(row[0])
        return self.data

    def get(self, name):
        return self._loaded().get(name, _MISSING)

    def put(self, name, value):
        self._loaded()[name] = value
        self.changed = True

    def delete(self, name):
        if self._loaded().pop(name, _MISSING) is not _MISSING:
            self.changed = True

    def commit(self) -> None:
        if self.changed:
            if self.data:
                self.value_state.update((records.dumps(self.data),))
            else:
                self.value_state.clear()
        self.data, self.changed = None, False


class _SparkTimers(NativeTimers):
    """The current key's Spark timer (of the operator's time mode)."""

    def __init__(self, domain: str, handle: StatefulProcessorHandle):
        self.domain = domain
        self._handle = handle

    def register(self, timestamp: int) -> None:
        self._handle.registerTimer(timestamp)

    def delete(self, timestamp: int) -> None:
        self._handle.deleteTimer(timestamp)


class KeyedProcessor(StatefulProcessor):
    """A Spark StatefulProcessor running one pystream keyed function.

    ``columns`` names the input columns (``__key``, ``value`` and optionally ``__tsms``,
    ``__input``, ``__seq``, ``__wm``: the watermark each record came with, whose timers fire
    before it, see ``runtime.arrivals``); the output is ``value`` (pickled), ``__tsms``
    when the stream is timestamped and ``__tag`` when side outputs are wanted.
    """

    def __init__(self, function: Any, info: TaskInfo, label: str, columns: Tuple[str, ...],
                 timestamped: bool, time_mode: str, side_tags: tuple = (),
                 output_type: Optional[TypeInformation] = None, broadcast_first: bool = False,
                 after_event_time: bool = False):
        self.function = function
        # fed by an event-time operator of the same query: see ``_came_before_watermark``
        self.after_event_time = after_event_time
        self.broadcast_first = broadcast_first  # input 1's rows of a micro-batch go first
        # records of simple types go out as typed columns, others pickled in ``value``
        self.output_type = output_type if not side_tags and output_type is not None \
            and records.spark_row_fields(output_type) is not None else None
        self.info = info
        self.label = label
        self.time_mode = time_mode  # 'None' | 'ProcessingTime' | 'EventTime'
        self.timestamped = timestamped
        self.side_tags = frozenset(side_tags)
        self.native = {"EventTime": EVENT, "ProcessingTime": PROCESSING}.get(time_mode)
        self._value_at = columns.index(VALUE_COLUMN)
        self._ts_at = columns.index(TS_MILLIS) if TS_MILLIS in columns else None
        self._input_at = columns.index(INPUT) if INPUT in columns else None
        self._seq_at = columns.index(SEQ) if SEQ in columns else None
        self._wm_at = columns.index(WM) if WM in columns else None

    def output_schema(self):
        from pyspark.sql import types as st

        if self.output_type is not None:
            fields = [st.StructField(name, t) for name, t in
                      zip(records.column_names(self.output_type),
                          records.column_types(self.output_type))]
        else:
            fields = [st.StructField(VALUE_COLUMN, st.BinaryType())]
        if self.timestamped:
            fields.append(st.StructField(TS_MILLIS, st.LongType()))
        if self.side_tags:
            fields.append(st.StructField(TAG, st.StringType()))
        if self._seq_at is not None:
            fields.append(st.StructField(ORDER, st.LongType()))
        return st.StructType(fields)

    def init(self, handle: StatefulProcessorHandle) -> None:
        self._handle = handle
        self._backend = _SparkStateBackend(handle.getValueState("pystream", _STATE_SCHEMA))
        self._host: Optional[KeyedHost] = None

    def _started_host(self) -> KeyedHost:
        if self._host is None:
            timers = _SparkTimers(self.native, self._handle) if self.native else None
            self._host = KeyedHost(self.function, self.info, self.label, native=timers)
            self._host.open()
        return self._host

    def _begin(self, key, timerValues) -> KeyedHost:
        host = self._started_host()
        self._backend.begin()
        host.set_key(pickle.loads(key[0]), self._backend)
        watermark = timerValues.getCurrentWatermarkInMs()
        # Spark's watermark starts at 0 (-1 without event time); Flink's at Long.MIN_VALUE
        host.watermark = MIN_WATERMARK if watermark <= 0 else \
            MAX_WATERMARK if watermark >= _END_OF_INPUT_WATERMARK else watermark
        return host

    def handleInputRows(self, key, rows, timerValues) -> Iterator[SparkRow]:
        if key[0] == END_OF_INPUT_KEY:  # the end of a bounded input: it moved the watermark
            return iter(())
        host = self._begin(key, timerValues)
        loads, value_at, ts_at, input_at = pickle.loads, self._value_at, self._ts_at, \
            self._input_at
        rows = list(rows)
        if self._seq_at is not None:  # in the order the records came (their places)
            rows.sort(key=lambda r: r[self._seq_at])
        values = [loads(r[value_at]) for r in rows]
        stamps = [r[ts_at] for r in rows] if ts_at is not None else [None] * len(rows)
        if self.after_event_time:
            self._came_before_watermark(host, stamps)
        if self._seq_at is not None or self._wm_at is not None:
            return self._one_by_one(host, rows, values, stamps)
        if input_at is None:
            host.process_run(values, stamps)
        else:
            indexed = zip((r[input_at] for r in rows), values, stamps)
            if self.broadcast_first:
                indexed = sorted(indexed, key=lambda r: -r[0])  # stable: keeps each input's order
            for index, run in groupby(indexed, key=lambda r: r[0]):
                run = list(run)
                host.process_run([r[1] for r in run], [r[2] for r in run], index)
        return self._finish(host)

    @staticmethod
    def _came_before_watermark(host: KeyedHost, stamps: list) -> None:
        """The records of an operator fed by an event-time operator in the same query are
        mostly what that operator's timers emitted as this micro-batch's watermark passed
        them (a window's result, stamped with its timer's time): in Flink they come before
        that watermark, so they are processed under the watermark just below their time (not
        late: a window of windows fires), and the key's timers then fire at the batch's."""
        known = [ts for ts in stamps if ts is not None]
        if known and host.watermark > MIN_WATERMARK:
            host.watermark = max(MIN_WATERMARK, min(host.watermark, min(known) - 1))

    def _one_by_one(self, host: KeyedHost, rows: list, values: list,
                    stamps: list) -> Iterator[SparkRow]:
        """Process element by element (``keyed.process_one_by_one``), each output placed
        where its element was (with ``__seq``)."""
        seq_at, input_at, wm_at = self._seq_at, self._input_at, self._wm_at
        n = len(rows)
        inputs = [r[input_at] for r in rows] if input_at is not None else [0] * n
        places = [r[seq_at] for r in rows] if seq_at is not None else [None] * n
        came_with = [r[wm_at] for r in rows] if wm_at is not None else [None] * n
        orders = process_one_by_one(host, list(zip(inputs, values, stamps, places, came_with)),
                                    self.broadcast_first)
        return self._finish(host, orders if seq_at is not None else None)

    def handleExpiredTimer(self, key, timerValues, expiredTimerInfo) -> Iterator[SparkRow]:
        """Spark fired the key's timer: fire all the key's due timers of its domain."""
        host = self._begin(key, timerValues)
        expiry = expiredTimerInfo.getExpiryTimeInMs()
        host.engine_timer_fired(expiry)
        if self.native == EVENT:
            host.fire_due(max(host.watermark, expiry), domains=(EVENT,))
        else:
            now = max(expiry, timerValues.getCurrentProcessingTimeInMs())
            host.fire_due(host.watermark, now, domains=(PROCESSING,))
        return self._finish(host)

    def _finish(self, host: KeyedHost, orders: Optional[list] = None) -> Iterator[SparkRow]:
        """The key's outputs; ``orders``: the places of the first of them (the rest come from
        timers: placed by their time, see ORDER)."""
        if self.native is not None:  # a function with timers: fire the emulated kind
            now = int(time.time() * 1000)
            if self.native != PROCESSING:
                host.fire_due(host.watermark, now, domains=(PROCESSING,))
        host.finish_key()
        self._backend.commit()
        emitted = host.drain()
        if self._seq_at is None:
            return self._rows(emitted, None)
        orders = (orders or [])[:len(emitted)]
        orders += [timer_order(ts) for _, _, ts in emitted[len(orders):]]
        return self._rows(emitted, orders)

    def _rows(self, emitted, orders: Optional[list]) -> Iterator[SparkRow]:
        if self.output_type is not None:
            yield from self._typed_rows(emitted, orders)
            return
        row, new = self._output_row(), tuple.__new__
        tagged, timestamped, side_tags = bool(self.side_tags), self.timestamped, self.side_tags
        for i, (tag, value, ts) in enumerate(emitted):
            if tag is not None and tag not in side_tags:
                continue
            fields = (frozen_bytes(value),)
            if timestamped:
                fields += (ts,)
            if tagged:
                fields += (tag,)
            if orders is not None:
                fields += (orders[i],)
            yield new(row, fields)

    def _typed_rows(self, emitted, orders: Optional[list]) -> Iterator[SparkRow]:
        if getattr(self, "_fits", None) is None:
            self._fits = value_checker(self.output_type)
        fits, composite = self._fits, isinstance(self.output_type, _CompositeTypeInfo)
        kinds = isinstance(self.output_type, RowTypeInfo)  # a ROW's row kind after its fields
        row, new, timestamped = self._output_row(), tuple.__new__, self.timestamped
        for i, (tag, value, ts) in enumerate(emitted):
            if tag is not None:
                continue
            if type(value) is Frozen:
                value = pickle.loads(value)
            if value is None or not fits(value):
                error = records.RecordTypeError(value, self.output_type)
                raise operator_failure(error, self.label, value)
            fields = tuple(value) if composite else (value,)
            if kinds:
                fields += (records.row_kind_of(value),)
            if timestamped:
                fields += (ts,)
            if orders is not None:
                fields += (orders[i],)
            yield new(row, fields)

    def _output_row(self) -> type:
        """The class of output rows: Rows built from a tuple of the output columns' values
        (PySpark reads the rows of transformWithState with ``asDict``)."""
        if getattr(self, "_row_class", None) is None:
            self._row_class = _row_class(self.output_schema().fieldNames())
        return self._row_class

    def close(self) -> None:
        if getattr(self, "_host", None) is not None:
            self._host.close()
            self._host = None


def _row_class(names) -> type:
    """A Row class with the fixed fields ``names``: ``tuple.__new__(cls, values)`` makes one
    without Row's keyword handling, and ``asDict`` is a plain zip (the values are column
    values already: no nested Rows to convert)."""

    class OutputRow(SparkRow):
        __fields__ = list(names)

        def asDict(self, recursive: bool = False) -> dict:
            return dict(zip(self.__fields__, self))

    return OutputRow


__all__ = ["KeyedProcessor", "TS_MILLIS", "INPUT", "MAX_WATERMARK"]
