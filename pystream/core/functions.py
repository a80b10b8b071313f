"""User-defined functions, with PyFlink's names and signatures.

A function can be an instance of one of these classes or, where PyFlink allows it, a plain
Python function or lambda. ``open(runtime_context)`` and ``close()`` run once per parallel
instance (one Spark task).
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from enum import Enum
from typing import TYPE_CHECKING, Any, Generic, Iterable, List, Optional, TypeVar

from pystream.core.async_retry_strategies import AsyncRetryPredicate, AsyncRetryStrategy
from pystream.errors import UnsupportedFeatureError
from pystream.metrics import MetricGroup

if TYPE_CHECKING:
    from pystream.metrics import MetricGroup
    from pystream.runtime.context import DistributedCache

__all__ = [
    "Function", "RuntimeContext", "KeyedStateStore", "MapFunction", "CoMapFunction",
    "FlatMapFunction", "CoFlatMapFunction", "ReduceFunction", "AggregateFunction", "KeySelector",
    "NullByteKeySelector", "FilterFunction", "Partitioner", "ProcessFunction",
    "KeyedProcessFunction", "CoProcessFunction", "KeyedCoProcessFunction",
    "BaseBroadcastProcessFunction", "BroadcastProcessFunction", "KeyedBroadcastProcessFunction",
    "WindowFunction",
    "AllWindowFunction", "ProcessWindowFunction", "ProcessAllWindowFunction", "TimerService",
    "TimeDomain", "SourceFunction", "SinkFunction", "AsyncFunction", "AsyncFunctionDescriptor",
    "AsyncRetryPredicate",
    "AsyncRetryStrategy",
]

IN = TypeVar("IN")
OUT = TypeVar("OUT")
KEY = TypeVar("KEY")
W = TypeVar("W")


class TimeDomain(Enum):
    """Whether a timer fires on event time or processing time."""

    EVENT_TIME = 0
    PROCESSING_TIME = 1


class TimerService(ABC):
    """Query time and register timers (timers only on keyed streams)."""

    @abstractmethod
    def current_processing_time(self) -> int:
        """The current processing time, in milliseconds."""

    @abstractmethod
    def current_watermark(self) -> int:
        """The current event-time watermark, in milliseconds."""

    @abstractmethod
    def register_processing_time_timer(self, timestamp: int) -> None:
        """Call ``on_timer`` when processing time reaches ``timestamp``."""

    @abstractmethod
    def register_event_time_timer(self, timestamp: int) -> None:
        """Call ``on_timer`` when the watermark reaches ``timestamp``."""

    @abstractmethod
    def delete_processing_time_timer(self, timestamp: int) -> None:
        """Delete a processing-time timer."""

    @abstractmethod
    def delete_event_time_timer(self, timestamp: int) -> None:
        """Delete an event-time timer."""


class KeyedStateStore(ABC):
    """Access to keyed state (only in functions applied on a KeyedStream)."""

    @abstractmethod
    def get_state(self, state_descriptor) -> Any:
        """A ValueState for a ValueStateDescriptor."""

    @abstractmethod
    def get_list_state(self, state_descriptor) -> Any:
        """A ListState for a ListStateDescriptor."""

    @abstractmethod
    def get_map_state(self, state_descriptor) -> Any:
        """A MapState for a MapStateDescriptor."""

    @abstractmethod
    def get_reducing_state(self, state_descriptor) -> Any:
        """A ReducingState for a ReducingStateDescriptor."""

    @abstractmethod
    def get_aggregating_state(self, state_descriptor) -> Any:
        """An AggregatingState for an AggregatingStateDescriptor."""


class RuntimeContext(KeyedStateStore):
    """What a function knows about where it runs: task name, subtask index, parallelism,
    job parameters, and (on keyed streams) its keyed state."""

    @abstractmethod
    def get_task_name(self) -> str:
        """The name of the task (operator chain) the function runs in."""

    @abstractmethod
    def get_number_of_parallel_subtasks(self) -> int:
        """The parallelism of the task."""

    @abstractmethod
    def get_max_number_of_parallel_subtasks(self) -> int:
        """The max parallelism of the task."""

    @abstractmethod
    def get_index_of_this_subtask(self) -> int:
        """The index of this parallel instance, from 0 to parallelism - 1."""

    @abstractmethod
    def get_attempt_number(self) -> int:
        """The attempt number of this subtask, 0 for the first attempt."""

    @abstractmethod
    def get_task_name_with_subtasks(self) -> str:
        """Like ``"Map (2/4)"``."""

    @abstractmethod
    def get_job_parameter(self, key: str, default_value: Optional[str]) -> Optional[str]:
        """A global job parameter (``ExecutionConfig.set_global_job_parameters``)."""

    @abstractmethod
    def get_distributed_cache(self) -> "DistributedCache":
        """The files registered with ``env.register_cached_file``, by name (the runtime's
        context gives them: this API module does not import the runtime).

        >>> class Lookup(MapFunction):
        ...     def open(self, runtime_context):
        ...         path = runtime_context.get_distributed_cache().get_file("words")
        ...         self.words = set(open(path).read().split())
        """

    def get_metrics_group(self) -> "MetricGroup":
        """This instance's metrics (see ``pystream.metrics``)."""
        if getattr(self, "_metric_group", None) is None:
            self._metric_group = MetricGroup()
        return self._metric_group


