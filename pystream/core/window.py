"""Windows, window assigners and triggers, with PyFlink's names and semantics.

Windows run the way Flink runs them: a window operator keeps each window's contents in keyed
state and fires it from timers (see ``pystream.runtime.windows``).

>>> ds.key_by(lambda r: r[0]) \\
...     .window(TumblingEventTimeWindows.of(Time.seconds(5))) \\
...     .reduce(lambda a, b: (a[0], a[1] + b[1]))                          # doctest: +SKIP
"""
from __future__ import annotations

import struct
from abc import ABC, abstractmethod
from enum import Enum
from io import BytesIO
from typing import TYPE_CHECKING, Any, Callable, Collection, Generic, Iterable, TypeVar, Union

from pystream.common.serializer import TypeSerializer
from pystream.common.time import Duration, Time, to_millis
from pystream.common.typeinfo import Types
from pystream.core.functions import ReduceFunction
from pystream.core.state import ReducingStateDescriptor, ValueStateDescriptor
from pystream.metrics import MetricGroup

if TYPE_CHECKING:
    from pystream.metrics import MetricGroup

__all__ = [
    "Window", "TimeWindow", "CountWindow", "GlobalWindow", "TriggerResult", "Trigger",
    "WindowAssigner", "MergingWindowAssigner", "SessionWindowTimeGapExtractor",
    "EventTimeTrigger", "ContinuousEventTimeTrigger", "ProcessingTimeTrigger",
    "ContinuousProcessingTimeTrigger", "PurgingTrigger", "CountTrigger", "NeverTrigger",
    "CountTumblingWindowAssigner", "CountSlidingWindowAssigner", "TumblingProcessingTimeWindows",
    "TumblingEventTimeWindows", "SlidingProcessingTimeWindows", "SlidingEventTimeWindows",
    "ProcessingTimeSessionWindows", "EventTimeSessionWindows",
    "DynamicProcessingTimeSessionWindows", "DynamicEventTimeSessionWindows", "GlobalWindows",
    "TimeWindowSerializer", "CountWindowSerializer", "GlobalWindowSerializer",
]

T = TypeVar("T")
W = TypeVar("W")
MAX_LONG_VALUE = 2 ** 63 - 1
MIN_LONG_VALUE = -(2 ** 63)
Interval = Union[Time, Duration, int]


# ---------------------------------------------------------------------------------------------
# Windows


class Window(ABC):
    """A group of elements; all of them have arrived once time passes ``max_timestamp()``."""

    @abstractmethod
    def max_timestamp(self) -> int:
        """The largest timestamp that still belongs to this window."""


class TimeWindow(Window):
    """The time interval ``[start, end)``."""

    __slots__ = ("start", "end")

    def __init__(self, start: int, end: int):
        self.start = start
        self.end = end

    def max_timestamp(self) -> int:
        return self.end - 1

    def intersects(self, other: "TimeWindow") -> bool:
        return self.start <= other.end and self.end >= other.start

    def cover(self, other: "TimeWindow") -> "TimeWindow":
        return TimeWindow(min(self.start, other.start), max(self.end, other.end))

    @staticmethod
    def get_window_start_with_offset(timestamp: int, offset: int, window_size: int) -> int:
        return timestamp - (timestamp - offset + window_size) % window_size

    @staticmethod
    def merge_windows(windows: Iterable["TimeWindow"], callback) -> None:
        """Merge overlapping windows; ``callback.merge(merged_set, result)`` for each group."""
        current, members, groups = None, [], []
        for candidate in sorted(windows):
            if current is not None and current.intersects(candidate):
                current = current.cover(candidate)
                members.append(candidate)
            else:
                if current is not None:
                    groups.append((current, members))
                current, members = candidate, [candidate]
        if current is not None:
            groups.append((current, members))
        for result, merged in groups:
            if len(merged) > 1:
                callback.merge(merged, result)

    def __eq__(self, other):
        return isinstance(other, TimeWindow) and (self.start, self.end) == (other.start, other.end)

    def __hash__(self):
        return hash((self.start, self.end))

    def __lt__(self, other: "TimeWindow"):
        return (self.start, self.end) < (other.start, other.end)

    def __le__(self, other: "TimeWindow"):
        return (self.start, self.end) <= (other.start, other.end)

    def __repr__(self):
        return "TimeWindow(start={}, end={})".format(self.start, self.end)


