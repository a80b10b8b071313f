"""Broadcast state: (Keyed)BroadcastProcessFunction on the keyed primitive, with key groups.

Flink gives each parallel instance of a broadcast operator its own copy of the broadcast
state, kept equal because every instance receives every broadcast element. pystream does the
same with *key groups*: an operator of parallelism p runs p groups (keys 0..p-1 of the keyed
primitive). The compiler copies each broadcast element to every group and sends each element
of the other input to one group: by a hash of its key (keyed stream) or by the parallel
instance it comes from (non-keyed stream). A group's state holds its broadcast states and, for
a keyed stream, the keyed state and timers of its keys, each scoped to the key
(``name@key``), so ``ctx.get_current_key()``, keyed state and timers behave as in Flink.

Order: a group processes the broadcast elements of a micro-batch (STREAMING) or of the whole
input (BATCH) before the others' (Flink's BATCH mode reads the broadcast side first; in
STREAMING mode Flink gives no order between the two inputs).
"""
from __future__ import annotations

import time
from typing import Any, Dict, List, Optional, Sequence

from pystream.core import state as api
from pystream.core.functions import (
    BaseBroadcastProcessFunction,
    Function,
    KeyedBroadcastProcessFunction,
    KeyedCoProcessFunction,
    KeySelector,
    TimeDomain,
    TimerService,
    overrides,
)
from pystream.errors import PystreamError
from pystream.runtime.context import StreamingRuntimeContext
from pystream.runtime.java_hashes import java_hash_of
from pystream.runtime.key_groups import KeyPlacement, flink_subtask
from pystream.runtime.keyed import EVENT, PROCESSING, HostedFunction, KeyedHost
from pystream.runtime.metric_reports import write_reports
from pystream.runtime.stage import bind, encode_key
from pystream.runtime.state import _MISSING, MapStateImpl, StateAccess, namespaced

BROADCAST_INPUT = 1  # the broadcast stream is the operator's second input
_KEYS = "__keys"  # group state: the keys that have keyed state (for apply_to_keyed_state)
_KEY_TIMERS = "__key_timers"  # group state: {(domain, timestamp): [keys]}
_NO_KEY = object()


class _Broadcast:
    """The namespace of broadcast state in a group's state (``rules@<broadcast>``)."""

    def __repr__(self):
        return "<broadcast>"


_BROADCAST = _Broadcast()


def group_keys(groups: int) -> List[bytes]:
    """The ``__key`` of each key group: where the compiler copies broadcast elements."""
    return [encode_key(g) for g in range(groups)]


class KeyGroups(KeySelector):
    """The key group of an element of the non-broadcast input: the subtask Flink runs its key
    on (keyed stream: ``runtime.key_groups``, so that ``get_index_of_this_subtask`` and the
    print sink's prefix are Flink's) or the index of the parallel instance it comes from
    (non-keyed stream)."""

    def __init__(self, key_selector, groups: int, max_parallelism: int = 128,
                 key_type=None):
        self.key_selector = key_selector
        self.groups = groups
        self.max_parallelism = max_parallelism
        self.key_type = key_type

    def open(self, runtime_context):
        if isinstance(self.key_selector, Function):
            self.key_selector.open(runtime_context)
        self._key = None if self.key_selector is None else bind("key", self.key_selector)
        self._instance = runtime_context.get_index_of_this_subtask() % self.groups

    def get_key(self, value):
        if self._key is None:
            return self._instance
        key = self._key(value)
        java_hash = None if self.key_type is None else java_hash_of(self.key_type)
        key_hash = KeyPlacement.key_hash(key, encode_key(key), java_hash)
        return flink_subtask(key_hash, self.groups, self.max_parallelism)


class BroadcastStateImpl(MapStateImpl, api.BroadcastState):
    """A broadcast state of a key group (a map, namespaced in the group's state)."""

    def __init__(self, host, descriptor: api.MapStateDescriptor):
        super().__init__(host, descriptor)
        self.set_current_namespace(_BROADCAST)


class ReadOnlyBroadcastStateView(api.ReadOnlyBroadcastState):
    """The broadcast state as ``process_element`` and ``on_timer`` see it."""

    def __init__(self, state: BroadcastStateImpl):
        self._state = state

    def get(self, key):
        return self._state.get(key)

    def contains(self, key) -> bool:
        return self._state.contains(key)

    def items(self):
        return self._state.items()

    def keys(self):
        return self._state.keys()

    def values(self):
        return self._state.values()

    def is_empty(self) -> bool:
        return self._state.is_empty()

    def clear(self) -> None:  # PyFlink allows it (and so does Java's State interface)
        self._state.clear()

    def _read_only(self, *_):
        raise PystreamError("The broadcast state '%s' is read-only here: only "
                            "process_broadcast_element may change it"
                            % self._state._descriptor.name)

    put = put_all = remove = __setitem__ = __delitem__ = _read_only


