"""The host of keyed functions: state, timers and contexts for one key at a time.

``KeyedHost`` runs a KeyedProcessFunction (or KeyedCoProcessFunction) the way Flink's keyed
operator does: the driver (BATCH: sorted runs of keys; STREAMING: transformWithState) sets the
current key, feeds records and fires timers; the host collects what the function emits as
``(tag, value, timestamp)``.
"""
from __future__ import annotations

import pickle
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

from pystream.core.functions import (
    KeyedCoProcessFunction,
    KeyedProcessFunction,
    TimeDomain,
    TimerService,
)
from pystream.core.output_tag import OutputTag
from pystream.runtime.context import NO_TIMESTAMP, StreamingRuntimeContext, TaskInfo
from pystream.runtime.errors import operator_failure
from pystream.runtime.metric_reports import write_reports
from pystream.runtime.records import dumps
from pystream.runtime.state import (
    _MISSING,
    MAX_WATERMARK,
    KeyScope,
    StateAccess,
    value_checker,
)

MIN_WATERMARK = -(2 ** 63)
TIMERS = "__timers"  # state name holding the key's timers: set of (domain, timestamp)
_UNKNOWN = object()

EVENT, PROCESSING = "event", "processing"
_DOMAINS = {EVENT: TimeDomain.EVENT_TIME, PROCESSING: TimeDomain.PROCESSING_TIME}

# At parallelism 1 Flink's operator emits in the order its input came, across keys, where
# Spark visits a micro-batch key by key: each input record has its place in the micro-batch
# (layout.SEQ), each output gets the place of what made it (layout.ORDER): its element's, or,
# for a timer's output, after every element, by the timer's time. Client sinks sort by it.
TIMERS_ORDER = 1 << 62
_TIMER_TIME_LIMIT = 1 << 61

# (side output tag id or None, the value as emitted (see ``freeze``), timestamp)
Emitted = Tuple[Optional[str], Any, Optional[int]]
_IMMUTABLE = frozenset((int, float, str, bool, bytes, type(None)))


class Timestamped:
    """A value a keyed function emits with its own timestamp (a window's max timestamp)."""

    __slots__ = ("value", "timestamp")

    def __init__(self, value, timestamp: Optional[int]):
        self.value = value
        self.timestamp = timestamp


class Frozen(bytes):
    """A mutable emitted value, pickled at emission."""


def freeze(value):
    """``value`` itself when it cannot change (numbers, strings, tuples of them), else a
    pickled snapshot (``Frozen``)."""
    kind = type(value)
    if kind in _IMMUTABLE or (kind is tuple and _IMMUTABLE.issuperset(map(type, value))):
        return value
    return Frozen(dumps(value))


def thaw(value):
    """The Python value of an emitted value."""
    return pickle.loads(value) if type(value) is Frozen else value


def frozen_bytes(value) -> bytes:
    """The pickle of an emitted value."""
    return bytes(value) if type(value) is Frozen else dumps(value)


class _TimerService(TimerService):
    def __init__(self, host: "KeyedHost"):
        self._host = host

    def current_processing_time(self) -> int:
        return int(time.time() * 1000)

    def current_watermark(self) -> int:
        return self._host.watermark

    def register_processing_time_timer(self, timestamp: int) -> None:
        self._host.register_timer(PROCESSING, int(timestamp))

    def register_event_time_timer(self, timestamp: int) -> None:
        self._host.register_timer(EVENT, int(timestamp))

    def delete_processing_time_timer(self, timestamp: int) -> None:
        self._host.delete_timer(PROCESSING, int(timestamp))

    def delete_event_time_timer(self, timestamp: int) -> None:
        self._host.delete_timer(EVENT, int(timestamp))


class _Context(KeyedProcessFunction.OnTimerContext, KeyedCoProcessFunction.OnTimerContext):
    """The context of process_element / on_timer."""

    def __init__(self, host: "KeyedHost"):
        self._host = host
        self._timestamp: Optional[int] = None
        self._domain: Optional[TimeDomain] = None
        self._timers = _TimerService(host)

    def get_current_key(self):
        return self._host.scope.key

    def timer_service(self) -> TimerService:
        return self._timers

    def timestamp(self) -> int:
        return NO_TIMESTAMP if self._timestamp is None else self._timestamp

    def time_domain(self) -> TimeDomain:
        return self._domain

    def output(self, output_tag: OutputTag, value) -> None:
        self._host.emit(output_tag.tag_id, value, self._timestamp)


class HostedFunction:
    """A pystream keyed function that reaches into its host (state scopes, timers):
    ``attach(host)`` runs before ``open``."""

    def attach(self, host: "KeyedHost") -> None:
        self.host = host