class CountWindow(Window):
    """A window of a count-based assigner, identified by a number."""

    __slots__ = ("id",)

    def __init__(self, id: int):
        self.id = id

    def max_timestamp(self) -> int:
        return MAX_LONG_VALUE

    def __eq__(self, other):
        return isinstance(other, CountWindow) and self.id == other.id

    def __hash__(self):
        return hash(("CountWindow", self.id))

    def __lt__(self, other):
        return self.id < other.id

    def __repr__(self):
        return "CountWindow(id={})".format(self.id)


class GlobalWindow(Window):
    """The one window of ``GlobalWindows``."""

    _instance = None

    @staticmethod
    def get() -> "GlobalWindow":
        if GlobalWindow._instance is None:
            GlobalWindow._instance = GlobalWindow()
        return GlobalWindow._instance

    def max_timestamp(self) -> int:
        return MAX_LONG_VALUE

    def __eq__(self, other):
        return isinstance(other, GlobalWindow)

    def __hash__(self):
        return hash("GlobalWindow")

    def __lt__(self, other):
        return False

    def __repr__(self):
        return "GlobalWindow"


class TimeWindowSerializer(TypeSerializer[TimeWindow]):
    """The serializer of TimeWindows (start and end, 8 bytes each, big-endian)."""

    def serialize(self, element: TimeWindow, stream: BytesIO) -> None:
        stream.write(struct.pack(">qq", element.start, element.end))

    def deserialize(self, stream: BytesIO) -> TimeWindow:
        return TimeWindow(*struct.unpack(">qq", stream.read(16)))


class CountWindowSerializer(TypeSerializer[CountWindow]):
    """The serializer of CountWindows (the id, 8 bytes, big-endian)."""

    def serialize(self, element: CountWindow, stream: BytesIO) -> None:
        stream.write(struct.pack(">q", element.id))

    def deserialize(self, stream: BytesIO) -> CountWindow:
        return CountWindow(struct.unpack(">q", stream.read(8))[0])


class GlobalWindowSerializer(TypeSerializer[GlobalWindow]):
    """The serializer of the GlobalWindow (one byte)."""

    def serialize(self, element: GlobalWindow, stream: BytesIO) -> None:
        stream.write(b"\x00")

    def deserialize(self, stream: BytesIO) -> GlobalWindow:
        stream.read(1)
        return GlobalWindow.get()


# ---------------------------------------------------------------------------------------------
# Triggers


class TriggerResult(Enum):
    """What a trigger decides: CONTINUE, FIRE, PURGE or FIRE_AND_PURGE."""

    CONTINUE = (False, False)
    FIRE_AND_PURGE = (True, True)
    FIRE = (True, False)
    PURGE = (False, True)

    def is_fire(self) -> bool:
        return self.value[0]

    def is_purge(self) -> bool:
        return self.value[1]


