"""STREAMING mode keyed execution on Spark's transformWithState.

``KeyedProcessor`` is a Spark StatefulProcessor hosting a pystream keyed function: all of a
key's state lives in one Spark MapState (state name -> pickled object), timers of the
operator's time mode are Spark timers, the other kind is kept in state and fired when the
key is next active. The function's ``open()`` runs lazily on the first key of a task, so
Spark's driver-side schema probe (``init`` + ``close``) never runs user code.
"""
from __future__ import annotations

import datetime
import pickle
import time
from typing import Any, Iterator, Optional

from pyspark.sql import Row as SparkRow
from pyspark.sql.streaming import StatefulProcessor, StatefulProcessorHandle

from pystream.runtime.context import TaskInfo
from pystream.runtime.keyed import EVENT, MIN_WATERMARK, PROCESSING, KeyedHost
from pystream.runtime.layout import TAG, TS, Layout
from pystream.runtime.records import PICKLE_PROTOCOL, VALUE_COLUMN
from pystream.runtime.state import _MISSING

TS_MILLIS = "__tsms"  # the record timestamp as epoch milliseconds next to the __ts column
MARKER = "__end"  # a control row: the end of a bounded input (the watermark jumps to +inf)
_UTC = datetime.timezone.utc
_STATE_KEY_SCHEMA = "name string"
_STATE_VALUE_SCHEMA = "blob binary"


class _SparkStateBackend:
    """The state of the current key, in one Spark MapState of pickled objects."""

    __slots__ = ("map_state",)

    def __init__(self, map_state):
        self.map_state = map_state

    def get(self, name):
        row = self.map_state.getValue((name,))
        return _MISSING if row is None else pickle.loads(row[0])

    def put(self, name, value):
        self.map_state.updateValue((name,), (pickle.dumps(value, PICKLE_PROTOCOL),))

    def delete(self, name):
        self.map_state.removeKey((name,))


def _millis_to_datetime(ms: Optional[int]):
    return None if ms is None else datetime.datetime.fromtimestamp(ms / 1000, _UTC)


class KeyedProcessor(StatefulProcessor):
    """A Spark StatefulProcessor running one pystream keyed function."""

    def __init__(self, function: Any, info: TaskInfo, label: str, output: Layout,
                 time_mode: str, side_tags: tuple = ()):
        self.function = function
        self.info = info
        self.label = label
        self.output = output
        self.time_mode = time_mode  # 'None' | 'ProcessingTime' | 'EventTime'
        self.side_tags = frozenset(side_tags)
        self.native = {"EventTime": EVENT, "ProcessingTime": PROCESSING}.get(time_mode)

    def init(self, handle: StatefulProcessorHandle) -> None:
        self._handle = handle
        self._states = handle.getMapState("pystream", _STATE_KEY_SCHEMA, _STATE_VALUE_SCHEMA)
        self._backend = _SparkStateBackend(self._states)
        self._host: Optional[KeyedHost] = None

    def _started_host(self) -> KeyedHost:
        if self._host is None:
            self._host = KeyedHost(self.function, self.info, self.label, native=self.native,
                                   on_native_timer=self._native_timer)
            self._host.open()
        return self._host

    def _native_timer(self, domain: str, timestamp: int, register: bool) -> None:
        if register:
            self._handle.registerTimer(timestamp)
        else:
            self._handle.deleteTimer(timestamp)

    def handleInputRows(self, key, rows, timerValues) -> Iterator[SparkRow]:
        host = self._started_host()
        host.set_key(pickle.loads(key[0]), self._backend)
        watermark = timerValues.getCurrentWatermarkInMs()
        host.watermark = watermark if watermark >= 0 else MIN_WATERMARK
        loads = pickle.loads
        end_of_input = False
        for row in rows:
            if row[MARKER]:
                end_of_input = True
                continue
            host.process(loads(row[VALUE_COLUMN]), row[TS_MILLIS], row["__input"])
        self._fire_emulated(host, end_of_input)
        host.finish_key()
        return self._rows(host.drain())

    def handleExpiredTimer(self, key, timerValues, expiredTimerInfo) -> Iterator[SparkRow]:
        host = self._started_host()
        host.set_key(pickle.loads(key[0]), self._backend)
        watermark = timerValues.getCurrentWatermarkInMs()
        host.watermark = watermark if watermark >= 0 else MIN_WATERMARK
        host.fire(self.native, expiredTimerInfo.getExpiryTimeInMs())
        self._fire_emulated(host, False)
        host.finish_key()
        return self._rows(host.drain())

    def _fire_emulated(self, host: KeyedHost, end_of_input: bool) -> None:
        """Fire the timers of the domain Spark does not fire for this operator."""
        now = int(time.time() * 1000)
        if self.native != PROCESSING:
            host.fire_due(host.watermark, now, domains=(PROCESSING,))
        if self.native != EVENT and end_of_input:
            host.fire_due(2 ** 63 - 1, None, domains=(EVENT,))

    def _rows(self, emitted) -> Iterator[SparkRow]:
        tagged = self.output.tagged
        for tag, pickled, ts in emitted:
            if tag is not None and (not tagged or tag not in self.side_tags):
                continue
            fields = {VALUE_COLUMN: pickled, TS: _millis_to_datetime(ts)}
            if tagged:
                fields[TAG] = tag
            yield SparkRow(**fields)

    def close(self) -> None:
        if getattr(self, "_host", None) is not None:
            self._host.close()
            self._host = None
