"""The window operator: windows as keyed state plus timers, the way Flink runs them.

``WindowOperator`` is a keyed function hosted like any other: for each element it asks the
assigner for windows, adds the element to each window's contents (state scoped to the key
and the window), and asks the trigger; timers (registered per window) call the trigger
again. A fired window's contents go through the window function; its result carries the
window's max timestamp. Late elements are dropped or sent to the late-data side output.
"""
from __future__ import annotations

import time
from typing import Any, Dict, Iterable, List, Optional, Set, Tuple

from pystream.common.typeinfo import Types
from pystream.core.functions import KeyedProcessFunction, TimeDomain
from pystream.core.state import (
    AggregatingStateDescriptor,
    ListStateDescriptor,
    MapStateDescriptor,
    ReducingStateDescriptor,
    ValueStateDescriptor,
)
from pystream.core.window import (
    MAX_LONG_VALUE,
    CountSlidingWindowAssigner,
    CountTrigger,
    CountTumblingWindowAssigner,
    GlobalWindows,
    MergingWindowAssigner,
    NeverTrigger,
    PurgingTrigger,
    Trigger,
    TriggerResult,
    Window,
    WindowAssigner,
)
from pystream.runtime.keyed import Timestamped

EVENT, PROCESSING = "event", "processing"
_PICKLED = Types.PICKLED_BYTE_ARRAY()


def _state(runtime_context, descriptor):
    """The handle of any kind of state descriptor."""
    getter = {ValueStateDescriptor: runtime_context.get_state,
              ListStateDescriptor: runtime_context.get_list_state,
              MapStateDescriptor: runtime_context.get_map_state,
              ReducingStateDescriptor: runtime_context.get_reducing_state,
              AggregatingStateDescriptor: runtime_context.get_aggregating_state}
    for kind, get in getter.items():
        if isinstance(descriptor, kind):
            return get(descriptor)
    raise TypeError("Unsupported state descriptor: %r" % (descriptor,))


class _NamespacedStates:
    """State handles by descriptor name, each scoped to a window on demand."""

    def __init__(self, runtime_context):
        self._runtime_context = runtime_context
        self._handles: Dict[str, Any] = {}

    def get(self, descriptor, window):
        handle = self._handles.get(descriptor.name)
        if handle is None:
            handle = self._handles[descriptor.name] = _state(self._runtime_context, descriptor)
        handle.set_current_namespace(window)
        return handle


class _TriggerContext(Trigger.OnMergeContext):
    def __init__(self, operator: "WindowOperator"):
        self._op = operator
        self.window: Optional[Window] = None
        self.merged_windows: List[Window] = []

    def get_current_processing_time(self) -> int:
        return int(time.time() * 1000)

    def get_current_watermark(self) -> int:
        return self._op.watermark()

    def register_processing_time_timer(self, time: int) -> None:
        self._op.register_timer(PROCESSING, time, self.window)

    def register_event_time_timer(self, time: int) -> None:
        self._op.register_timer(EVENT, time, self.window)

    def delete_processing_time_timer(self, time: int) -> None:
        self._op.delete_timer(PROCESSING, time, self.window)

    def delete_event_time_timer(self, time: int) -> None:
        self._op.delete_timer(EVENT, time, self.window)

    def get_partitioned_state(self, state_descriptor):
        return self._op.states.get(state_descriptor, self.window)

    def get_metric_group(self):
        """The trigger's metrics: the operator's group (``pystream.metrics``)."""
        return self._op.runtime_context.get_metrics_group()

    def merge_partitioned_state(self, state_descriptor) -> None:
        if self.merged_windows:
            handle = self._op.states.get(state_descriptor, self.window)
            handle.merge_namespaces(self.window, self.merged_windows)


class _WindowStateStore:
    """``ProcessWindowFunction.Context.window_state()``: state scoped to the window."""

    def __init__(self, operator: "WindowOperator"):
        self._op = operator
        self.window = None

    def _scoped(self, descriptor):
        if isinstance(self._op.assigner, MergingWindowAssigner):
            raise RuntimeError("Per-window state is not allowed when using merging windows.")
        return self._op.states.get(descriptor, self.window)

    get_state = get_list_state = get_map_state = _scoped
    get_reducing_state = get_aggregating_state = _scoped


class WindowContext:
    """The context a window function gets: the window, time, window and global state."""

    def __init__(self, operator: "WindowOperator", window: Window):
        self._op = operator
        self._window = window
        self._window_state = _WindowStateStore(operator)
        self._window_state.window = window

    def window(self) -> Window:
        return self._window

    def current_processing_time(self) -> int:
        return int(time.time() * 1000)

    def current_watermark(self) -> int:
        return self._op.watermark()

    def window_state(self):
        return self._window_state

    def global_state(self):
        return self._op.runtime_context


class _AssignerContext(WindowAssigner.WindowAssignerContext):
    def __init__(self, operator: "WindowOperator"):
        self._op = operator

    def get_current_processing_time(self) -> int:
        return int(time.time() * 1000)

    def get_runtime_context(self):
        return self._op.runtime_context


