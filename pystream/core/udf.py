"""What a user-defined function of the Table API implements and the workers call: the base
classes (``ScalarFunction``, ``TableFunction``, ``AggregateFunction``, ...) and the
``FunctionContext`` their ``open()`` gets. ``pystream.table.udf`` exports them at PyFlink's
path, beside ``udf()`` and the other wrappers that make calls of them expressions."""
from __future__ import annotations

import abc
import inspect
from typing import Callable, Optional, Union

from pystream.metrics import MetricGroup

__all__ = ["FunctionContext", "UserDefinedFunction", "ScalarFunction", "AsyncScalarFunction",
           "TableFunction", "ImperativeAggregateFunction", "AggregateFunction",
           "TableAggregateFunction", "is_async",
           "python_callable"]


class FunctionContext:
    """What ``open()`` of a user-defined function receives: the job's global parameters
    (``pipeline.global-job-parameters``) and where it runs (the Spark task's partition is
    the subtask)."""

    def __init__(self, base_metric_group=None, job_parameters: Optional[dict] = None,
                 task_name: Optional[str] = None,
                 task_name_with_subtasks: Optional[str] = None,
                 number_of_parallel_subtasks: Optional[int] = None,
                 max_number_of_parallel_subtasks: Optional[int] = None,
                 index_of_this_subtask: Optional[int] = None,
                 attempt_number: Optional[int] = None):
        self._base_metric_group = base_metric_group
        self._job_parameters = dict(job_parameters or {})
        self._task_name = task_name
        self._task_name_with_subtasks = task_name_with_subtasks
        self._number_of_parallel_subtasks = number_of_parallel_subtasks
        self._max_number_of_parallel_subtasks = max_number_of_parallel_subtasks
        self._index_of_this_subtask = index_of_this_subtask
        self._attempt_number = attempt_number

    def get_metric_group(self) -> "MetricGroup":
        """The function's metrics (see ``pystream.metrics``: in a job, the job's totals add
        them up)."""
        if self._base_metric_group is None:
            self._base_metric_group = MetricGroup()
        return self._base_metric_group

    def get_job_parameter(self, key: str, default_value: str) -> str:
        return self._job_parameters.get(key, default_value)

    def get_task_name(self) -> Optional[str]:
        return self._task_name

    def get_task_name_with_subtasks(self) -> Optional[str]:
        """The task's name and ``(index + 1/parallelism)``, as ``MyTask (3/6)``."""
        return self._task_name_with_subtasks

    def get_number_of_parallel_subtasks(self) -> Optional[int]:
        return self._number_of_parallel_subtasks

    def get_max_number_of_parallel_subtasks(self) -> Optional[int]:
        return self._max_number_of_parallel_subtasks

    def get_index_of_this_subtask(self) -> Optional[int]:
        return self._index_of_this_subtask

    def get_attempt_number(self) -> Optional[int]:
        return self._attempt_number


class UserDefinedFunction(abc.ABC):
    """Base of user-defined functions: ``open`` once per worker before the first call,
    ``close`` at the end."""

    def open(self, function_context: FunctionContext) -> None:
        pass

    def close(self) -> None:
        pass

    def is_deterministic(self) -> bool:
        return True


class ScalarFunction(UserDefinedFunction):
    """A scalar function: ``eval(*args)`` gives one value per row."""

    @abc.abstractmethod
    def eval(self, *args):
        raise NotImplementedError


class AsyncScalarFunction(UserDefinedFunction):
    """A scalar function whose ``eval`` is a coroutine (``async def eval(self, key)``), for
    calls that wait on external systems: many run at once, results keep the rows' order.

    >>> class Lookup(AsyncScalarFunction):
    ...     async def eval(self, key):
    ...         await asyncio.sleep(0.1)
    ...         return "value_for_%s" % key
    """

    @abc.abstractmethod
    async def eval(self, *args):
        pass


class TableFunction(UserDefinedFunction):
    """A table function: ``eval(*args)`` yields rows (``join_lateral``)."""

    @abc.abstractmethod
    def eval(self, *args):
        raise NotImplementedError


class ImperativeAggregateFunction(UserDefinedFunction):
    """What aggregate and table aggregate functions share: an accumulator per group
    (``create_accumulator``), each row added to it (``accumulate``) or taken out of it
    (``retract``: an updating input), accumulators merged (``merge``). ``get_result_type``
    and ``get_accumulator_type`` may give the types instead of ``udaf(...)``'s arguments."""

    @abc.abstractmethod
    def create_accumulator(self):
        raise NotImplementedError

    @abc.abstractmethod
    def accumulate(self, accumulator, *args):
        raise NotImplementedError

    def retract(self, accumulator, *args):
        raise RuntimeError("Method retract is not implemented")

    def merge(self, accumulator, accumulators):
        raise RuntimeError("Method merge is not implemented")

    def get_result_type(self):
        return None

    def get_accumulator_type(self):
        return None


class AggregateFunction(ImperativeAggregateFunction):
    """An aggregate function: the group's result is ``get_value`` of its accumulator."""

    @abc.abstractmethod
    def get_value(self, accumulator):
        raise NotImplementedError


class TableAggregateFunction(ImperativeAggregateFunction):
    """A table aggregate function: emits rows per group (``emit_value``)."""

    @abc.abstractmethod
    def emit_value(self, accumulator):
        raise NotImplementedError


def is_async(func) -> bool:
    """Whether a scalar function's calls are coroutines (an ``AsyncScalarFunction`` or an
    ``async def``)."""
    return isinstance(func, AsyncScalarFunction) or inspect.iscoroutinefunction(func) or \
        (callable(func) and inspect.iscoroutinefunction(type(func).__call__))


def python_callable(func: Union[Callable, ScalarFunction, TableFunction]) -> Callable:
    """The plain function to call per row (a ScalarFunction's or TableFunction's ``eval``)."""
    return func.eval if isinstance(func, (ScalarFunction, AsyncScalarFunction, TableFunction)) \
        else func
