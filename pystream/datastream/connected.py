"""Two-input operators: ConnectedStreams (``connect``) and broadcast state.

How they run:

* non-keyed ConnectedStreams: both inputs tagged with their index, unioned, and one Python
  stage calls ``process_element1`` or ``process_element2`` (CoMap and CoFlatMap run as
  CoProcessFunctions, as in PyFlink);
* keyed ConnectedStreams: the keyed primitive (``graph.Keyed``) with a second input; records
  of both inputs with the same key share the key's state and timers;
* BroadcastConnectedStream: the keyed primitive with the broadcast stream as its second input,
  run on key groups (one per parallel instance; see ``pystream.runtime.keyed_broadcast``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional, Sequence, Union

from pystream import graph
from pystream.common.typeinfo import TypeInformation, Types
from pystream.core.functions import (
    BroadcastProcessFunction,
    CoFlatMapFunction,
    CoMapFunction,
    CoProcessFunction,
    KeyedBroadcastProcessFunction,
    KeyedCoProcessFunction,
    KeySelector,
    ProcessFunction,
)
from pystream.core.state import MapStateDescriptor

if TYPE_CHECKING:  # pragma: no cover
    from pystream.datastream.data_stream import DataStream

__all__ = ["ConnectedStreams", "BroadcastStream", "BroadcastConnectedStream"]

PICKLED = Types.PICKLED_BYTE_ARRAY()


def _meta(name: str) -> graph.Meta:
    return graph.Meta(name=name, origin=graph.call_site())


def _keyed(stream) -> bool:
    """Whether ``stream`` is a KeyedStream: a stream of a KeyBy node (this module does not
    import ``data_stream``, which imports it)."""
    return isinstance(stream._node, graph.KeyBy)


class ConnectedStreams:
    """Two streams, possibly of different types, processed by one operator that sees the
    elements of both (``ds1.connect(ds2)``); key both (``key_by``) to share keyed state.

    >>> class Both(CoMapFunction):                                     # doctest: +SKIP
    ...     def map1(self, value):
    ...         return "int %d" % value
    ...     def map2(self, value):
    ...         return "str " + value
    >>> ints.connect(strings).map(Both(), Types.STRING())              # doctest: +SKIP
    """

    def __init__(self, stream1: "DataStream", stream2: "DataStream"):
        self.stream1 = stream1
        self.stream2 = stream2

    def key_by(self, key_selector1: Union[Callable, KeySelector],
               key_selector2: Union[Callable, KeySelector],
               key_type: Optional[TypeInformation] = None) -> "ConnectedStreams":
        """Key both inputs (elements with equal keys share keyed state and timers)."""
        return ConnectedStreams(self.stream1.key_by(key_selector1, key_type),
                                self.stream2.key_by(key_selector2, key_type))

    def map(self, func: CoMapFunction,
            output_type: Optional[TypeInformation] = None) -> "DataStream":
        """``map1`` for elements of the first input, ``map2`` for the second's."""
        if not isinstance(func, CoMapFunction):
            raise TypeError("The input function must be a CoMapFunction!")
        return self.process(_CoMap(func), output_type).name("Co-Map")

    def flat_map(self, func: CoFlatMapFunction,
                 output_type: Optional[TypeInformation] = None) -> "DataStream":
        """``flat_map1`` / ``flat_map2``: zero or more elements per element."""
        if not isinstance(func, CoFlatMapFunction):
            raise TypeError("The input must be a CoFlatMapFunction!")
        return self.process(_CoFlatMap(func), output_type).name("Co-Flat Map")

    def process(self, func: Union[CoProcessFunction, KeyedCoProcessFunction],
                output_type: Optional[TypeInformation] = None) -> "DataStream":
        """Apply a CoProcessFunction, or on keyed inputs a KeyedCoProcessFunction (keyed
        state, timers and ``on_timer``)."""
        if not isinstance(func, (CoProcessFunction, KeyedCoProcessFunction)):
            raise TypeError("The input must be a CoProcessFunction or KeyedCoProcessFunction!")
        output_type = output_type if output_type is not None else PICKLED
        if self._is_keyed_stream():
            node = graph.Keyed(meta=_meta("Keyed Co-Process"), output_type=output_type,
                               input=self.stream1._node, input2=self.stream2._node,
                               function=func)
            return self.stream1._stream(node)
        if isinstance(func, KeyedCoProcessFunction):
            raise TypeError(
                "KeyedCoProcessFunction needs keyed ConnectedStreams (keyed state and timers "
                "are per key): connect two KeyedStreams, or call key_by(key_selector1, "
                "key_selector2) on the ConnectedStreams; use a CoProcessFunction otherwise")
        tagged = tuple(
            graph.Stateless(meta=_meta("Co-Process input %d" % (index + 1)),
                            output_type=PICKLED, input=stream._values_node(), kind="map",
                            fn=_Tag(index))
            for index, stream in enumerate((self.stream1, self.stream2)))
        union = graph.Union(meta=_meta("Co-Process inputs"), output_type=PICKLED,
                            streams=tagged)
        node = graph.Stateless(meta=_meta("Co-Process"), output_type=output_type, input=union,
                               kind="process", fn=_TwoInputs(func))
        return self.stream1._stream(node)

    def _is_keyed_stream(self) -> bool:
        return _keyed(self.stream1) and _keyed(self.stream2)


