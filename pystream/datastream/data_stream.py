"""DataStream, KeyedStream and DataStreamSink: methods only add nodes to the job graph."""
from __future__ import annotations

import concurrent.futures
import queue
import threading
from enum import Enum
from typing import TYPE_CHECKING, Any, Callable, Iterator, List, Optional, Union

from pystream import graph
from pystream.common.typeinfo import RowTypeInfo, TupleTypeInfo, TypeInformation, Types
from pystream.common.watermark_strategy import WatermarkStrategy
from pystream.core.connectors.client import CollectSink, PrintSink
from pystream.core.functions import (
    FilterFunction,
    FlatMapFunction,
    Function,
    KeyedProcessFunction,
    KeySelector,
    MapFunction,
    Partitioner,
    ProcessFunction,
    ReduceFunction,
    overrides,
)
from pystream.core.output_tag import OutputTag
from pystream.core.window import CountSlidingWindowAssigner, CountTumblingWindowAssigner
from pystream.datastream import keyed_functions as kf

# PyFlink's data_stream module also offers the streams other operations make (defined in
# pystream.datastream.connected and windowing, which do not import this module: they make
# their output streams with the input stream's ``_stream`` or ``_keyed``)
from pystream.datastream.connected import (
    BroadcastConnectedStream,
    BroadcastStream,
    ConnectedStreams,
)
from pystream.datastream.windowing import AllWindowedStream, WindowedStream

if TYPE_CHECKING:  # pragma: no cover
    from pystream.datastream.stream_execution_environment import StreamExecutionEnvironment

__all__ = ["DataStream", "KeyedStream", "CachedDataStream", "DataStreamSink",
           "CloseableIterator", "WindowedStream", "AllWindowedStream", "ConnectedStreams",
           "BroadcastStream", "BroadcastConnectedStream"]

PICKLED = Types.PICKLED_BYTE_ARRAY()


def _check_function(func, base: type, what: str) -> None:
    if not isinstance(func, base) and not callable(func):
        raise TypeError("The input must be a %s or a callable function, got %r" % (what, func))


def _uses_keyed_state(func) -> bool:
    """Whether a function on a KeyedStream may use keyed state (it has its own ``open``)."""
    return isinstance(func, Function) and overrides(func, Function, "open")