class Trigger(ABC, Generic[T, W]):
    """Decides when a window is evaluated (FIRE) and cleared (PURGE). Keep no state in the
    trigger object: use ``ctx.get_partitioned_state`` (scoped to the key and window)."""

    class TriggerContext(ABC):
        @abstractmethod
        def get_current_processing_time(self) -> int:
            """The current processing time."""

        @abstractmethod
        def get_current_watermark(self) -> int:
            """The current watermark."""

        @abstractmethod
        def register_processing_time_timer(self, time: int) -> None:
            """Call ``on_processing_time`` when processing time passes ``time``."""

        @abstractmethod
        def register_event_time_timer(self, time: int) -> None:
            """Call ``on_event_time`` when the watermark passes ``time``."""

        @abstractmethod
        def delete_processing_time_timer(self, time: int) -> None:
            """Delete a processing-time timer of this window."""

        @abstractmethod
        def delete_event_time_timer(self, time: int) -> None:
            """Delete an event-time timer of this window."""

        @abstractmethod
        def get_partitioned_state(self, state_descriptor):
            """State scoped to the key and the window."""

        def get_metric_group(self) -> "MetricGroup":
            """The trigger's metrics (see ``pystream.metrics``)."""
            if getattr(self, "_metric_group", None) is None:
                self._metric_group = MetricGroup()
            return self._metric_group

    class OnMergeContext(TriggerContext):
        @abstractmethod
        def merge_partitioned_state(self, state_descriptor) -> None:
            """Merge the merged windows' state of ``state_descriptor`` into the new window."""

    @abstractmethod
    def on_element(self, element: T, timestamp: int, window: W,
                   ctx: "Trigger.TriggerContext") -> TriggerResult:
        """Called for every element added to a window."""

    @abstractmethod
    def on_processing_time(self, time: int, window: W,
                           ctx: "Trigger.TriggerContext") -> TriggerResult:
        """Called when a processing-time timer of the window fires."""

    @abstractmethod
    def on_event_time(self, time: int, window: W, ctx: "Trigger.TriggerContext") -> TriggerResult:
        """Called when an event-time timer of the window fires."""

    def can_merge(self) -> bool:
        """Whether the trigger supports merging windows (session windows)."""
        return False

    def on_merge(self, window: W, ctx: "Trigger.OnMergeContext") -> None:
        """Called when windows merged into ``window``."""
        raise RuntimeError("This trigger does not support merging.")

    @abstractmethod
    def clear(self, window: W, ctx: "Trigger.TriggerContext") -> None:
        """Remove the trigger's timers and state of ``window``."""


class EventTimeTrigger(Trigger[Any, TimeWindow]):
    """Fires once the watermark passes the end of the window."""

    def on_element(self, element, timestamp, window, ctx):
        if window.max_timestamp() <= ctx.get_current_watermark():
            return TriggerResult.FIRE
        ctx.register_event_time_timer(window.max_timestamp())
        return TriggerResult.CONTINUE

    def on_processing_time(self, time, window, ctx):
        return TriggerResult.CONTINUE

    def on_event_time(self, time, window, ctx):
        return TriggerResult.FIRE if time == window.max_timestamp() else TriggerResult.CONTINUE

    def can_merge(self) -> bool:
        return True

    def on_merge(self, window, ctx):
        if window.max_timestamp() > ctx.get_current_watermark():
            ctx.register_event_time_timer(window.max_timestamp())

    def clear(self, window, ctx):
        ctx.delete_event_time_timer(window.max_timestamp())

    @staticmethod
    def create() -> "EventTimeTrigger":
        return EventTimeTrigger()


class ProcessingTimeTrigger(Trigger[Any, TimeWindow]):
    """Fires once processing time passes the end of the window."""

    def on_element(self, element, timestamp, window, ctx):
        ctx.register_processing_time_timer(window.max_timestamp())
        return TriggerResult.CONTINUE

    def on_processing_time(self, time, window, ctx):
        return TriggerResult.FIRE

    def on_event_time(self, time, window, ctx):
        return TriggerResult.CONTINUE

    def can_merge(self) -> bool:
        return True

    def on_merge(self, window, ctx):
        if window.max_timestamp() > ctx.get_current_processing_time():
            ctx.register_processing_time_timer(window.max_timestamp())

    def clear(self, window, ctx):
        ctx.delete_processing_time_timer(window.max_timestamp())

    @staticmethod
    def create() -> "ProcessingTimeTrigger":
        return ProcessingTimeTrigger()


class _Min(ReduceFunction):
    def reduce(self, value1, value2):
        return min(value1, value2)