class Function(ABC):
    """The base of all user-defined functions."""

    def open(self, runtime_context: RuntimeContext) -> None:
        """Called once per parallel instance before the first record."""

    def close(self) -> None:
        """Called once per parallel instance after the last record."""


class MapFunction(Function):
    """Turns each element into exactly one element.

    >>> class Double(MapFunction):
    ...     def map(self, value):
    ...         return value * 2
    """

    @abstractmethod
    def map(self, value):
        """The element ``value`` maps to."""


class CoMapFunction(Function):
    """A map over two connected streams: ``map1`` for the first, ``map2`` for the second."""

    @abstractmethod
    def map1(self, value):
        """Map an element of the first stream."""

    @abstractmethod
    def map2(self, value):
        """Map an element of the second stream."""


class FlatMapFunction(Function):
    """Turns each element into zero, one or more elements (return an iterable or ``yield``).

    >>> class Split(FlatMapFunction):
    ...     def flat_map(self, value):
    ...         yield from value.split()
    """

    @abstractmethod
    def flat_map(self, value) -> Iterable:
        """The elements ``value`` turns into."""


class CoFlatMapFunction(Function):
    """A flat map over two connected streams."""

    @abstractmethod
    def flat_map1(self, value) -> Iterable:
        """Elements for an element of the first stream."""

    @abstractmethod
    def flat_map2(self, value) -> Iterable:
        """Elements for an element of the second stream."""


class ReduceFunction(Function):
    """Combines two values of the same type into one (keyed rolling reduce, windows)."""

    @abstractmethod
    def reduce(self, value1, value2):
        """The combination of ``value1`` (the accumulated value) and ``value2``."""


class AggregateFunction(Function):
    """Incremental aggregation with an accumulator: create, add, merge, get_result."""

    @abstractmethod
    def create_accumulator(self):
        """A new, empty accumulator."""

    @abstractmethod
    def add(self, value, accumulator):
        """The accumulator after adding ``value``."""

    @abstractmethod
    def get_result(self, accumulator):
        """The result for an accumulator."""

    def merge(self, acc_a, acc_b):
        """Two accumulators merged into one (needed for session windows)."""
        raise NotImplementedError("%s.merge" % type(self).__name__)


class KeySelector(Function):
    """Extracts the key of an element (``key_by``)."""

    @abstractmethod
    def get_key(self, value):
        """The key of ``value``."""


class NullByteKeySelector(KeySelector):
    """Puts every element under the same key (used for non-keyed windows)."""

    def get_key(self, value):
        return 0


class FilterFunction(Function):
    """Keeps the elements for which ``filter`` returns True."""

    @abstractmethod
    def filter(self, value) -> bool:
        """Whether to keep ``value``."""


class Partitioner(Function):
    """Chooses the partition of a key (``partition_custom``)."""

    @abstractmethod
    def partition(self, key: Any, num_partitions: int) -> int:
        """The partition, between 0 and ``num_partitions - 1``, for ``key``."""


class ProcessFunction(Function):
    """Processes each element, with access to its timestamp and the time (and a side output).

    Emit results with ``yield value``, side outputs with ``yield output_tag, value``.
    """

    class Context(ABC):
        @abstractmethod
        def timer_service(self) -> TimerService:
            """Query time (timers need a KeyedStream)."""

        @abstractmethod
        def timestamp(self) -> Optional[int]:
            """The timestamp of the current element (Long.MIN_VALUE when it has none)."""

    @abstractmethod
    def process_element(self, value, ctx: "ProcessFunction.Context"):
        """Process one element; ``yield`` the results."""