class _KeyScope:
    """The current key's state inside its group's state: the host of the user's keyed state
    handles (they call ``scope.load/store/delete`` and ``checker``)."""

    def __init__(self, host: KeyedHost, label: str):
        self._host = host
        self._label = label
        self.key: Any = _NO_KEY

    @property
    def scope(self) -> "_KeyScope":
        if self.key is _NO_KEY:
            raise PystreamError(
                "Keyed state is not available in process_broadcast_element of operator %s: "
                "it has no current key (use ctx.apply_to_keyed_state to reach every key's "
                "state)" % self._label)
        return self

    def checker(self, type_info):
        return self._host.checker(type_info)

    def load(self, name: str):
        return self._host.scope.load(namespaced(name, self.key))

    def store(self, name: str, value) -> None:
        group = self._host.scope
        keys = group.load(_KEYS)
        if keys is _MISSING or self.key not in keys:
            keys = set() if keys is _MISSING else keys
            keys.add(self.key)
            group.store(_KEYS, keys)
        group.store(namespaced(name, self.key), value)

    def delete(self, name: str) -> None:
        self._host.scope.delete(namespaced(name, self.key))


class _Timers(TimerService):
    """The timer service of the current key (keyed) or of no key (timers raise)."""

    def __init__(self, operator: "BroadcastOperator"):
        self._op = operator

    def current_processing_time(self) -> int:
        return int(time.time() * 1000)

    def current_watermark(self) -> int:
        return self._op.host.watermark

    def register_processing_time_timer(self, timestamp: int) -> None:
        self._op.set_timer(PROCESSING, int(timestamp), True)

    def register_event_time_timer(self, timestamp: int) -> None:
        self._op.set_timer(EVENT, int(timestamp), True)

    def delete_processing_time_timer(self, timestamp: int) -> None:
        self._op.set_timer(PROCESSING, int(timestamp), False)

    def delete_event_time_timer(self, timestamp: int) -> None:
        self._op.set_timer(EVENT, int(timestamp), False)


class _OperatorTime:
    """Timestamp and time of the operator's current element (both contexts)."""

    _op: "BroadcastOperator"

    def timestamp(self) -> Optional[int]:
        return self._op.outer.timestamp()

    def current_processing_time(self) -> int:
        return int(time.time() * 1000)

    def current_watermark(self) -> int:
        return self._op.host.watermark


class _Context(_OperatorTime, BaseBroadcastProcessFunction.Context):
    """The context of ``process_broadcast_element``: read-write broadcast state."""

    def __init__(self, operator: "BroadcastOperator"):
        self._op = operator

    def get_broadcast_state(self, state_descriptor) -> api.BroadcastState:
        return self._op.broadcast_state(state_descriptor)

    def apply_to_keyed_state(self, state_descriptor, function) -> None:
        """Call ``function(key, state)`` (or ``function.process(key, state)``) for every key
        of this parallel instance that has state (Flink's ``applyToKeyedState``)."""
        self._op.apply_to_keyed_state(state_descriptor, function)


class _ReadOnlyContext(_OperatorTime, KeyedBroadcastProcessFunction.OnTimerContext):
    """The context of ``process_element`` and ``on_timer``: read-only broadcast state, the
    current key and timers (keyed streams)."""

    def __init__(self, operator: "BroadcastOperator"):
        self._op = operator
        self._timers = _Timers(operator)
        self._domain: Optional[TimeDomain] = None

    def get_broadcast_state(self, state_descriptor) -> api.ReadOnlyBroadcastState:
        return ReadOnlyBroadcastStateView(self._op.broadcast_state(state_descriptor))

    def timer_service(self) -> TimerService:
        return self._timers

    def get_current_key(self):
        return self._op.current_key()

    def time_domain(self) -> Optional[TimeDomain]:
        return self._domain