class _ContinuousTrigger(Trigger[Any, TimeWindow]):
    """Fires every ``interval`` (event or processing time) and at the end of the window."""

    event_time = True

    def __init__(self, interval: int):
        self.interval = interval
        self.state_desc = ReducingStateDescriptor("fire-time", _Min(), Types.LONG())

    def _register(self, ctx, time: int) -> None:
        if self.event_time:
            ctx.register_event_time_timer(time)
        else:
            ctx.register_processing_time_timer(time)

    def _next(self, time: int, window, ctx) -> None:
        self.register_next_fire_timestamp(time, window, ctx,
                                          ctx.get_partitioned_state(self.state_desc))

    def register_next_fire_timestamp(self, time: int, window: TimeWindow,
                                     ctx: "Trigger.TriggerContext", fire_timestamp_state) -> None:
        """Register the next firing, ``interval`` after ``time`` (at most the window's end)."""
        next_fire = min(time + self.interval, window.max_timestamp())
        fire_timestamp_state.add(next_fire)
        self._register(ctx, next_fire)

    def on_element(self, element, timestamp, window, ctx):
        if self.event_time:
            if window.max_timestamp() <= ctx.get_current_watermark():
                return TriggerResult.FIRE
            ctx.register_event_time_timer(window.max_timestamp())
        else:
            timestamp = ctx.get_current_processing_time()
        if ctx.get_partitioned_state(self.state_desc).get() is None:
            self._next(timestamp - (timestamp % self.interval), window, ctx)
        return TriggerResult.CONTINUE

    def _on_time(self, time, window, ctx):
        if self.event_time and time == window.max_timestamp():
            return TriggerResult.FIRE
        state = ctx.get_partitioned_state(self.state_desc)
        if state.get() == time:
            state.clear()
            self._next(time, window, ctx)
            return TriggerResult.FIRE
        return TriggerResult.CONTINUE

    def on_event_time(self, time, window, ctx):
        return self._on_time(time, window, ctx) if self.event_time else TriggerResult.CONTINUE

    def on_processing_time(self, time, window, ctx):
        return TriggerResult.CONTINUE if self.event_time else self._on_time(time, window, ctx)

    def can_merge(self) -> bool:
        return True

    def on_merge(self, window, ctx):
        ctx.merge_partitioned_state(self.state_desc)
        next_fire = ctx.get_partitioned_state(self.state_desc).get()
        if next_fire is not None:
            self._register(ctx, next_fire)

    def clear(self, window, ctx):
        state = ctx.get_partitioned_state(self.state_desc)
        time = state.get()
        if time is not None:
            if self.event_time:
                ctx.delete_event_time_timer(time)
            else:
                ctx.delete_processing_time_timer(time)
            state.clear()


class ContinuousEventTimeTrigger(_ContinuousTrigger):
    """Fires every ``interval`` of event time, and when the watermark passes the window."""

    @staticmethod
    def of(interval: Interval) -> "ContinuousEventTimeTrigger":
        return ContinuousEventTimeTrigger(to_millis(interval))


class ContinuousProcessingTimeTrigger(_ContinuousTrigger):
    """Fires every ``interval`` of processing time."""

    event_time = False

    @staticmethod
    def of(interval: Interval) -> "ContinuousProcessingTimeTrigger":
        return ContinuousProcessingTimeTrigger(to_millis(interval))


class PurgingTrigger(Trigger[Any, Window]):
    """Makes another trigger purge the window whenever it fires."""

    def __init__(self, nested_trigger: Trigger):
        self.nested_trigger = nested_trigger

    @staticmethod
    def of(nested_trigger: Trigger) -> "PurgingTrigger":
        return PurgingTrigger(nested_trigger)

    @staticmethod
    def _purging(result: TriggerResult) -> TriggerResult:
        return TriggerResult.FIRE_AND_PURGE if result.is_fire() else result

    def on_element(self, element, timestamp, window, ctx):
        return self._purging(self.nested_trigger.on_element(element, timestamp, window, ctx))

    def on_event_time(self, time, window, ctx):
        return self._purging(self.nested_trigger.on_event_time(time, window, ctx))

    def on_processing_time(self, time, window, ctx):
        return self._purging(self.nested_trigger.on_processing_time(time, window, ctx))

    def clear(self, window, ctx):
        self.nested_trigger.clear(window, ctx)

    def can_merge(self) -> bool:
        return self.nested_trigger.can_merge()

    def on_merge(self, window, ctx):
        self.nested_trigger.on_merge(window, ctx)