class DataStream:
    """A stream of records; transformations return new streams (nothing runs until
    ``env.execute()`` or ``execute_and_collect()``).

    >>> ds = env.from_collection([1, 2, 3], type_info=Types.INT())        # doctest: +SKIP
    >>> ds.map(lambda x: x * 10, Types.INT()).filter(lambda x: x > 10).print()
    """

    def __init__(self, env: "StreamExecutionEnvironment", node: graph.Node):
        self._env = env
        self._node = node

    # -- operator configuration (replaces this stream's node by a reconfigured copy)

    def _configure(self, **changes) -> "DataStream":
        self._node = self._node.with_meta(**changes)
        return self

    def get_name(self) -> str:
        return self._node.meta.name

    def name(self, name: str) -> "DataStream":
        """Name the operator (shown in errors, plans and the shell)."""
        return self._configure(name=name)

    def uid(self, uid: str) -> "DataStream":
        return self._configure(uid=uid)

    def set_uid_hash(self, uid_hash: str) -> "DataStream":
        return self._configure(uid_hash=uid_hash)

    def set_description(self, description: str) -> "DataStream":
        return self._configure(description=description)

    def set_parallelism(self, parallelism: int) -> "DataStream":
        """Run the operator in ``parallelism`` Spark tasks (partitions)."""
        if parallelism < 1:
            raise ValueError("The parallelism of an operator must be at least 1.")
        max_p = self._node.meta.max_parallelism
        if max_p and parallelism > max_p:
            raise ValueError("The parallelism %d exceeds the max parallelism %d"
                             % (parallelism, max_p))
        return self._configure(parallelism=parallelism)

    def set_max_parallelism(self, max_parallelism: int) -> "DataStream":
        if max_parallelism < 1 or max_parallelism > 32768:
            raise ValueError("The max parallelism must be between 1 and 32768.")
        return self._configure(max_parallelism=max_parallelism)

    def force_non_parallel(self) -> "DataStream":
        return self._configure(parallelism=1, max_parallelism=1)

    def start_new_chain(self) -> "DataStream":
        """Start a new fused Python stage at this operator."""
        return self._configure(chaining="new_chain")

    def disable_chaining(self) -> "DataStream":
        """Run this operator in a Python stage of its own."""
        return self._configure(chaining="disabled")

    def slot_sharing_group(self, slot_sharing_group) -> "DataStream":
        """Recorded in the plan; Spark schedules tasks on executors without slot groups."""
        name = getattr(slot_sharing_group, "get_name", lambda: slot_sharing_group)()
        return self._configure(slot_sharing_group=str(name))

    def set_buffer_timeout(self, timeout_millis: int) -> "DataStream":
        """Recorded on the operator (Spark has no network buffers; latency follows the trigger
        interval). ``-1`` flushes only full buffers, ``0`` after every record."""
        if timeout_millis < -1:
            raise ValueError("Timeout of buffer must be non-negative or -1")
        return self._configure(buffer_timeout=timeout_millis)

    def get_type(self) -> TypeInformation:
        """The type of the stream's records (a ROW's fields named, as Flink names them)."""
        t = self._node.output_type
        if isinstance(t, RowTypeInfo) and t._field_names is None:
            return RowTypeInfo(t.get_field_types(), t.get_field_names())
        return t

    def get_execution_environment(self) -> "StreamExecutionEnvironment":
        return self._env

    def get_execution_config(self):
        return self._env.get_config()

    # -- building

    def _then(self, node_cls, name: str, output_type: Optional[TypeInformation] = None,
              **fields) -> graph.Node:
        meta = graph.Meta(name=name, origin=graph.call_site())
        return node_cls(meta=meta, output_type=output_type if output_type is not None
                        else PICKLED, **fields)

    def _stream(self, node: graph.Node) -> "DataStream":
        """A DataStream of ``node`` in this stream's environment."""
        return DataStream(self._env, node)

    def _stateless(self, kind: str, fn, name: str,
                   output_type: Optional[TypeInformation]) -> "DataStream":
        node = self._then(graph.Stateless, name, output_type, input=self._node, kind=kind, fn=fn)
        return DataStream(self._env, node)

    def map(self, func: Union[Callable, MapFunction],
            output_type: Optional[TypeInformation] = None) -> "DataStream":
        """One output per element: ``ds.map(lambda x: x + 1, Types.INT())``."""
        _check_function(func, MapFunction, "MapFunction")
        return self._stateless("map", func, "Map", output_type)

    def flat_map(self, func: Union[Callable, FlatMapFunction],
                 output_type: Optional[TypeInformation] = None) -> "DataStream":
        """Zero or more outputs per element (return an iterable or ``yield``)."""
        _check_function(func, FlatMapFunction, "FlatMapFunction")
        return self._stateless("flat_map", func, "FlatMap", output_type)

    def filter(self, func: Union[Callable, FilterFunction]) -> "DataStream":
        """Keep the elements for which ``func`` is true."""
        _check_function(func, FilterFunction, "FilterFunction")
        return self._stateless("filter", func, "Filter", self.get_type())

    def process(self, func: ProcessFunction,
                output_type: Optional[TypeInformation] = None) -> "DataStream":
        """Apply a ProcessFunction (element, timestamp, side outputs)."""
        if not isinstance(func, ProcessFunction):
            raise TypeError("ProcessFunction is required, got %r" % (func,))
        return self._stateless("process", func, "Process", output_type)

    def key_by(self, key_selector: Union[Callable, KeySelector],
               key_type: Optional[TypeInformation] = None) -> "KeyedStream":
        """Partition by key; keyed state and timers are then scoped to the key."""
        _check_function(key_selector, KeySelector, "KeySelector")
        node = self._then(graph.KeyBy, "KeyBy", self.get_type(), input=self._node,
                          key_selector=key_selector, key_type=key_type)
        return KeyedStream(self._env, node)

    def union(self, *streams: "DataStream") -> "DataStream":
        """The elements of this stream and ``streams`` (all of the same type)."""
        for s in streams:
            if s.get_type() != self.get_type():
                raise TypeError("Cannot union streams of different types: %s and %s"
                                % (self.get_type(), s.get_type()))
        nodes = tuple([self._values_node()] + [s._values_node() for s in streams])
        node = self._then(graph.Union, "Union", self.get_type(), streams=nodes)
        return DataStream(self._env, node)

    def _values_node(self) -> graph.Node:
        return self._node

    def _partition(self, strategy: str, **fields) -> "DataStream":
        node = self._then(graph.Partition, strategy.capitalize(), self.get_type(),
                          input=self._values_node(), strategy=strategy, **fields)
        return DataStream(self._env, node)

    def shuffle(self) -> "DataStream":
        """Redistribute elements randomly."""
        return self._partition("shuffle")

    def rebalance(self) -> "DataStream":
        """Redistribute elements round-robin."""
        return self._partition("rebalance")

    def rescale(self) -> "DataStream":
        """Redistribute elements round-robin (Spark has no local rescale)."""
        return self._partition("rescale")

    def forward(self) -> "DataStream":
        """Keep elements in their partition."""
        return self._partition("forward")

    def broadcast(self, broadcast_state_descriptor=None, *more_descriptors):
        """Send every element to every parallel instance of the next operator (or, with
        MapStateDescriptors, create a BroadcastStream for broadcast state)."""
        if broadcast_state_descriptor is not None:
            return BroadcastStream(self, (broadcast_state_descriptor,) + more_descriptors)
        return self._partition("broadcast")

    def global_(self) -> "DataStream":
        """Send all elements to one parallel instance."""
        return self._partition("global")

    def partition_custom(self, partitioner: Union[Callable, Partitioner],
                         key_selector: Union[Callable, KeySelector]) -> "DataStream":
        """Choose each element's partition with ``partitioner(key, num_partitions)``."""
        _check_function(partitioner, Partitioner, "Partitioner")
        _check_function(key_selector, KeySelector, "KeySelector")
        return self._partition("custom", partitioner=partitioner, key_selector=key_selector)

    def project(self, *field_indexes: int) -> "DataStream":
        """Keep the given fields of a tuple stream."""
        t = self.get_type()
        if not isinstance(t, TupleTypeInfo):
            raise Exception("Only Tuple DataStreams can be projected.")
        fields = list(field_indexes)
        out = Types.TUPLE([t.get_field_types()[i] for i in fields])
        return self.map(_Project(fields), out).name("Projection")

    def assign_timestamps_and_watermarks(self,
                                         watermark_strategy: WatermarkStrategy) -> "DataStream":
        """Give records event-time timestamps and define the watermark."""
        node = self._then(graph.AssignTimestamps, "Timestamps/Watermarks", self.get_type(),
                          input=self._values_node(), strategy=watermark_strategy)
        return DataStream(self._env, node)

    def get_side_output(self, output_tag: OutputTag) -> "DataStream":
        """The records the producing function sent to ``output_tag``."""
        node = self._then(graph.SideOutput, "SideOutput(%s)" % output_tag.tag_id,
                          output_tag.type_info, input=self._node, tag=output_tag)
        return DataStream(self._env, node)

    def connect(self, ds):
        """Connect with another stream (CoMap/CoFlatMap/CoProcess) or a BroadcastStream."""
        if isinstance(ds, BroadcastStream):
            return BroadcastConnectedStream(self, ds)
        return ConnectedStreams(self, ds)

    def window_all(self, window_assigner):
        """Window the whole (non-keyed) stream."""
        return AllWindowedStream(self, window_assigner)

    def cache(self) -> "CachedDataStream":
        """Keep this (bounded) stream's result after the first job that computes it, for the
        environment's later jobs (BATCH mode; in STREAMING mode it is computed again)."""
        node = self._then(graph.Cache, "Cache", self.get_type(), input=self._values_node(),
                          slot=graph.CacheSlot())
        return CachedDataStream(self._env, node)

    # -- sinks

    def _sink(self, sink, name: str) -> "DataStreamSink":
        node = self._then(graph.Sink, name, self.get_type(), input=self._values_node(),
                          sink=sink)
        return DataStreamSink(self._env, self._env._add_sink(node))

    def print(self, sink_identifier: Optional[str] = None) -> "DataStreamSink":
        """Print every element to stdout when the job runs (``id> value`` with an identifier)."""
        return self._sink(PrintSink(sink_identifier), "Print to Std. Out")

    def sink_to(self, sink) -> "DataStreamSink":
        """Write to a sink connector (FileSink, KafkaSink, ...)."""
        return self._sink(sink, getattr(sink, "name", type(sink).__name__))

    def add_sink(self, sink_func) -> "DataStreamSink":
        """Write to a legacy sink (FlinkKafkaProducer, JdbcSink, ...)."""
        return self._sink(sink_func, getattr(sink_func, "name", type(sink_func).__name__))

    def execute_and_collect(self, job_execution_name: Optional[str] = None,
                            limit: Optional[int] = None):
        """Run the job and bring this stream's elements back: an iterator (use it in a
        ``with`` block) or, with ``limit``, a list of at most ``limit`` elements."""
        sink = CollectSink(limit)
        node = self._then(graph.Sink, "Collect", self.get_type(), input=self._values_node(),
                          sink=sink)
        iterator = CloseableIterator(self._env, node, sink, job_execution_name, limit)
        if limit is not None:
            with iterator:
                return list(iterator)
        return iterator