class KeyedProcessFunction(Function):
    """Processes each element of a KeyedStream with keyed state and timers."""

    class Context(ABC):
        @abstractmethod
        def get_current_key(self):
            """The key of the current element."""

        @abstractmethod
        def timer_service(self) -> TimerService:
            """Query time and register timers."""

        @abstractmethod
        def timestamp(self) -> Optional[int]:
            """The timestamp of the current element or firing timer."""

    class OnTimerContext(Context):
        @abstractmethod
        def time_domain(self) -> TimeDomain:
            """Whether the firing timer is an event-time or a processing-time timer."""

    @abstractmethod
    def process_element(self, value, ctx: "KeyedProcessFunction.Context"):
        """Process one element; ``yield`` the results."""

    def on_timer(self, timestamp: int, ctx: "KeyedProcessFunction.OnTimerContext"):
        """Called when a timer fires; ``yield`` the results."""


class CoProcessFunction(Function):
    """Processes the elements of two connected streams."""

    class Context(ABC):
        @abstractmethod
        def timer_service(self) -> TimerService:
            """Query time."""

        @abstractmethod
        def timestamp(self) -> Optional[int]:
            """The timestamp of the current element."""

    @abstractmethod
    def process_element1(self, value, ctx: "CoProcessFunction.Context"):
        """Process an element of the first stream."""

    @abstractmethod
    def process_element2(self, value, ctx: "CoProcessFunction.Context"):
        """Process an element of the second stream."""


class KeyedCoProcessFunction(Function):
    """Processes the elements of two connected keyed streams, with keyed state and timers."""

    class Context(ABC):
        @abstractmethod
        def get_current_key(self):
            """The key of the current element."""

        @abstractmethod
        def timer_service(self) -> TimerService:
            """Query time and register timers."""

        @abstractmethod
        def timestamp(self) -> Optional[int]:
            """The timestamp of the current element or firing timer."""

    class OnTimerContext(Context):
        @abstractmethod
        def time_domain(self) -> TimeDomain:
            """The time domain of the firing timer."""

    @abstractmethod
    def process_element1(self, value, ctx: "KeyedCoProcessFunction.Context"):
        """Process an element of the first stream."""

    @abstractmethod
    def process_element2(self, value, ctx: "KeyedCoProcessFunction.Context"):
        """Process an element of the second stream."""

    def on_timer(self, timestamp: int, ctx: "KeyedCoProcessFunction.OnTimerContext"):
        """Called when a timer fires."""


class BaseBroadcastProcessFunction(Function):
    """Common base of the broadcast process functions."""

    class BaseContext(ABC):
        @abstractmethod
        def timestamp(self) -> Optional[int]:
            """The timestamp of the current element."""

        @abstractmethod
        def current_processing_time(self) -> int:
            """The current processing time."""

        @abstractmethod
        def current_watermark(self) -> int:
            """The current watermark."""

    class Context(BaseContext):
        @abstractmethod
        def get_broadcast_state(self, state_descriptor):
            """The writable broadcast state (in ``process_broadcast_element``)."""

    class ReadOnlyContext(BaseContext):
        @abstractmethod
        def get_broadcast_state(self, state_descriptor):
            """The read-only broadcast state (in ``process_element``)."""


class BroadcastProcessFunction(BaseBroadcastProcessFunction):
    """Processes a non-keyed stream connected with a broadcast stream."""

    @abstractmethod
    def process_element(self, value, ctx: "BaseBroadcastProcessFunction.ReadOnlyContext"):
        """Process an element of the non-broadcast stream."""

    @abstractmethod
    def process_broadcast_element(self, value, ctx: "BaseBroadcastProcessFunction.Context"):
        """Process an element of the broadcast stream."""


class KeyedBroadcastProcessFunction(BaseBroadcastProcessFunction):
    """Processes a keyed stream connected with a broadcast stream, with keyed state and timers."""

    class ReadOnlyContext(BaseBroadcastProcessFunction.ReadOnlyContext):
        @abstractmethod
        def timer_service(self) -> TimerService:
            """Query time and register timers."""

        @abstractmethod
        def get_current_key(self):
            """The key of the current element."""

    class OnTimerContext(ReadOnlyContext):
        @abstractmethod
        def time_domain(self) -> TimeDomain:
            """The time domain of the firing timer."""

    @abstractmethod
    def process_element(self, value, ctx: "KeyedBroadcastProcessFunction.ReadOnlyContext"):
        """Process an element of the keyed stream."""

    @abstractmethod
    def process_broadcast_element(self, value, ctx: "BaseBroadcastProcessFunction.Context"):
        """Process an element of the broadcast stream."""

    def on_timer(self, timestamp: int, ctx: "KeyedBroadcastProcessFunction.OnTimerContext"):
        """Called when a timer fires."""