class NativeTimers:
    """The timers of one domain that the engine fires (Spark's, in STREAMING mode), for the
    current key."""

    domain: str

    def register(self, timestamp: int) -> None:
        raise NotImplementedError

    def delete(self, timestamp: int) -> None:
        raise NotImplementedError


class KeyedHost:
    """Runs one keyed function.

    All timers of a key are kept in its state (``TIMERS``). For the ``native`` domain the
    engine holds one timer per key, at the key's earliest timer of that domain: when it
    fires, the driver fires every due timer of the key at once (``fire_due``), so a key
    with many timers (windows) costs the engine one timer, not one per window."""

    def __init__(self, function, info: TaskInfo, label: str,
                 native: Optional[NativeTimers] = None):
        self.function = function
        self.info = info
        self.label = label
        self.native = native.domain if native is not None else None
        self._native = native
        self._engine_timer: Any = _UNKNOWN  # the key's engine timer (None: none), once read
        self.scope: Optional[KeyScope] = None
        self.watermark = MIN_WATERMARK
        self.out: List[Emitted] = []
        self._ctx = _Context(self)
        self._checkers: Dict[int, Callable] = {}
        self._elements = self._element_methods(function)

    @staticmethod
    def _element_methods(fn) -> List[Callable]:
        if hasattr(fn, "process_element1") and hasattr(fn, "process_element2"):
            return [fn.process_element1, fn.process_element2]
        return [fn.process_element]

    def checker(self, type_info) -> Callable:
        key = id(type_info)
        if key not in self._checkers:
            self._checkers[key] = value_checker(type_info)
        return self._checkers[key]

    # -- lifecycle

    def open(self) -> None:
        if isinstance(self.function, HostedFunction):
            self.function.attach(self)
        ctx = StreamingRuntimeContext(self.info, state=StateAccess(self))
        try:
            self.function.open(ctx)
        except Exception as e:  # noqa: BLE001 - any user error is reported
            raise operator_failure(e, self.label) from None

    def close(self) -> None:
        self.function.close()
        write_reports()

    def set_key(self, key, backend) -> None:
        self.scope = KeyScope(key, backend)
        self._engine_timer = _UNKNOWN

    def finish_key(self) -> None:
        if self._native is not None and self._engine_timer is not _UNKNOWN:
            self._sync_engine_timer()
        self.scope.flush()

    def engine_timer_fired(self, timestamp: int) -> None:
        """The engine fired (and dropped) its timer ``timestamp`` for the current key."""
        self._timers()
        if self._engine_timer == timestamp:
            self._engine_timer = None

    def _sync_engine_timer(self) -> None:
        """Move the engine's timer to the key's earliest timer of the native domain."""
        native = self.native
        earliest = min((ts for domain, ts in self._timers() if domain == native), default=None)
        if earliest != self._engine_timer:
            if self._engine_timer is not None:
                self._native.delete(self._engine_timer)
            if earliest is not None:
                self._native.register(earliest)
            self._engine_timer = earliest

    # -- records and timers

    def process_run(self, values: list, timestamps: list, input_index: int = 0) -> None:
        """Process consecutive elements of the current key (from one input).

        pystream's own keyed functions take the whole run at once (``process_run``), which
        reads and writes their state once per run instead of once per element.
        """
        run = getattr(self.function, "process_run", None)
        if run is None or input_index:
            self._process_each(values, timestamps, input_index)
            return
        ctx = self._ctx
        ctx._domain = None
        try:
            run(values, timestamps, ctx, self.emit)
        except Exception as e:  # noqa: BLE001 - any user error is reported
            raise operator_failure(e, self.label) from None

    def _process_each(self, values: list, timestamps: list, input_index: int) -> None:
        """``process`` for each element, with the lookups done once."""
        ctx, element, collect = self._ctx, self._elements[input_index], self._collect
        ctx._domain = None
        value = None
        try:
            for value, timestamp in zip(values, timestamps):
                ctx._timestamp = timestamp
                collect(element(value, ctx), timestamp)
        except Exception as e:  # noqa: BLE001 - any user error is reported
            raise operator_failure(e, self.label, value) from None

    def process(self, value, timestamp: Optional[int], input_index: int = 0) -> None:
        ctx = self._ctx
        ctx._timestamp = timestamp
        ctx._domain = None
        try:
            self._collect(self._elements[input_index](value, ctx), timestamp)
        except Exception as e:  # noqa: BLE001 - any user error is reported
            raise operator_failure(e, self.label, value) from None

    def fire(self, domain: str, timestamp: int) -> None:
        """Fire a due timer of the current key (removes it from the key's timers)."""
        timers = self._timers()
        if (domain, timestamp) not in timers:
            return
        timers.discard((domain, timestamp))
        self._save_timers(timers)
        ctx = self._ctx
        out_ts = timestamp if domain == EVENT else None
        ctx._timestamp = out_ts
        ctx._domain = _DOMAINS[domain]
        on_timer = getattr(self.function, "on_timer", None)
        if on_timer is None:
            return
        try:
            self._collect(on_timer(timestamp, ctx), out_ts)
        except Exception as e:  # noqa: BLE001 - any user error is reported
            raise operator_failure(e, self.label, "timer@%d" % timestamp) from None

    def due_timers(self, watermark: int, now: Optional[int] = None, domains=(EVENT, PROCESSING)
                   ) -> List[Tuple[int, str]]:
        """The current key's timers due at ``watermark`` / processing time ``now``, in order."""
        due = []
        for domain, ts in self._timers():
            if domain not in domains:
                continue
            limit = watermark if domain == EVENT else now
            if limit is not None and ts <= limit:
                due.append((ts, domain))
        return sorted(due)

    def fire_due(self, watermark: int, now: Optional[int] = None, domains=(EVENT, PROCESSING)):
        """Fire due timers, also those registered while firing, until none is due."""
        self.watermark = max(self.watermark, watermark) if watermark != MAX_WATERMARK \
            else MAX_WATERMARK
        while True:
            due = self.due_timers(watermark, now, domains)
            if not due:
                return
            for ts, domain in due:
                self.fire(domain, ts)

    def register_timer(self, domain: str, timestamp: int) -> None:
        timers = self._timers()
        if (domain, timestamp) not in timers:
            timers.add((domain, timestamp))
            self._save_timers(timers)

    def delete_timer(self, domain: str, timestamp: int) -> None:
        timers = self._timers()
        if (domain, timestamp) in timers:
            timers.discard((domain, timestamp))
            self._save_timers(timers)

    def _timers(self) -> set:
        """The current key's timers (the cached set: change it, then save it)."""
        timers = self.scope.load(TIMERS)
        timers = set() if timers is _MISSING else timers
        if self._engine_timer is _UNKNOWN and self._native is not None:
            native = self.native
            self._engine_timer = min((ts for domain, ts in timers if domain == native),
                                     default=None)
        return timers

    def _save_timers(self, timers: set) -> None:
        if timers:
            self.scope.store(TIMERS, timers)
        else:
            self.scope.delete(TIMERS)

    def emit(self, tag: Optional[str], value, timestamp: Optional[int]) -> None:
        """Emit ``value`` as it is now (the function may change a mutable object later)."""
        self.out.append((tag, freeze(value), timestamp))

    def _collect(self, result, timestamp: Optional[int]) -> None:
        if result is None:
            return
        append = self.out.append
        for item in result:
            kind = type(item)
            if kind in _IMMUTABLE:
                append((None, item, timestamp))
            elif kind is tuple and len(item) == 2 and isinstance(item[0], OutputTag):
                self.emit(item[0].tag_id, item[1], timestamp)
            elif kind is Timestamped:  # a window function's result, maybe to a side output
                value = item.value
                if type(value) is tuple and len(value) == 2 and isinstance(value[0], OutputTag):
                    self.emit(value[0].tag_id, value[1], item.timestamp)
                else:
                    self.emit(None, value, item.timestamp)
            else:
                append((None, freeze(item), timestamp))

    def drain(self) -> List[Emitted]:
        out, self.out = self.out, []
        return out


def timer_order(ts: Optional[int]) -> int:
    """The place of a timer's output: after the micro-batch's elements, by its time."""
    if ts is None:
        return TIMERS_ORDER
    return TIMERS_ORDER + max(-_TIMER_TIME_LIMIT, min(ts, _TIMER_TIME_LIMIT))


# an element of a keyed input taken one by one: (input index, value, timestamp, its place in
# the micro-batch or None, the watermark it came with or None)
Element = Tuple[int, Any, Optional[int], Optional[int], Optional[int]]


def process_one_by_one(host: KeyedHost, elements: List[Element],
                       broadcast_first: bool = False) -> list:
    """Process the current key's elements one by one: first the event-time timers that the
    watermark an element came with passed, then the element. Returns the place of each
    output so far (its element's)."""
    if broadcast_first:
        elements = sorted(elements, key=lambda e: -e[0])  # stable: keeps each input's order
    orders: list = []
    for index, value, stamp, seq, watermark in elements:
        if watermark is not None and watermark > host.watermark:
            host.fire_due(watermark, domains=(EVENT,))
        host.process(value, stamp, index)
        orders += [seq] * (len(host.out) - len(orders))
    return orders