class _Project:
    def __init__(self, fields: List[int]):
        self.fields = fields

    def __call__(self, value):
        return tuple(value[i] for i in self.fields)


class KeyedStream(DataStream):
    """A stream partitioned by key: keyed state, timers, rolling aggregations, windows."""

    class AccumulateType(Enum):
        """The rolling aggregations (``sum``, ``min``, ``max``, ``min_by``, ``max_by``)."""

        MIN = 1
        MAX = 2
        MIN_BY = 3
        MAX_BY = 4
        SUM = 5

    @property
    def _key_by(self) -> graph.KeyBy:
        return self._node

    def _values_node(self) -> graph.Node:
        return self._node.input

    def _configure(self, **changes):
        self._node = self._node.with_meta(**changes)
        return self

    def cache(self):
        raise Exception("Cache for KeyedStream is not supported.")

    def _keyed(self, function, name: str, output_type: Optional[TypeInformation],
               time_domain: Optional[str] = None) -> DataStream:
        node = self._then(graph.Keyed, name, output_type, input=self._node, function=function,
                          time_domain=time_domain)
        return DataStream(self._env, node)

    def _after_key_by(self, kind: str, fn, name: str,
                      output_type: Optional[TypeInformation]) -> DataStream:
        node = self._then(graph.Stateless, name, output_type, input=self._node, kind=kind, fn=fn)
        return DataStream(self._env, node)

    def map(self, func, output_type: Optional[TypeInformation] = None) -> DataStream:
        _check_function(func, MapFunction, "MapFunction")
        if _uses_keyed_state(func):
            return self._keyed(kf.KeyedMap(func), "Map", output_type)
        return self._after_key_by("map", func, "Map", output_type)

    def flat_map(self, func, output_type: Optional[TypeInformation] = None) -> DataStream:
        _check_function(func, FlatMapFunction, "FlatMapFunction")
        if _uses_keyed_state(func):
            return self._keyed(kf.KeyedFlatMap(func), "FlatMap", output_type)
        return self._after_key_by("flat_map", func, "FlatMap", output_type)

    def filter(self, func) -> DataStream:
        _check_function(func, FilterFunction, "FilterFunction")
        if _uses_keyed_state(func):
            return self._keyed(kf.KeyedFilter(func), "Filter", self.get_type())
        return self._after_key_by("filter", func, "Filter", self.get_type())

    def process(self, func: KeyedProcessFunction,
                output_type: Optional[TypeInformation] = None) -> DataStream:
        """Apply a KeyedProcessFunction (keyed state, timers, side outputs)."""
        if not isinstance(func, KeyedProcessFunction):
            raise TypeError("KeyedProcessFunction is required for KeyedStream.")
        return self._keyed(func, "KeyedProcess", output_type)

    def reduce(self, func: Union[Callable, ReduceFunction]) -> DataStream:
        """Rolling reduce per key: every update in STREAMING mode, the final value in BATCH."""
        _check_function(func, ReduceFunction, "ReduceFunction")
        return self._keyed(kf.RollingReduce(func, self.get_type()), "Reduce", self.get_type())

    def _accumulate(self, position, kind: str) -> DataStream:
        return self.reduce(kf.Accumulate(position, kind)).name(
            {"sum": "Sum", "min": "Min", "max": "Max", "min_by": "MinBy",
             "max_by": "MaxBy"}[kind])

    def sum(self, position_to_sum: Union[int, str] = 0) -> DataStream:
        """Rolling sum of the field at ``position_to_sum`` (index or name)."""
        return self._accumulate(position_to_sum, "sum")

    def min(self, position_to_min: Union[int, str] = 0) -> DataStream:
        """Rolling minimum of a field (other fields from the first element)."""
        return self._accumulate(position_to_min, "min")

    def max(self, position_to_max: Union[int, str] = 0) -> DataStream:
        """Rolling maximum of a field (other fields from the first element)."""
        return self._accumulate(position_to_max, "max")

    def min_by(self, position_to_min_by: Union[int, str] = 0) -> DataStream:
        """The element with the smallest value of a field, so far."""
        return self._accumulate(position_to_min_by, "min_by")

    def max_by(self, position_to_max_by: Union[int, str] = 0) -> DataStream:
        """The element with the largest value of a field, so far."""
        return self._accumulate(position_to_max_by, "max_by")

    def key_by(self, key_selector, key_type: Optional[TypeInformation] = None) -> "KeyedStream":
        return DataStream(self._env, self._values_node()).key_by(key_selector, key_type)

    def window(self, window_assigner):
        """Group elements per key into windows."""
        return WindowedStream(self, window_assigner)

    def count_window(self, size: int, slide: int = 0):
        """Windows of ``size`` elements per key (sliding by ``slide`` when given)."""
        assigner = (CountTumblingWindowAssigner.of(size) if slide == 0
                    else CountSlidingWindowAssigner.of(size, slide))
        return self.window(assigner)

    def union(self, *streams) -> DataStream:
        return DataStream(self._env, self._values_node()).union(*streams)

    def connect(self, ds):
        if isinstance(ds, BroadcastStream):
            return BroadcastConnectedStream(self, ds)
        return ConnectedStreams(self, ds)