class BroadcastOperator(KeyedCoProcessFunction, HostedFunction):
    """Runs a (Keyed)BroadcastProcessFunction on one key group at a time: the other input's
    elements arrive at ``process_element1``, the broadcast ones at ``process_element2``.

    ``key_selector`` is the keyed stream's (None: a non-keyed stream).
    """

    def __init__(self, function, descriptors: Sequence[api.MapStateDescriptor],
                 key_selector=None):
        self.function = function
        self.descriptors = tuple(descriptors)
        self.key_selector = key_selector

    @property
    def streaming_time_domain(self) -> Optional[str]:
        """Timers only on a keyed stream whose function defines ``on_timer``."""
        if self.key_selector is not None and overrides(
                self.function, KeyedBroadcastProcessFunction, "on_timer"):
            return EVENT
        return None

    def open(self, runtime_context: StreamingRuntimeContext):
        self.label = self.host.label
        self.keys = _KeyScope(self.host, self.label)
        self.outer = None  # the host's context of the current call (timestamp)
        self._states: Dict[str, BroadcastStateImpl] = {}
        self._ctx = _Context(self)
        self._read_only = _ReadOnlyContext(self)
        keyed = self.key_selector is not None
        if keyed:
            if isinstance(self.key_selector, Function):
                self.key_selector.open(runtime_context)
            self._key_of = bind("key", self.key_selector)
        user_context = StreamingRuntimeContext(
            runtime_context._info, runtime_context.get_index_of_this_subtask(),
            state=StateAccess(self.keys) if keyed else None)
        self.function.open(user_context)

    def close(self):
        self.function.close()
        write_reports()

    # -- state

    def broadcast_state(self, descriptor) -> BroadcastStateImpl:
        if not isinstance(descriptor, api.MapStateDescriptor):
            raise TypeError("get_broadcast_state needs a MapStateDescriptor, got %r"
                            % (descriptor,))
        state = self._states.get(descriptor.name)
        if state is None:
            state = self._states[descriptor.name] = BroadcastStateImpl(self.host, descriptor)
        return state

    def current_key(self):
        if self.key_selector is None:
            raise PystreamError("get_current_key: operator %s runs on a non-keyed stream"
                                % self.label)
        return None if self.keys.key is _NO_KEY else self.keys.key

    def apply_to_keyed_state(self, descriptor, function) -> None:
        if self.key_selector is None:
            raise PystreamError("apply_to_keyed_state: operator %s runs on a non-keyed stream"
                                % self.label)
        access = StateAccess(self.keys)
        make = {api.ValueStateDescriptor: access.value_state,
                api.ListStateDescriptor: access.list_state,
                api.MapStateDescriptor: access.map_state,
                api.ReducingStateDescriptor: access.reducing_state,
                api.AggregatingStateDescriptor: access.aggregating_state}[type(descriptor)]
        call = getattr(function, "process", function)
        keys = self.host.scope.load(_KEYS)
        try:
            for key in ([] if keys is _MISSING else list(keys)):
                self.keys.key = key
                if self.keys.load(descriptor.name) is not _MISSING:
                    call(key, make(descriptor))
        finally:
            self.keys.key = _NO_KEY

    # -- elements

    def process_element1(self, value, ctx):
        self.outer = ctx
        if self.key_selector is not None:
            self.keys.key = self._key_of(value)
        try:
            result = self.function.process_element(value, self._read_only)
            if result is not None:
                yield from result
        finally:
            self.keys.key = _NO_KEY

    def process_element2(self, value, ctx):
        self.outer = ctx
        result = self.function.process_broadcast_element(value, self._ctx)
        if result is not None:
            yield from result

    # -- timers (keyed): the group's timer at a time fires the timers of its keys

    def set_timer(self, domain: str, timestamp: int, register: bool) -> None:
        if self.key_selector is None:
            raise PystreamError("Timers are only available on a KeyedStream: operator %s "
                                "runs on a non-keyed stream" % self.label)
        if self.keys.key is _NO_KEY:
            raise PystreamError("Timers need a current key: operator %s cannot set them in "
                                "process_broadcast_element" % self.label)
        timers = self._key_timers()
        keys = timers.setdefault((domain, timestamp), [])
        key = self.keys.key
        if register and key not in keys:
            keys.append(key)
            self.host.register_timer(domain, timestamp)
        elif not register and key in keys:
            keys.remove(key)
            if not keys:
                del timers[(domain, timestamp)]
                self.host.delete_timer(domain, timestamp)
        elif not keys:
            del timers[(domain, timestamp)]
        self._save_key_timers(timers)

    def _key_timers(self) -> dict:
        """{(domain, timestamp): [keys]} of this group (mutated in place, then stored)."""
        timers = self.host.scope.load(_KEY_TIMERS)
        return {} if timers is _MISSING else timers

    def _save_key_timers(self, timers: dict) -> None:
        if timers:
            self.host.scope.store(_KEY_TIMERS, timers)
        else:
            self.host.scope.delete(_KEY_TIMERS)

    def on_timer(self, timestamp: int, ctx):
        self.outer = ctx
        domain = ctx.time_domain()
        timers = self._key_timers()
        keys = timers.pop((EVENT if domain is TimeDomain.EVENT_TIME else PROCESSING,
                           timestamp), [])
        self._save_key_timers(timers)
        self._read_only._domain = domain
        try:
            for key in keys:
                self.keys.key = key
                result = self.function.on_timer(timestamp, self._read_only)
                if result is not None:
                    yield from result
        finally:
            self.keys.key = _NO_KEY
            self._read_only._domain = None
