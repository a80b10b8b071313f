"""pystream's own keyed functions: what KeyedStream.reduce/sum/map/... run as.

Like PyFlink, every keyed operation is a KeyedProcessFunction hosted by the stateful primitive;
these adapters turn reduce functions and stateful map/flat_map/filter functions into one.
"""
from __future__ import annotations

import uuid
from typing import Callable, Union

from pystream.common.typeinfo import TypeInformation
from pystream.common.types import Row
from pystream.core.functions import (
    FilterFunction,
    FlatMapFunction,
    Function,
    KeyedProcessFunction,
    MapFunction,
    ReduceFunction,
    RuntimeContext,
)
from pystream.core.state import ValueStateDescriptor

MAX_TIMESTAMP = 2 ** 63 - 1


class _Adapter(KeyedProcessFunction):
    """Hosts a user function: forwards open/close to it."""

    #: timers this function registers in STREAMING mode (None: none, so Spark needs no timers)
    streaming_time_domain = None

    def __init__(self, function):
        self.function = function

    def open(self, runtime_context: RuntimeContext):
        if isinstance(self.function, Function):
            self.function.open(runtime_context)

    def close(self):
        if isinstance(self.function, Function):
            self.function.close()


class KeyedMap(_Adapter):
    """``KeyedStream.map`` with a function that uses keyed state."""

    def open(self, runtime_context):
        super().open(runtime_context)
        self._call = self.function.map if isinstance(self.function, MapFunction) else self.function

    def process_element(self, value, ctx):
        yield self._call(value)

    def process_run(self, values, timestamps, ctx, emit):
        call = self._call
        for value, timestamp in zip(values, timestamps):
            emit(None, call(value), timestamp)


class KeyedFlatMap(_Adapter):
    """``KeyedStream.flat_map`` with a function that uses keyed state."""

    def open(self, runtime_context):
        super().open(runtime_context)
        self._call = (self.function.flat_map if isinstance(self.function, FlatMapFunction)
                      else self.function)

    def process_element(self, value, ctx):
        result = self._call(value)
        if result is not None:
            yield from result

    def process_run(self, values, timestamps, ctx, emit):
        call = self._call
        for value, timestamp in zip(values, timestamps):
            for out in call(value) or ():
                emit(None, out, timestamp)


class KeyedFilter(_Adapter):
    """``KeyedStream.filter`` with a function that uses keyed state."""

    def open(self, runtime_context):
        super().open(runtime_context)
        self._call = (self.function.filter if isinstance(self.function, FilterFunction)
                      else self.function)

    def process_element(self, value, ctx):
        if self._call(value):
            yield value

    def process_run(self, values, timestamps, ctx, emit):
        call = self._call
        for value, timestamp in zip(values, timestamps):
            if call(value):
                emit(None, value, timestamp)


class RollingReduce(_Adapter):
    """``KeyedStream.reduce``: in STREAMING mode every rolling value, in BATCH mode the final
    value per key (emitted by a timer at the end of input, as PyFlink does)."""

    def __init__(self, function: Union[ReduceFunction, Callable], output_type: TypeInformation):
        super().__init__(function)
        self.output_type = output_type

    def open(self, runtime_context):
        super().open(runtime_context)
        self._reduce = (self.function.reduce if isinstance(self.function, ReduceFunction)
                        else self.function)
        self._state = runtime_context.get_state(ValueStateDescriptor(
            "_reduce_state_" + uuid.uuid4().hex, self.output_type))
        self._batch = getattr(runtime_context, "in_batch_execution_mode", False)

    def process_element(self, value, ctx):
        out = []
        self.process_run([value], [ctx.timestamp()], ctx, lambda tag, v, t: out.append(v))
        return out

    def process_run(self, values, timestamps, ctx, emit):
        """Fold a run of the key's values into the state, emitting each rolling value in
        STREAMING mode; in BATCH mode a timer at the end of input emits the final value."""
        acc, reduce = self._state.value(), self._reduce
        if self._batch:
            if acc is None:
                ctx.timer_service().register_event_time_timer(MAX_TIMESTAMP)
            for value in values:
                acc = value if acc is None else reduce(acc, value)
        else:
            for value, timestamp in zip(values, timestamps):
                acc = value if acc is None else reduce(acc, value)
                emit(None, acc, timestamp)
        self._state.update(acc)

    def on_timer(self, timestamp, ctx):
        value = self._state.value()
        if value is not None:
            yield value


class Accumulate(ReduceFunction):
    """The reduce function of sum/min/max/min_by/max_by at a field position or name."""

    def __init__(self, position: Union[int, str], kind: str):
        if not isinstance(position, (int, str)):
            raise TypeError("The field position must be of int or str type to locate the value "
                            "to calculate for min, max, min_by, max_by and sum. The given type "
                            "is: %s" % type(position))
        self.position = position
        self.kind = kind  # 'sum' | 'min' | 'max' | 'min_by' | 'max_by'

    def reduce(self, v1, v2):
        pos, kind = self.position, self.kind
        composite = isinstance(v2, (tuple, list, Row))
        if kind in ("min_by", "max_by"):
            a, b = (v1[pos], v2[pos]) if composite else (v1, v2)
            better = b < a if kind == "min_by" else b > a
            return v2 if better else v1
        if not composite:
            if pos != 0:
                raise TypeError("The %s field selected on a basic type. A field expression on a "
                                "basic type can only select the 0th field (which means selecting "
                                "the entire basic type)." % pos)
            return self._combine(v1, v2)
        if isinstance(v1, tuple):
            items = list(v1)
            items[pos] = self._combine(v1[pos], v2[pos])
            return tuple(items)
        v1[pos] = self._combine(v1[pos], v2[pos])
        return v1

    def _combine(self, a, b):
        if self.kind == "sum":
            return a + b
        if self.kind == "min":
            return b if b < a else a
        return b if b > a else a