class CachedDataStream(DataStream):
    """A DataStream whose result is kept after the first job that computes it, so later jobs
    of the same environment read it instead of computing it again."""

    def invalidate(self) -> None:
        """Drop the kept result; a later job that reads the stream computes it again."""
        self._node.slot.clear()

    def _not_for_cached(self, what: str):
        raise Exception("%s for CachedDataStream is not supported." % what)

    def set_parallelism(self, parallelism: int):
        self._not_for_cached("Set parallelism")

    def name(self, name: str):
        self._not_for_cached("Set name")

    def get_name(self) -> str:
        raise Exception("Get name of CachedDataStream is not supported.")

    def uid(self, uid: str):
        self._not_for_cached("Set uid")

    def set_uid_hash(self, uid_hash: str):
        self._not_for_cached("Set uid hash")

    def set_max_parallelism(self, max_parallelism: int):
        self._not_for_cached("Set max parallelism")

    def force_non_parallel(self):
        self._not_for_cached("Set force non-parallel")


class DataStreamSink:
    """A sink of the job; configure it with name/uid/set_parallelism."""

    def __init__(self, env, index: int):
        self._env = env
        self._index = index

    def _configure(self, **changes) -> "DataStreamSink":
        sinks = self._env._sinks
        sinks[self._index] = sinks[self._index].with_meta(**changes)
        return self

    def name(self, name: str) -> "DataStreamSink":
        return self._configure(name=name)

    def uid(self, uid: str) -> "DataStreamSink":
        return self._configure(uid=uid)

    def set_uid_hash(self, uid_hash: str) -> "DataStreamSink":
        return self._configure(uid_hash=uid_hash)

    def set_description(self, description: str) -> "DataStreamSink":
        return self._configure(description=description)

    def set_parallelism(self, parallelism: int) -> "DataStreamSink":
        if parallelism < 1:
            raise ValueError("The parallelism of an operator must be at least 1.")
        return self._configure(parallelism=parallelism)

    def disable_chaining(self) -> "DataStreamSink":
        return self._configure(chaining="disabled")

    def slot_sharing_group(self, slot_sharing_group) -> "DataStreamSink":
        name = getattr(slot_sharing_group, "get_name", lambda: slot_sharing_group)()
        return self._configure(slot_sharing_group=str(name))