class CountTrigger(Trigger[Any, Window]):
    """Fires once a window has ``window_size`` elements."""

    def __init__(self, window_size: int):
        self._window_size = window_size
        self._count_state_descriptor = ReducingStateDescriptor("count", lambda a, b: a + b,
                                                               Types.LONG())

    @staticmethod
    def of(window_size: int) -> "CountTrigger":
        return CountTrigger(window_size)

    def on_element(self, element, timestamp, window, ctx):
        count = ctx.get_partitioned_state(self._count_state_descriptor)
        count.add(1)
        if count.get() >= self._window_size:
            count.clear()
            return TriggerResult.FIRE
        return TriggerResult.CONTINUE

    def on_processing_time(self, time, window, ctx):
        return TriggerResult.CONTINUE

    def on_event_time(self, time, window, ctx):
        return TriggerResult.CONTINUE

    def can_merge(self) -> bool:
        return True

    def on_merge(self, window, ctx):
        ctx.merge_partitioned_state(self._count_state_descriptor)

    def clear(self, window, ctx):
        ctx.get_partitioned_state(self._count_state_descriptor).clear()


class NeverTrigger(Trigger[Any, GlobalWindow]):
    """Never fires (the default trigger of GlobalWindows)."""

    def on_element(self, element, timestamp, window, ctx):
        return TriggerResult.CONTINUE

    def on_processing_time(self, time, window, ctx):
        return TriggerResult.CONTINUE

    def on_event_time(self, time, window, ctx):
        return TriggerResult.CONTINUE

    def on_merge(self, window, ctx):
        pass

    def clear(self, window, ctx):
        pass


# ---------------------------------------------------------------------------------------------
# Window assigners


class WindowAssigner(ABC, Generic[T, W]):
    """Assigns each element to zero or more windows."""

    class WindowAssignerContext(ABC):
        @abstractmethod
        def get_current_processing_time(self) -> int:
            """The current processing time."""

        @abstractmethod
        def get_runtime_context(self):
            """The RuntimeContext of the window operator (keyed state of the current key)."""

    @abstractmethod
    def assign_windows(self, element: T, timestamp: int,
                       context: "WindowAssigner.WindowAssignerContext") -> Collection[W]:
        """The windows ``element`` (with ``timestamp``) belongs to."""

    @abstractmethod
    def get_default_trigger(self, env) -> Trigger[T, W]:
        """The trigger used when none is given."""

    @abstractmethod
    def is_event_time(self) -> bool:
        """Whether windows are based on event time."""

    def get_window_serializer(self):
        return None


class MergingWindowAssigner(WindowAssigner[T, W]):
    """An assigner whose windows can merge (sessions)."""

    class MergeCallback(ABC, Generic[W]):
        @abstractmethod
        def merge(self, to_be_merged: Iterable[W], merge_result: W) -> None:
            """``to_be_merged`` become ``merge_result``."""

    @abstractmethod
    def merge_windows(self, windows: Iterable[W], callback: "MergeCallback[W]") -> None:
        """Find windows to merge among ``windows``; report them to ``callback``."""


class SessionWindowTimeGapExtractor(ABC):
    """Gives the session gap (ms) after an element, for dynamic session windows."""

    @abstractmethod
    def extract(self, element: Any) -> int:
        """The session gap after ``element``."""


def _no_timestamp(name: str):
    return RuntimeError(
        "Record has no timestamp (Java Long.MIN_VALUE = no timestamp marker) in %s. Is the time "
        "characteristic set to processing time, or did you forget to call "
        "'DataStream.assign_timestamps_and_watermarks(...)'?" % name)