class WindowFunctionAdapter:
    """How a window's contents become output: ``emit(key, window, contents, context)`` gives
    the results. ``contents`` is what the window state holds (a list, a reduced value or an
    aggregate's result)."""

    def __init__(self, kind: str, function=None):
        self.kind = kind  # 'pass' | 'process' | 'apply' | 'all_process' | 'all_apply'
        self.function = function

    def open(self, runtime_context) -> None:
        if hasattr(self.function, "open"):
            self.function.open(runtime_context)

    def close(self) -> None:
        if hasattr(self.function, "close"):
            self.function.close()

    def results(self, key, window, elements: List[Any], context) -> Iterable[Any]:
        fn = self.function
        if self.kind == "pass":
            return elements
        if self.kind == "process":
            return _iterate(getattr(fn, "process", fn)(key, context, elements))
        if self.kind == "all_process":
            return _iterate(getattr(fn, "process", fn)(context, elements))
        if self.kind == "apply":
            return _iterate(getattr(fn, "apply", fn)(key, window, elements))
        return _iterate(getattr(fn, "apply", fn)(window, elements))

    def clear(self, context) -> None:
        if self.kind in ("process", "all_process") and hasattr(self.function, "clear"):
            self.function.clear(context)


def _iterate(result) -> Iterable[Any]:
    return () if result is None else result