class BroadcastStream:
    """A stream whose elements reach every parallel instance of the operator it is connected
    to, with broadcast state (``ds.broadcast(MapStateDescriptor(...))``)."""

    def __init__(self, input_stream: "DataStream",
                 broadcast_state_descriptors: Sequence[MapStateDescriptor]):
        for descriptor in broadcast_state_descriptors:
            if not isinstance(descriptor, MapStateDescriptor):
                raise TypeError("broadcast_state_descriptor must be MapStateDescriptor")
        self.input_stream = input_stream
        self.broadcast_state_descriptors = list(broadcast_state_descriptors)


class BroadcastConnectedStream:
    """A (keyed) stream connected with a BroadcastStream: ``process`` it with a
    BroadcastProcessFunction (non-keyed) or a KeyedBroadcastProcessFunction (keyed).

    ``process_broadcast_element`` reads and writes the broadcast state
    (``ctx.get_broadcast_state(descriptor)``); ``process_element`` reads it. Each parallel
    instance keeps its own copy, and processes the broadcast elements it has received before
    the other input's: all of them in BATCH mode, those of the same micro-batch in STREAMING
    mode (Flink orders the two inputs the same way in BATCH mode and not at all in STREAMING).
    """

    def __init__(self, non_broadcast_stream: "DataStream", broadcast_stream: BroadcastStream,
                 broadcast_state_descriptors: Optional[Sequence[MapStateDescriptor]] = None):
        self.non_broadcast_stream = non_broadcast_stream
        self.broadcast_stream = broadcast_stream
        self.broadcast_state_descriptors = list(
            broadcast_state_descriptors if broadcast_state_descriptors is not None
            else broadcast_stream.broadcast_state_descriptors)

    def process(self, func: Union[BroadcastProcessFunction, KeyedBroadcastProcessFunction],
                output_type: Optional[TypeInformation] = None) -> "DataStream":
        """Apply ``func`` to both inputs; returns its output stream."""
        from pystream.runtime.keyed_broadcast import BroadcastOperator

        keyed = self._is_keyed_stream()
        if isinstance(func, BroadcastProcessFunction) and keyed:
            raise TypeError("BroadcastProcessFunction should be applied to non-keyed DataStream")
        if isinstance(func, KeyedBroadcastProcessFunction) and not keyed:
            raise TypeError("KeyedBroadcastProcessFunction should be applied to keyed DataStream")
        if not isinstance(func, (BroadcastProcessFunction, KeyedBroadcastProcessFunction)):
            raise TypeError("The input must be a BroadcastProcessFunction or "
                            "KeyedBroadcastProcessFunction!")
        stream = self.non_broadcast_stream
        if keyed:
            name, key_by = "Keyed-Co-Process-Broadcast", stream._node
        else:
            name = "Co-Process-Broadcast"
            key_by = graph.KeyBy(meta=_meta(name), output_type=stream.get_type(),
                                 input=stream._node, key_selector=None)
        operator = BroadcastOperator(func, self.broadcast_state_descriptors,
                                     key_by.key_selector)
        node = graph.Keyed(meta=_meta(name), output_type=output_type or PICKLED, input=key_by,
                           input2=self.broadcast_stream.input_stream._values_node(),
                           broadcast=True, function=operator)
        return stream._stream(node)

    def _is_keyed_stream(self) -> bool:
        return _keyed(self.non_broadcast_stream)


# -- the functions two-input operators run


class _Tag:
    """Marks an element with the index of its input."""

    def __init__(self, index: int):
        self.index = index

    def __call__(self, value):
        return self.index, value


class _TwoInputs(ProcessFunction):
    """A CoProcessFunction over the union of tagged inputs (non-keyed ConnectedStreams)."""

    def __init__(self, function: CoProcessFunction):
        self.function = function

    def open(self, runtime_context):
        self.function.open(runtime_context)
        self._elements = (self.function.process_element1, self.function.process_element2)

    def close(self):
        self.function.close()

    def process_element(self, value, ctx):
        index, element = value
        return self._elements[index](element, ctx)


class _CoAdapter(CoProcessFunction):
    """A two-input function run as a CoProcessFunction: open/close pass through."""

    def __init__(self, function):
        self.function = function

    def open(self, runtime_context):
        self.function.open(runtime_context)

    def close(self):
        self.function.close()


class _CoMap(_CoAdapter):
    """A CoMapFunction as a CoProcessFunction (PyFlink's adapter: None emits nothing)."""

    def process_element1(self, value, ctx):
        result = self.function.map1(value)
        if result is not None:
            yield result

    def process_element2(self, value, ctx):
        result = self.function.map2(value)
        if result is not None:
            yield result


class _CoFlatMap(_CoAdapter):
    """A CoFlatMapFunction as a CoProcessFunction."""

    def process_element1(self, value, ctx):
        result = self.function.flat_map1(value)
        if result:
            yield from result

    def process_element2(self, value, ctx):
        result = self.function.flat_map2(value)
        if result:
            yield from result