class WindowFunction(Function, Generic[IN, OUT, KEY, W]):
    """Computes the results of a keyed window from all its elements."""

    @abstractmethod
    def apply(self, key: KEY, window: W, inputs: Iterable[IN]) -> Iterable[OUT]:
        """The results for ``window`` of ``key``."""


class AllWindowFunction(Function, Generic[IN, OUT, W]):
    """Computes the results of a non-keyed window from all its elements."""

    @abstractmethod
    def apply(self, window: W, inputs: Iterable[IN]) -> Iterable[OUT]:
        """The results for ``window``."""


class ProcessWindowFunction(Function, Generic[IN, OUT, KEY, W]):
    """Computes the results of a keyed window, with a context (window, time, state)."""

    class Context(ABC, Generic[W]):
        @abstractmethod
        def window(self) -> W:
            """The window being evaluated."""

        @abstractmethod
        def current_processing_time(self) -> int:
            """The current processing time."""

        @abstractmethod
        def current_watermark(self) -> int:
            """The current watermark."""

        @abstractmethod
        def window_state(self) -> KeyedStateStore:
            """State scoped to the key and the window."""

        @abstractmethod
        def global_state(self) -> KeyedStateStore:
            """State scoped to the key, across windows."""

    @abstractmethod
    def process(self, key: KEY, context: "ProcessWindowFunction.Context",
                elements: Iterable[IN]) -> Iterable[OUT]:
        """The results for the window of ``key`` in ``context``."""

    def clear(self, context: "ProcessWindowFunction.Context") -> None:
        """Called when the window is purged."""


class ProcessAllWindowFunction(Function, Generic[IN, OUT, W]):
    """Computes the results of a non-keyed window, with a context."""

    class Context(ABC, Generic[W]):
        @abstractmethod
        def window(self) -> W:
            """The window being evaluated."""

        @abstractmethod
        def window_state(self) -> KeyedStateStore:
            """State scoped to the window."""

        @abstractmethod
        def global_state(self) -> KeyedStateStore:
            """State across windows."""

    @abstractmethod
    def process(self, context: "ProcessAllWindowFunction.Context",
                elements: Iterable[IN]) -> Iterable[OUT]:
        """The results for the window in ``context``."""

    def clear(self, context: "ProcessAllWindowFunction.Context") -> None:
        """Called when the window is purged."""


class AsyncFunction(Function, Generic[IN, OUT]):
    """A function that starts asynchronous I/O for each element (``AsyncDataStream``).

    Many calls of ``async_invoke`` are in flight at once (up to the operator's capacity), so a
    slow service does not hold up the stream.
    """

    @abstractmethod
    async def async_invoke(self, value: IN) -> List[OUT]:
        """The results for ``value`` (a list). Raise to fail the job."""

    def timeout(self, value: IN) -> List[OUT]:
        """The results when ``async_invoke`` did not finish in time; by default it raises."""
        raise TimeoutError("Async function call has timed out for input: " + str(value))


class AsyncFunctionDescriptor:
    """What an async wait operator runs: the function and how its calls are made."""

    class OutputMode(Enum):
        ORDERED = 0
        UNORDERED = 1

    def __init__(self, async_function: AsyncFunction, timeout, capacity: int,
                 async_retry_strategy: "AsyncRetryStrategy", output_mode: "OutputMode"):
        self.async_function = async_function
        self.timeout = timeout
        self.capacity = capacity
        self.async_retry_strategy = async_retry_strategy
        self.output_mode = output_mode


class SourceFunction:
    """A Java SourceFunction (not available on Spark)."""

    def __init__(self, source_func: Any):
        raise UnsupportedFeatureError("SourceFunction wraps a Java source function; pystream "
                                      "runs on Spark: use from_source with a pystream connector")


class SinkFunction:
    """A Java SinkFunction (not available on Spark)."""

    def __init__(self, sink_func: Any):
        raise UnsupportedFeatureError("SinkFunction wraps a Java sink function; pystream runs "
                                      "on Spark: use sink_to/add_sink with a pystream connector")


def overrides(obj: Any, base: type, method: str) -> bool:
    """Whether ``obj``'s class overrides ``base.method`` (e.g. a MapFunction with ``open``)."""
    impl = getattr(type(obj), method, None)
    return impl is not None and impl is not getattr(base, method, None)