class CountTumblingWindowAssigner(WindowAssigner[Any, CountWindow]):
    """Windows of ``window_size`` consecutive elements (per key)."""

    def __init__(self, window_size: int):
        if window_size <= 0:
            raise ValueError("Count window size must be positive")
        self._window_size = window_size
        self._count_descriptor = ValueStateDescriptor("tumble-count-assigner", Types.LONG())

    @staticmethod
    def of(window_size: int) -> "CountTumblingWindowAssigner":
        return CountTumblingWindowAssigner(window_size)

    def assign_windows(self, element, timestamp, context):
        count_state = context.get_runtime_context().get_state(self._count_descriptor)
        count = count_state.value() or 0
        count_state.update(count + 1)
        return [CountWindow(count // self._window_size)]

    def get_default_trigger(self, env):
        return CountTrigger(self._window_size)

    def is_event_time(self) -> bool:
        return False

    def __repr__(self):
        return "CountTumblingWindowAssigner(%s)" % self._window_size


class CountSlidingWindowAssigner(WindowAssigner[Any, CountWindow]):
    """Windows of ``window_size`` elements, a new one every ``window_slide`` elements."""

    def __init__(self, window_size: int, window_slide: int):
        if window_size <= 0 or window_slide <= 0:
            raise ValueError("Count window size and slide must be positive")
        self._window_size = window_size
        self._window_slide = window_slide
        self._count_descriptor = ValueStateDescriptor("slide-count-assigner", Types.LONG())

    @staticmethod
    def of(window_size: int, window_slide: int) -> "CountSlidingWindowAssigner":
        return CountSlidingWindowAssigner(window_size, window_slide)

    def assign_windows(self, element, timestamp, context):
        count_state = context.get_runtime_context().get_state(self._count_descriptor)
        count = count_state.value() or 0
        count_state.update(count + 1)
        windows = []
        last_id = count // self._window_slide
        while last_id >= 0:
            start = last_id * self._window_slide
            if not start <= count <= start + self._window_size - 1:
                break
            windows.append(CountWindow(last_id))
            last_id -= 1
        return windows

    def get_default_trigger(self, env):
        return CountTrigger(self._window_size)

    def is_event_time(self) -> bool:
        return False

    def __repr__(self):
        return "CountSlidingWindowAssigner(%s, %s)" % (self._window_size, self._window_slide)


class _TimeWindows(WindowAssigner[Any, TimeWindow]):
    """Tumbling and sliding windows of ``size`` every ``slide`` (ms), shifted by ``offset``."""

    event_time = True

    def __init__(self, size: int, slide: int, offset: int):
        if size <= 0 or abs(offset) >= slide:
            raise ValueError("%s parameters must satisfy abs(offset) < slide and size > 0"
                             % type(self).__name__)
        self._size, self._slide, self._offset = size, slide, offset

    def assign_windows(self, element, timestamp, context):
        if not self.event_time:
            timestamp = context.get_current_processing_time()
        elif timestamp is None or timestamp <= MIN_LONG_VALUE:
            raise _no_timestamp(repr(self))
        last_start = TimeWindow.get_window_start_with_offset(timestamp, self._offset, self._slide)
        return [TimeWindow(start, start + self._size)
                for start in range(last_start, timestamp - self._size, -self._slide)]

    def get_default_trigger(self, env):
        return EventTimeTrigger() if self.event_time else ProcessingTimeTrigger()

    def is_event_time(self) -> bool:
        return self.event_time


class TumblingEventTimeWindows(_TimeWindows):
    """Non-overlapping event-time windows of a fixed size."""

    def __init__(self, size: int, offset: int = 0):
        super().__init__(size, size, offset)

    @staticmethod
    def of(size: Interval, offset: Interval = 0) -> "TumblingEventTimeWindows":
        return TumblingEventTimeWindows(to_millis(size), to_millis(offset))

    def __repr__(self):
        return "TumblingEventTimeWindows(%s, %s)" % (self._size, self._offset)


class TumblingProcessingTimeWindows(_TimeWindows):
    """Non-overlapping processing-time windows of a fixed size."""

    event_time = False

    def __init__(self, size: int, offset: int = 0):
        super().__init__(size, size, offset)

    @staticmethod
    def of(size: Interval, offset: Interval = 0) -> "TumblingProcessingTimeWindows":
        return TumblingProcessingTimeWindows(to_millis(size), to_millis(offset))

    def __repr__(self):
        return "TumblingProcessingTimeWindows(%s, %s)" % (self._size, self._offset)


class SlidingEventTimeWindows(_TimeWindows):
    """Event-time windows of ``size``, a new one every ``slide``."""

    @staticmethod
    def of(size: Interval, slide: Interval, offset: Interval = 0) -> "SlidingEventTimeWindows":
        return SlidingEventTimeWindows(to_millis(size), to_millis(slide), to_millis(offset))

    def __repr__(self):
        return "SlidingEventTimeWindows(%s, %s, %s)" % (self._size, self._slide, self._offset)


class SlidingProcessingTimeWindows(_TimeWindows):
    """Processing-time windows of ``size``, a new one every ``slide``."""

    event_time = False

    @staticmethod
    def of(size: Interval, slide: Interval,
           offset: Interval = 0) -> "SlidingProcessingTimeWindows":
        return SlidingProcessingTimeWindows(to_millis(size), to_millis(slide), to_millis(offset))

    def __repr__(self):
        return "SlidingProcessingTimeWindows(%s, %s, %s)" % (self._size, self._slide,
                                                             self._offset)


class _SessionWindows(MergingWindowAssigner[Any, TimeWindow]):
    """Sessions: an element opens ``[t, t + gap)``; overlapping windows merge."""

    event_time = True

    def __init__(self, session_gap: int = 0,
                 extractor: Union[SessionWindowTimeGapExtractor, Callable, None] = None):
        if extractor is None and session_gap <= 0:
            raise ValueError("%s parameters must satisfy 0 < gap" % type(self).__name__)
        self._session_gap = session_gap
        self._extractor = extractor

    def _gap(self, element) -> int:
        if self._extractor is None:
            return self._session_gap
        extract = getattr(self._extractor, "extract", self._extractor)
        gap = extract(element)
        if gap <= 0:
            raise ValueError("Dynamic session time gap must satisfy 0 < gap")
        return gap

    def assign_windows(self, element, timestamp, context):
        if not self.event_time:
            timestamp = context.get_current_processing_time()
        elif timestamp is None or timestamp <= MIN_LONG_VALUE:
            raise _no_timestamp(repr(self))
        return [TimeWindow(timestamp, timestamp + self._gap(element))]

    def merge_windows(self, windows, callback):
        TimeWindow.merge_windows(windows, callback)

    def get_default_trigger(self, env):
        return EventTimeTrigger() if self.event_time else ProcessingTimeTrigger()

    def is_event_time(self) -> bool:
        return self.event_time

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, self._session_gap or self._extractor)


class EventTimeSessionWindows(_SessionWindows):
    """Event-time sessions separated by a gap of inactivity."""

    @staticmethod
    def with_gap(size: Interval) -> "EventTimeSessionWindows":
        return EventTimeSessionWindows(to_millis(size))

    @staticmethod
    def with_dynamic_gap(extractor) -> "DynamicEventTimeSessionWindows":
        return DynamicEventTimeSessionWindows(extractor)


class ProcessingTimeSessionWindows(_SessionWindows):
    """Processing-time sessions separated by a gap of inactivity."""

    event_time = False

    @staticmethod
    def with_gap(size: Interval) -> "ProcessingTimeSessionWindows":
        return ProcessingTimeSessionWindows(to_millis(size))

    @staticmethod
    def with_dynamic_gap(extractor) -> "DynamicProcessingTimeSessionWindows":
        return DynamicProcessingTimeSessionWindows(extractor)


class DynamicEventTimeSessionWindows(_SessionWindows):
    """Event-time sessions whose gap each element gives (a SessionWindowTimeGapExtractor)."""

    def __init__(self, session_window_time_gap_extractor):
        super().__init__(0, session_window_time_gap_extractor)

    @staticmethod
    def with_dynamic_gap(extractor) -> "DynamicEventTimeSessionWindows":
        return DynamicEventTimeSessionWindows(extractor)


class DynamicProcessingTimeSessionWindows(_SessionWindows):
    """Processing-time sessions whose gap each element gives."""

    event_time = False

    def __init__(self, session_window_time_gap_extractor):
        super().__init__(0, session_window_time_gap_extractor)

    @staticmethod
    def with_dynamic_gap(extractor) -> "DynamicProcessingTimeSessionWindows":
        return DynamicProcessingTimeSessionWindows(extractor)


class GlobalWindows(WindowAssigner[Any, GlobalWindow]):
    """One window for all elements of a key; give it a trigger (the default never fires)."""

    def assign_windows(self, element, timestamp, context):
        return [GlobalWindow.get()]

    @staticmethod
    def create() -> "GlobalWindows":
        return GlobalWindows()

    def get_default_trigger(self, env):
        return NeverTrigger()

    def is_event_time(self) -> bool:
        return False

    def __repr__(self):
        return "GlobalWindows()"

