"""Keyed state handles over a per-key store.

A ``KeyScope`` holds the state of the current key as Python objects, loaded lazily from a
backend (a dict in BATCH mode, a transformWithState MapState in STREAMING mode) and written
back once when the key is done (``flush``), like PyFlink's cached state access. The handles
(``ValueState`` ...) are created once in ``open()`` and always act on the current key.
"""
from __future__ import annotations

import datetime
import decimal
import numbers
import time
from typing import Any, Callable, Dict, Optional

from pystream.common.time import Instant
from pystream.common.typeinfo import (
    BasicType,
    BasicTypeInfo,
    DateTypeInfo,
    ListTypeInfo,
    MapTypeInfo,
    PickledBytesTypeInfo,
    TimestampTypeInfo,
    TimeTypeInfo,
    TypeInformation,
    _CompositeTypeInfo,
    _ElementTypeInfo,
)
from pystream.common.types import Row
from pystream.core import state as api

_MISSING = object()


class StateTypeError(TypeError):
    """A value written to state does not fit the state descriptor's type."""


# ---------------------------------------------------------------------------------------------
# Checking values against a descriptor's type (fast isinstance checks, recursive)


_BASIC_KINDS = {  # basic type -> (exact Python types, then the slower isinstance fallback)
    BasicType.STRING: ({str}, (str,)), BasicType.CHAR: ({str}, (str,)),
    BasicType.BOOLEAN: ({bool}, (bool,)),
    BasicType.FLOAT: ({float, int}, (numbers.Real,)),
    BasicType.DOUBLE: ({float, int}, (numbers.Real,)),
    BasicType.BIG_DEC: ({decimal.Decimal, int}, (decimal.Decimal, numbers.Integral)),
    BasicType.INSTANT: ({Instant}, (Instant,)),
}
_INTEGRAL = ({int}, (numbers.Integral,))


def value_checker(type_info: TypeInformation) -> Callable[[Any], bool]:
    """A predicate telling whether a Python value fits ``type_info`` (None always fits).

    Exact-type checks first: ABC isinstance checks (numbers.Integral) are slow per record.
    """
    if isinstance(type_info, PickledBytesTypeInfo) or type_info is None:
        return lambda v: True
    if isinstance(type_info, BasicTypeInfo):
        exact, kinds = _BASIC_KINDS.get(type_info._basic_type, _INTEGRAL)
        allow_bool = bool in kinds

        def basic(v):
            return type(v) in exact or v is None or (
                isinstance(v, kinds) and (allow_bool or type(v) is not bool))
        return basic
    plain = {DateTypeInfo: datetime.date, TimeTypeInfo: datetime.time,
             TimestampTypeInfo: datetime.datetime}.get(type(type_info))
    if plain is not None:
        return lambda v: v is None or isinstance(v, plain)
    if isinstance(type_info, MapTypeInfo):
        kc, vc = value_checker(type_info._key_type_info), value_checker(type_info._value_type_info)
        return lambda v: v is None or (isinstance(v, dict)
                                       and all(kc(k) and vc(x) for k, x in v.items()))
    if isinstance(type_info, _ElementTypeInfo):
        ec = value_checker(type_info.element_type)
        if type_info.spark_type().typeName() == "binary":
            return lambda v: v is None or isinstance(v, (bytes, bytearray))
        return lambda v: v is None or (isinstance(v, (list, tuple)) and all(map(ec, v)))
    if isinstance(type_info, _CompositeTypeInfo):
        checks = [value_checker(t) for t in type_info.get_field_types()]
        arity = len(checks)

        def composite(v):
            if v is None:
                return True
            if not isinstance(v, (tuple, list, Row)) or len(v) != arity:
                return False
            for check, field in zip(checks, v):
                if not check(field):
                    return False
            return True
        return composite
    return lambda v: True


# ---------------------------------------------------------------------------------------------
# The per-key store


class KeyScope:
    """The state of one key: objects by state name, loaded from and flushed to a backend."""

    __slots__ = ("key", "backend", "cache", "dirty")

    def __init__(self, key, backend):
        self.key = key
        self.backend = backend  # get(name) -> obj | _MISSING; put(name, obj); delete(name)
        self.cache: Dict[str, Any] = {}
        self.dirty: set = set()

    def load(self, name: str):
        if name in self.cache:
            return self.cache[name]
        value = self.backend.get(name)
        self.cache[name] = value
        return value

    def store(self, name: str, value) -> None:
        self.cache[name] = value
        self.dirty.add(name)

    def delete(self, name: str) -> None:
        self.cache[name] = _MISSING
        self.dirty.add(name)

    def flush(self) -> None:
        for name in self.dirty:
            value = self.cache[name]
            if value is _MISSING:
                self.backend.delete(name)
            else:
                self.backend.put(name, value)
        self.dirty.clear()


