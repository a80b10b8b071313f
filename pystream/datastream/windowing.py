"""WindowedStream and AllWindowedStream: windows over a (keyed) stream.

A windowed operation is one keyed node hosting pystream's window operator
(``pystream.runtime.windows.WindowOperator``); ``window_all`` keys every element by one
constant key, as PyFlink does.
"""
from __future__ import annotations

from typing import Callable, Optional, Union

from pystream.common.typeinfo import TypeInformation, Types
from pystream.core.functions import (
    AggregateFunction,
    AllWindowFunction,
    NullByteKeySelector,
    ProcessAllWindowFunction,
    ProcessWindowFunction,
    ReduceFunction,
    WindowFunction,
)
from pystream.core.output_tag import OutputTag
from pystream.core.state import (
    AggregatingStateDescriptor,
    ListStateDescriptor,
    ReducingStateDescriptor,
)
from pystream.core.window import MergingWindowAssigner, Trigger, WindowAssigner
from pystream.errors import UnsupportedFeatureError

__all__ = ["WindowedStream", "AllWindowedStream"]

WINDOW_STATE_NAME = "window-contents"


class _Windowed:
    """What WindowedStream and AllWindowedStream share."""

    _all = False

    def __init__(self, keyed_stream, window_assigner: WindowAssigner):
        self._keyed_stream = keyed_stream
        self._window_assigner = window_assigner
        self._allowed_lateness = 0
        self._late_data_output_tag: Optional[OutputTag] = None
        self._window_trigger: Optional[Trigger] = None

    def get_execution_environment(self):
        return self._keyed_stream.get_execution_environment()

    def get_input_type(self) -> TypeInformation:
        return self._keyed_stream.get_type()

    def trigger(self, trigger: Trigger):
        """Use ``trigger`` instead of the assigner's default one."""
        if isinstance(self._window_assigner, MergingWindowAssigner) and not trigger.can_merge():
            raise TypeError("A merging window assigner cannot be used with a trigger that does "
                            "not support merging.")
        self._window_trigger = trigger
        return self

    def allowed_lateness(self, time_ms: int):
        """Keep windows ``time_ms`` after the watermark passed them (late firings)."""
        if time_ms < 0:
            raise ValueError("The allowed lateness cannot be negative.")
        self._allowed_lateness = int(time_ms)
        return self

    def side_output_late_data(self, output_tag: OutputTag):
        """Send elements too late for their windows to ``output_tag``."""
        self._late_data_output_tag = output_tag
        return self

    # -- the window functions

    def _window(self, contents, function_kind: str, function, output_type, name: str):
        from pystream.runtime.windows import WindowFunctionAdapter, WindowOperator

        trigger = self._window_trigger or self._window_assigner.get_default_trigger(
            self.get_execution_environment())
        operator = WindowOperator(self._window_assigner, trigger, contents,
                                  WindowFunctionAdapter(function_kind, function),
                                  self._allowed_lateness, self._late_data_output_tag,
                                  key_of_all=self._all)
        domain = operator.streaming_time_domain
        stream = self._keyed_stream._keyed(operator, name, output_type, time_domain=domain)
        if self._all:
            stream.set_parallelism(1)
        return stream

    def _function_kind(self, window_function) -> str:
        if window_function is None:
            return "pass"
        process_kind = ProcessAllWindowFunction if self._all else ProcessWindowFunction
        apply_kind = AllWindowFunction if self._all else WindowFunction
        if isinstance(window_function, process_kind):
            return "all_process" if self._all else "process"
        if isinstance(window_function, apply_kind) or callable(window_function):
            return "all_apply" if self._all else "apply"
        raise TypeError("window_function should be a %s or a %s" % (apply_kind.__name__,
                                                                    process_kind.__name__))

    def reduce(self, reduce_function: Union[Callable, ReduceFunction], window_function=None,
               output_type: Optional[TypeInformation] = None):
        """Reduce each window's elements incrementally; optionally pass the result through a
        (Process)WindowFunction."""
        if window_function is None and output_type is None:
            output_type = self.get_input_type()
        contents = ReducingStateDescriptor(WINDOW_STATE_NAME, reduce_function,
                                           self.get_input_type())
        return self._window(contents, self._function_kind(window_function), window_function,
                            output_type, "Window(Reduce)")

    def aggregate(self, aggregate_function: AggregateFunction, window_function=None,
                  accumulator_type: Optional[TypeInformation] = None,
                  output_type: Optional[TypeInformation] = None):
        """Aggregate each window with an AggregateFunction (add, get_result, merge)."""
        if not isinstance(aggregate_function, AggregateFunction):
            raise TypeError("aggregate_function should be an AggregateFunction")
        contents = AggregatingStateDescriptor(WINDOW_STATE_NAME, aggregate_function,
                                              accumulator_type or Types.PICKLED_BYTE_ARRAY())
        return self._window(contents, self._function_kind(window_function), window_function,
                            output_type, "Window(Aggregate)")

    def apply(self, window_function, output_type: Optional[TypeInformation] = None):
        """Compute each window's results from all its elements (a WindowFunction)."""
        contents = ListStateDescriptor(WINDOW_STATE_NAME, self.get_input_type())
        return self._window(contents, self._function_kind(window_function), window_function,
                            output_type, "Window(Apply)")

    def process(self, process_window_function, output_type: Optional[TypeInformation] = None):
        """Compute each window's results with a ProcessWindowFunction (window, state, time)."""
        kind = self._function_kind(process_window_function)
        if kind not in ("process", "all_process"):
            raise TypeError("process needs a %s" % ("ProcessAllWindowFunction" if self._all
                                                    else "ProcessWindowFunction"))
        contents = ListStateDescriptor(WINDOW_STATE_NAME, self.get_input_type())
        return self._window(contents, kind, process_window_function, output_type,
                            "Window(Process)")

    def evictor(self, evictor):
        raise UnsupportedFeatureError("window evictors: PyFlink has no Python evictors either")


class WindowedStream(_Windowed):
    """A keyed stream split into windows per key (``key_by(...).window(assigner)``)."""


class AllWindowedStream(_Windowed):
    """A whole stream split into windows (``window_all(assigner)``), run with parallelism 1."""

    _all = True

    def __init__(self, data_stream, window_assigner: WindowAssigner):
        super().__init__(data_stream.key_by(NullByteKeySelector()), window_assigner)