_DONE = object()


class CloseableIterator(Iterator):
    """The elements of ``execute_and_collect``: iterate, and ``close()`` (or leave the ``with``
    block) to cancel the job if it still runs."""

    def __init__(self, env, node: graph.Sink, sink: CollectSink, job_name: Optional[str],
                 limit: Optional[int]):
        self._env = env
        self._node = node
        self._sink = sink
        self._job_name = job_name
        self._limit = limit
        self._queue: "queue.Queue[Any]" = queue.Queue()
        self._job = None
        self._closed = False
        self._values = self._generate()
        sink.consumer = self._queue.put

    def _start(self) -> None:
        job = self._env._start_job(self._job_name, extra_sinks=[self._node])
        self._job = job

        def watch():
            try:
                job.future.result()
            except BaseException as e:  # noqa: BLE001 - handed to the reader
                self._queue.put(e)
            self._queue.put(_DONE)
        threading.Thread(target=watch, daemon=True, name="pystream-collect").start()

    def __iter__(self):
        return self._values  # a generator: a for loop pays no Python call per element

    def __next__(self):
        if self._closed:
            raise StopIteration
        return next(self._values)

    def _generate(self) -> Iterator[Any]:
        """The elements as the job delivers them (a list per Spark batch), up to the limit."""
        if self._job is None:
            self._start()
        left = self._limit
        while not self._closed:
            item = self._get()
            if item is _DONE or isinstance(item, BaseException):
                self._closed = True
                if item is _DONE:
                    return
                raise item
            if left is None:
                yield from item
                continue
            yield from item[:left]
            left -= min(left, len(item))
            if not left:
                self.close()
                return

    def _get(self):
        while True:
            try:
                return self._queue.get(timeout=0.2)
            except queue.Empty:
                continue
            except KeyboardInterrupt:
                self.close()
                raise

    def next(self):
        return self.__next__()

    def close(self) -> None:
        """Stop reading: the job is cancelled, and gone when this returns."""
        if self._job is not None and not self._job.future.done():
            self._job.cancel()
            concurrent.futures.wait([self._job.future], timeout=60)
        self._closed = True

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.close()