class DictBackend:
    """State of one key in a Python dict (BATCH mode, tests)."""

    def __init__(self, data: Optional[dict] = None):
        self.data = {} if data is None else data

    def get(self, name):
        return self.data.get(name, _MISSING)

    def put(self, name, value):
        self.data[name] = value

    def delete(self, name):
        self.data.pop(name, None)


# ---------------------------------------------------------------------------------------------
# State handles


def namespaced(name: str, namespace) -> str:
    """The state name of ``name`` in ``namespace`` (a window; None: no namespace)."""
    return name if namespace is None else "%s@%r" % (name, namespace)


MAX_WATERMARK = 2 ** 63 - 1  # Flink's final watermark: the end of a bounded input


class _Handle:
    """Base of the handles: reads and writes the current key's scope, with TTL.

    A handle may be scoped to a namespace too (windows keep their contents in state scoped to
    the key and the window): ``set_current_namespace(window)``.
    """

    def __init__(self, host, descriptor: api.StateDescriptor):
        self._host = host
        self._name = descriptor.name
        self._descriptor = descriptor
        ttl = descriptor.ttl_config
        self._ttl_ms = ttl.ttl_millis() if ttl is not None and ttl.is_enabled() else None
        self._touch_on_read = (ttl is not None and ttl.get_update_type()
                               is api.StateTtlConfig.UpdateType.OnReadAndWrite)

    def _read(self):
        raw = self._host.scope.load(self._name)
        if raw is _MISSING:
            return _MISSING
        if self._ttl_ms is None:
            return raw
        value, written = raw
        now = int(time.time() * 1000)
        # timers fired by the end of input fire right after the last record in Flink: what
        # was alive then is alive for them, however long Spark took to the next batch
        final = getattr(self._host, "watermark", None) == MAX_WATERMARK
        if now - written >= self._ttl_ms and not final:
            self._host.scope.delete(self._name)
            return _MISSING
        if self._touch_on_read:
            self._host.scope.store(self._name, (value, now))
        return value

    def _write(self, value) -> None:
        if self._ttl_ms is not None:
            value = (value, int(time.time() * 1000))
        self._host.scope.store(self._name, value)

    def _check(self, value, type_info) -> None:
        if not self._host.checker(type_info)(value):
            raise StateTypeError(
                "state '%s' is declared as %s but was given %r (of Python type %s)"
                % (self._descriptor.name, type_info, value, type(value).__name__))

    def clear(self) -> None:
        self._host.scope.delete(self._name)

    def set_current_namespace(self, namespace) -> None:
        self._name = namespaced(self._descriptor.name, namespace)

    def merge_namespaces(self, target, sources) -> None:
        """Merge the state of the ``sources`` namespaces into ``target`` (and clear them)."""
        merged = _MISSING
        for namespace in [target, *sources]:
            self.set_current_namespace(namespace)
            value = self._read()
            if value is not _MISSING:
                merged = value if merged is _MISSING else self._merge(merged, value)
            self.clear()
        self.set_current_namespace(target)
        if merged is not _MISSING:
            self._write(merged)

    def _merge(self, a, b):
        raise TypeError("state '%s' (%s) cannot be merged" % (self._descriptor.name,
                                                              type(self._descriptor).__name__))


class ValueStateImpl(_Handle, api.ValueState):
    def value(self):
        v = self._read()
        return None if v is _MISSING else v

    def update(self, value) -> None:
        self._check(value, self._descriptor.type_info)
        if value is None:
            self.clear()
        else:
            self._write(value)


class ListView:
    """What ``ListState.get()`` returns, as PyFlink's does: an iterable over the key's list
    that sees the ``add``s made after it (it is the key's cached list, which they append
    to), and is true even when the list is empty (it has no length)."""

    __slots__ = ("_state", "_items")

    def __init__(self, state: "ListStateImpl", items: Optional[list]):
        self._state = state
        self._items = items  # None: the state was empty; read again when iterated

    def __iter__(self):
        items = self._items
        if items is None:
            items = self._state._read()
            items = [] if items is _MISSING else items
        return iter(list(items))