class WindowOperator(KeyedProcessFunction):
    """Runs windows of one keyed stream (``contents`` describes the window state)."""

    def __init__(self, assigner: WindowAssigner, trigger: Trigger, contents, function:
                 WindowFunctionAdapter, allowed_lateness: int = 0,
                 late_tag: Optional[Any] = None, key_of_all: bool = False):
        self.assigner = assigner
        self.trigger = trigger
        self.contents_descriptor = contents
        self.function = function
        self.allowed_lateness = allowed_lateness
        self.late_tag = late_tag
        self.key_of_all = key_of_all  # window_all: the key is a constant, hide it
        self.streaming_time_domain = _time_domain(assigner, trigger)

    # -- lifecycle

    def open(self, runtime_context) -> None:
        self.runtime_context = runtime_context
        self.states = _NamespacedStates(runtime_context)
        self.trigger_context = _TriggerContext(self)
        self.assigner_context = _AssignerContext(self)
        self.timers = runtime_context.get_map_state(
            MapStateDescriptor("window-timers", _PICKLED, _PICKLED))
        self.sessions = runtime_context.get_state(
            ValueStateDescriptor("merging-windows", _PICKLED)) \
            if isinstance(self.assigner, MergingWindowAssigner) else None
        self.function.open(runtime_context)

    def close(self) -> None:
        self.function.close()

    # -- time and timers

    def watermark(self) -> int:
        return self._ctx.timer_service().current_watermark()

    def register_timer(self, domain: str, timestamp: int, window: Window) -> None:
        windows: Set[Window] = self.timers.get((domain, timestamp)) or set()
        if window in windows:  # every element of a window registers its timers again
            return
        if not windows:
            service = self._ctx.timer_service()
            if domain == EVENT:
                service.register_event_time_timer(timestamp)
            else:
                service.register_processing_time_timer(timestamp)
        self.timers.put((domain, timestamp), windows | {window})

    def delete_timer(self, domain: str, timestamp: int, window: Window) -> None:
        windows = self.timers.get((domain, timestamp))
        if not windows or window not in windows:
            return
        windows = windows - {window}
        if windows:
            self.timers.put((domain, timestamp), windows)
            return
        self.timers.remove((domain, timestamp))
        service = self._ctx.timer_service()
        if domain == EVENT:
            service.delete_event_time_timer(timestamp)
        else:
            service.delete_processing_time_timer(timestamp)

    def cleanup_time(self, window: Window) -> int:
        if not self.assigner.is_event_time():
            return window.max_timestamp()
        return min(window.max_timestamp() + self.allowed_lateness, MAX_LONG_VALUE)

    def _register_cleanup(self, window: Window) -> None:
        cleanup = self.cleanup_time(window)
        if cleanup == MAX_LONG_VALUE:
            return
        self.register_timer(EVENT if self.assigner.is_event_time() else PROCESSING, cleanup,
                            window)

    def _is_window_late(self, window: Window) -> bool:
        return self.assigner.is_event_time() and self.cleanup_time(window) <= self.watermark()

    # -- elements

    def process_element(self, value, ctx):
        self._ctx = ctx
        timestamp = ctx.timestamp()
        windows = self.assigner.assign_windows(value, timestamp, self.assigner_context)
        skipped = True
        for window in self._merged(windows) if self.sessions is not None else windows:
            if window is None or self._is_window_late(window):
                continue
            skipped = False
            self.states.get(self.contents_descriptor, window).add(value)
            self.trigger_context.window = window
            result = self.trigger.on_element(value, timestamp, window, self.trigger_context)
            yield from self._on_result(result, window)
            self._register_cleanup(window)
        if skipped and self._is_element_late(timestamp):
            if self.late_tag is not None:
                yield self.late_tag, value

    def _is_element_late(self, timestamp: Optional[int]) -> bool:
        return (self.assigner.is_event_time() and timestamp is not None
                and timestamp + self.allowed_lateness <= self.watermark())

    def on_timer(self, timestamp: int, ctx):
        self._ctx = ctx
        domain = EVENT if ctx.time_domain() is TimeDomain.EVENT_TIME else PROCESSING
        windows = self.timers.get((domain, timestamp)) or set()
        self.timers.remove((domain, timestamp))
        for window in sorted(windows):
            if self.sessions is not None and window not in (self.sessions.value() or []):
                continue  # merged into another window since
            self.trigger_context.window = window
            if domain == EVENT:
                result = self.trigger.on_event_time(timestamp, window, self.trigger_context)
            else:
                result = self.trigger.on_processing_time(timestamp, window, self.trigger_context)
            yield from self._on_result(result, window)
            if (domain == EVENT) == self.assigner.is_event_time() and \
                    timestamp == self.cleanup_time(window):
                self._clear_all(window)

    def _on_result(self, result: TriggerResult, window: Window):
        contents = self.states.get(self.contents_descriptor, window)
        if result.is_fire():
            value = contents.get()
            listed = isinstance(self.contents_descriptor, ListStateDescriptor)
            elements = list(value) if listed else [] if value is None else [value]
            if elements:
                key = None if self.key_of_all else self._ctx.get_current_key()
                context = WindowContext(self, window)
                stamp = window.max_timestamp()
                stamp = None if stamp == MAX_LONG_VALUE else stamp
                for out in self.function.results(key, window, elements, context):
                    yield Timestamped(out, stamp)
        if result.is_purge():
            contents.clear()

    def _clear_all(self, window: Window) -> None:
        self.states.get(self.contents_descriptor, window).clear()
        self.trigger_context.window = window
        self.trigger.clear(window, self.trigger_context)
        self.function.clear(WindowContext(self, window))
        if self.sessions is not None:
            self.sessions.update([w for w in (self.sessions.value() or []) if w != window]
                                 or None)

    # -- merging (session) windows

    def _merged(self, new_windows) -> List[Optional[Window]]:
        """Add ``new_windows`` to the key's sessions, merging; the windows to use instead."""
        sessions = list(self.sessions.value() or [])
        actual = []
        for window in new_windows:
            merges = _Merges()
            self.assigner.merge_windows(sessions + [window], merges)
            result = window
            for merged, merge_result in merges.found:
                if window in merged:
                    result = merge_result
                old = [w for w in merged if w != merge_result and w in sessions]
                sessions = [w for w in sessions if w not in merged] + [merge_result]
                self._merge_state(merge_result, old)
            if result == window and window not in sessions:
                sessions.append(window)
            actual.append(result)
        self.sessions.update(sorted(set(sessions)))
        return actual

    def _merge_state(self, result: Window, merged: List[Window]) -> None:
        """Windows ``merged`` became ``result``: move their contents and triggers there."""
        ctx = self.trigger_context
        ctx.window, ctx.merged_windows = result, merged
        self.trigger.on_merge(result, ctx)
        for window in merged:
            ctx.window = window
            self.trigger.clear(window, ctx)
            cleanup = self.cleanup_time(window)
            if cleanup != MAX_LONG_VALUE:
                self.delete_timer(EVENT if self.assigner.is_event_time() else PROCESSING,
                                  cleanup, window)
        ctx.window, ctx.merged_windows = result, []
        if merged:
            self.states.get(self.contents_descriptor, result).merge_namespaces(result, merged)


class _Merges(MergingWindowAssigner.MergeCallback):
    """Collects what ``merge_windows`` reports: (merged windows, result) pairs."""

    def __init__(self):
        self.found: List[Tuple[List[Window], Window]] = []

    def merge(self, to_be_merged, merge_result) -> None:
        self.found.append((list(to_be_merged), merge_result))


def _time_domain(assigner: WindowAssigner, trigger: Trigger) -> Optional[str]:
    """The timers the operator fires natively (the other kind when its key is next active):
    event time for event-time assigners and for a user's own trigger (which may register
    either kind; on a stream without watermarks the compiler falls back to processing time),
    processing time for processing-time assigners, none where no trigger needs a timer."""
    if not _needs_timers(assigner, trigger):
        return None
    if assigner.is_event_time() or type(trigger).__module__ != Trigger.__module__:
        return EVENT
    return PROCESSING


def _needs_timers(assigner: WindowAssigner, trigger: Trigger) -> bool:
    """Count and global windows with a count (or no) trigger never need a timer."""
    inner = trigger.nested_trigger if isinstance(trigger, PurgingTrigger) else trigger
    untimed = isinstance(assigner, (GlobalWindows, CountTumblingWindowAssigner,
                                    CountSlidingWindowAssigner))
    return not (untimed and isinstance(inner, (CountTrigger, NeverTrigger)))