class ListStateImpl(_Handle, api.ListState):
    def _elem_type(self):
        return self._descriptor.type_info.element_type \
            if isinstance(self._descriptor.type_info, ListTypeInfo) else None

    def get(self):
        v = self._read()
        return ListView(self, None if v is _MISSING else v)

    def add(self, value) -> None:
        if value is None and not isinstance(self._elem_type(), PickledBytesTypeInfo):
            raise ValueError("You cannot add null to a ListState.")  # (a pickled one keeps it)
        self._check(value, self._elem_type())
        items = self._read()
        if items is _MISSING:
            items = []
        items.append(value)  # the key's cached list: written back when the key is done
        self._write(items)

    def add_all(self, values) -> None:
        values = list(values)
        for v in values:
            self._check(v, self._elem_type())
        items = self._read()
        if items is _MISSING:
            items = []
        items.extend(values)
        self._write(items)

    def update(self, values) -> None:
        values = list(values)
        for v in values:
            self._check(v, self._elem_type())
        if values:
            self._write(values)
        else:
            self.clear()

    def _merge(self, a, b):
        return a + b


class MapStateImpl(_Handle, api.MapState):
    def _dict(self) -> dict:
        v = self._read()
        return {} if v is _MISSING else v

    def get(self, key):
        return self._dict().get(key)

    def put(self, key, value) -> None:
        self._check({key: value}, self._descriptor.type_info)
        d = self._dict()  # the key's cached dict: written back when the key is done
        d[key] = value
        self._write(d)

    def put_all(self, dict_value) -> None:
        self._check(dict(dict_value), self._descriptor.type_info)
        d = self._dict()
        d.update(dict_value)
        self._write(d)

    def remove(self, key) -> None:
        d = self._dict()
        if key not in d:
            return
        del d[key]
        if d:
            self._write(d)
        else:
            self.clear()

    def contains(self, key) -> bool:
        """Whether ``key`` has a value: one put as None is none, as in PyFlink."""
        return self._dict().get(key) is not None

    def items(self):
        return list(self._dict().items())

    def keys(self):
        return list(self._dict().keys())

    def values(self):
        return list(self._dict().values())

    def is_empty(self) -> bool:
        return not self._dict()


class ReducingStateImpl(_Handle, api.ReducingState):
    def __init__(self, host, descriptor):
        super().__init__(host, descriptor)
        fn = descriptor.get_reduce_function()
        self._reduce = fn.reduce if hasattr(fn, "reduce") else fn

    def get(self):
        v = self._read()
        return None if v is _MISSING else v

    def add(self, value) -> None:
        current = self._read()
        result = value if current is _MISSING else self._reduce(current, value)
        self._check(result, self._descriptor.type_info)
        self._write(result)

    def _merge(self, a, b):
        return self._reduce(a, b)


class AggregatingStateImpl(_Handle, api.AggregatingState):
    def __init__(self, host, descriptor):
        super().__init__(host, descriptor)
        self._agg = descriptor.get_agg_function()

    def get(self):
        acc = self._read()
        return None if acc is _MISSING else self._agg.get_result(acc)

    def add(self, value) -> None:
        if value is None:  # as Flink's heap state: adding null clears the state
            self.clear()
            return
        acc = self._read()
        if acc is _MISSING:
            acc = self._agg.create_accumulator()
        acc = self._agg.add(value, acc)
        self._check(acc, self._descriptor.type_info)
        self._write(acc)

    def _merge(self, a, b):
        return self._agg.merge(a, b)


class StateAccess:
    """What a keyed RuntimeContext hands out: state handles bound to a host."""

    def __init__(self, host):
        self._host = host

    def value_state(self, d):
        return ValueStateImpl(self._host, self._expect(d, api.ValueStateDescriptor))

    def list_state(self, d):
        return ListStateImpl(self._host, self._expect(d, api.ListStateDescriptor))

    def map_state(self, d):
        return MapStateImpl(self._host, self._expect(d, api.MapStateDescriptor))

    def reducing_state(self, d):
        return ReducingStateImpl(self._host, self._expect(d, api.ReducingStateDescriptor))

    def aggregating_state(self, d):
        return AggregatingStateImpl(self._host, self._expect(d, api.AggregatingStateDescriptor))

    @staticmethod
    def _expect(descriptor, kind):
        if not isinstance(descriptor, kind):
            raise TypeError("expected a %s, got %r" % (kind.__name__, descriptor))
        return descriptor
