"""User-defined scalar functions -> Spark Python UDFs (Arrow-batched; pandas ones as
``pandas_udf``; async ones as ``pandas_udf`` running a batch's calls at once). Values cross
as PyFlink hands them to Python: a ROW argument is a ``Row``, a TIMESTAMP a ``datetime``; a
failing function names itself, its line and the row.

What a job's configuration tells its functions (``FunctionOptions``: job parameters, the
async options) is fixed while a job's plan is translated (``with function_options(...)``),
and travels to the workers inside each function's evaluator."""
from __future__ import annotations

import contextlib
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Optional, Tuple

from pyspark.sql import Column
from pyspark.sql import functions as F

from pystream.common import data_types as T
from pystream.common.data_types import DataType, RowType
from pystream.common.time import duration_millis
from pystream.core.udf import (
    AggregateFunction,
    FunctionContext,
    TableAggregateFunction,
    UserDefinedFunction,
    is_async,
    python_callable,
)
from pystream.metrics import MetricGroup
from pystream.runtime.dependencies import Bundle, shipped
from pystream.runtime.errors import operator_failure
from pystream.runtime.metric_reports import MetricsTarget

__all__ = ["FunctionOptions", "function_options", "scalar_udf_column", "table_udf_column"]


@dataclass(frozen=True)
class FunctionOptions:
    """A job's settings for its user functions: what ``FunctionContext.get_job_parameter``
    reads (``pipeline.global-job-parameters``, ``k1:v1,k2:v2``; not the table config's
    other keys, as in PyFlink), and the ``table.exec.async-scalar.*`` options (Flink's
    defaults)."""

    job_parameters: Dict[str, str] = field(default_factory=dict)
    async_capacity: int = 10  # max-concurrent-operations (buffer-capacity before 2.x)
    async_timeout_s: float = 180.0
    async_retries: int = 3  # max-attempts (retries after the first call); 0: NO_RETRY
    async_retry_delay_s: float = 0.1

    parallelism: Optional[int] = None  # the job's parallelism.default, if set
    bundle: Optional[Bundle] = None  # the job's Python dependencies, prepared
    metrics: Optional[MetricsTarget] = None  # where the job's metrics add up

    def ship(self, evaluator):
        """``evaluator`` as sent to Spark's Python workers: the job's dependencies are
        installed there before the user's function is unpickled."""
        return shipped(evaluator, self.bundle)

    def context(self, task_name: str, name: str) -> FunctionContext:
        """The ``FunctionContext`` of a function's ``open`` in a Spark task (its metrics
        named by ``name``)."""
        from pyspark import TaskContext

        task = TaskContext.get()
        index = task.partitionId() if task is not None else 0
        parallelism = self.parallelism or index + 1
        group = MetricGroup(owner=name, reporter=self.metrics)
        return FunctionContext(
            group, self.job_parameters, task_name,
            "%s (%d/%d)" % (task_name, index + 1, parallelism), parallelism, 128, index,
            task.attemptNumber() if task is not None else 0)

    @staticmethod
    def of(config: Dict[str, str], bundle: Optional[Bundle] = None,
           metrics: Optional[MetricsTarget] = None) -> "FunctionOptions":
        """The options of a table config's keys and values (and the dependencies' bundle,
        the job's metrics)."""
        parameters = {}
        for pair in (config.get("pipeline.global-job-parameters") or "").split(","):
            key, _, value = pair.partition(":")
            if key.strip():
                parameters[key.strip()] = value.strip()

        def option(name: str, default: str) -> str:
            return str(config.get("table.exec.async-scalar." + name) or default)

        capacity = config.get("table.exec.async-scalar.max-concurrent-operations") or \
            config.get("table.exec.async-scalar.buffer-capacity") or "10"
        retrying = option("retry-strategy", "FIXED_DELAY").upper() != "NO_RETRY"
        return FunctionOptions(
            job_parameters=parameters, async_capacity=max(1, int(capacity)),
            async_timeout_s=duration_millis(option("timeout", "3 min")) / 1000,
            async_retries=int(option("max-attempts", "3")) if retrying else 0,
            async_retry_delay_s=duration_millis(option("retry-delay", "100 ms")) / 1000,
            parallelism=int(config["parallelism.default"]) if config.get(
                "parallelism.default") else None, bundle=bundle, metrics=metrics)


_OPTIONS: ContextVar[Optional[FunctionOptions]] = ContextVar("function options",
                                                             default=None)


@contextlib.contextmanager
def function_options(options: FunctionOptions) -> Iterator[None]:
    """Translate a job's plan with ``options`` for the user functions it calls."""
    token = _OPTIONS.set(options)
    try:
        yield
    finally:
        _OPTIONS.reset(token)


class ScalarEvaluator:
    """Calls the user's function on one row's values (shipped to Spark's Python workers);
    ``open()`` runs once per worker before the first call."""

    def __init__(self, wrapper, arg_types: List[DataType], result_type: DataType):
        self.function = wrapper.function
        self.label = wrapper.label
        self.name = wrapper.name
        self.arg_types = arg_types
        self.result_type = result_type
        self.options = _OPTIONS.get() or FunctionOptions()
        self._opened = False

    def _open(self) -> None:
        if isinstance(self.function, UserDefinedFunction):
            try:
                self.function.open(self.options.context(self.label, self.name))
            except Exception as e:  # noqa: BLE001 - the user's error, in open()
                raise operator_failure(e, self.label + " open()") from None
        self._call = python_callable(self.function)
        self._kinds = _python_kinds(self.result_type)
        # the common case, at Python's speed: arguments and result cross as they are
        self._plain = all(_plain(t, "python_value") for t in self.arg_types) and \
            _plain(self.result_type, "spark_value")
        kinds = self._kinds or ()
        self._exact = {k for k in (int, float, str, bool)
                       if issubclass(k, kinds) and (k is not bool or bool in kinds)}
        self._opened = True

    def __call__(self, *values: Any) -> Any:
        if not self._opened:
            self._open()
        if not self._plain:
            return self._converted(values)
        try:
            value = self._call(*values)
            if value is None or type(value) in self._exact:
                return value
            return self.result_type.spark_value(self._fitting(value))
        except Exception as e:  # noqa: BLE001 - the user's error, reported with its row

            raise operator_failure(e, self.label, values) from None

    def _converted(self, values: tuple) -> Any:
        args = [_argument(t, v) for t, v in zip(self.arg_types, values)]
        try:
            return self.result_type.spark_value(self._fitting(self._call(*args)))
        except Exception as e:  # noqa: BLE001 - the user's error, reported with its row
            raise operator_failure(e, self.label, tuple(args)) from None

    def _fitting(self, value: Any) -> Any:
        """``value``, if it fits the declared result type (else a TypeError naming both)."""
        kinds = self._kinds
        if value is None or kinds is None or (isinstance(value, kinds) and not (
                isinstance(value, bool) and bool not in kinds)):
            return value
        raise TypeError("value %r (of Python type %s) does not fit the declared result type "
                        "%s" % (value, type(value).__name__, self.result_type.sql_text()))


class PandasEvaluator(ScalarEvaluator):
    """A pandas function: Series in, a Series (or a scalar) of the same length out; of a ROW
    result, a DataFrame (row-based ``map``: its columns are the ROW's fields in order)."""

    def __call__(self, *series):
        import pandas as pd


        if not self._opened:
            self._open()
        try:
            result = self._call(*series)
        except Exception as e:  # noqa: BLE001 - the user's error, reported with its row
            raise operator_failure(e, self.label) from None
        if isinstance(result, pd.DataFrame) and isinstance(self.result_type, RowType):
            names = list(self.result_type.field_names())  # a ROW result: by position
            if len(result.columns) == len(names):
                result = result.set_axis(names, axis=1)
        elif not isinstance(result, pd.Series):
            result = pd.Series([result] * len(series[0]) if series else [result])
        if series and len(result) != len(series[0]):
            error = ValueError("a pandas function must return a Series of its input's length: "
                               "it returned %d values for %d rows" % (len(result),
                                                                      len(series[0])))
            raise operator_failure(error, self.label) from None
        return result


class AsyncEvaluator(ScalarEvaluator):
    """An async function over a batch of rows (an ``arrow_udf``): up to ``async_capacity``
    calls in flight on one event loop, each retried ``async_retries`` times after
    ``async_retry_delay_s`` when it raises, all within ``async_timeout_s``; the results in
    the rows' order. A call that still fails fails the job, naming its row."""

    def __call__(self, *arrays):
        import asyncio

        import pyarrow as pa
        from pyspark.sql.pandas.types import to_arrow_type

        if not self._opened:
            self._open()
        rows = [[_argument(t, v) for t, v in zip(self.arg_types, values)]
                for values in zip(*[a.to_pylist() for a in arrays])]
        results = asyncio.run(self._all(rows))
        return pa.array([self.result_type.spark_value(r) for r in results],
                        type=to_arrow_type(self.result_type.spark_type()))

    async def _all(self, rows: List[list]) -> list:
        import asyncio

        slots = asyncio.Semaphore(self.options.async_capacity)

        async def one(args: list):
            async with slots:
                return await self._with_retries(args)

        return await asyncio.gather(*[one(args) for args in rows])

    async def _with_retries(self, args: list):
        import asyncio


        options = self.options
        attempts = 1 + options.async_retries

        async def attempt():
            for number in range(1, attempts + 1):
                try:
                    return await self._call(*args)
                except Exception:  # retried, then the user's error
                    if number == attempts:
                        raise
                    await asyncio.sleep(options.async_retry_delay_s)

        try:
            return await asyncio.wait_for(attempt(), options.async_timeout_s)
        except asyncio.TimeoutError:
            error = TimeoutError("Async function call has timed out after %g s"
                                 % options.async_timeout_s)
            raise operator_failure(error, self.label, tuple(args)) from None
        except Exception as e:  # noqa: BLE001 - the user's error, reported with its row
            raise operator_failure(e, self.label, tuple(args)) from None


class TableEvaluator(ScalarEvaluator):
    """Calls a table function on one row's values: the rows it yields, as a list of tuples
    (a single value yielded is a one-field row)."""

    def __call__(self, *values: Any) -> Any:
        if not self._opened:
            self._open()
        args = [_argument(t, v) for t, v in zip(self.arg_types, values)]
        try:
            produced = self._call(*args)
            rows = [] if produced is None else list(produced)
        except Exception as e:  # noqa: BLE001 - the user's error, reported with its row
            raise operator_failure(e, self.label, tuple(args)) from None
        return [self.result_type.spark_value(_as_row(r)) for r in rows]


def _pandas_argument(array, data_type: DataType):
    """An Arrow column as a pandas function gets it: a ROW's as a DataFrame of its fields (as
    PyFlink and Spark's pandas UDFs give it), any other as a Series."""
    import pyarrow as pa

    if isinstance(data_type, RowType):
        if isinstance(array, pa.ChunkedArray):
            array = array.combine_chunks()
        return pa.Table.from_struct_array(array).to_pandas()
    return array.to_pandas()


class UserAggregate(ScalarEvaluator):
    """A user-defined aggregate function over one group's values: ``create()`` an
    accumulator, ``add(acc, values)`` one row's arguments, ``value(acc)`` the result. A
    pandas one keeps the rows and calls the function on their Series."""

    def __init__(self, wrapper, arg_types: List[DataType], result_type: DataType):
        super().__init__(wrapper, arg_types, result_type)
        self.pandas = wrapper.func_type == "pandas"
        # a table aggregate function: its accumulator with the count of rows added, its
        # value the rows ``emit_value`` yields with that count
        self.table = getattr(wrapper, "is_table_aggregate", False)

    def _open(self) -> None:
        if isinstance(self.function, UserDefinedFunction):
            try:
                self.function.open(self.options.context(self.label, self.name))
            except Exception as e:  # noqa: BLE001 - the user's error, in open()
                raise operator_failure(e, self.label + " open()") from None
        # the common case: arguments reach the function as they are
        self._plain = not any(isinstance(t, RowType) or not _plain(t, "python_value")
                              for t in self.arg_types)
        self._opened = True

    def create(self):
        if not self._opened:
            self._open()
        if self.pandas:
            return []
        try:
            acc = self.function.create_accumulator()
        except Exception as e:  # noqa: BLE001 - the user's error
            raise operator_failure(e, self.label) from None
        return [acc, 0] if self.table else acc

    def add(self, acc, values) -> Any:
        if self.pandas:
            acc.append([_argument(t, v) for t, v in zip(self.arg_types, values)])
            return acc
        return self._step("accumulate", acc, values)

    def add_all(self, acc, columns: List[list], n: int) -> Any:
        """``n`` rows' arguments (a list of values per argument) into the accumulator, in
        order: the common case calls ``accumulate`` in a tight loop."""
        if not self._opened:
            self._open()
        rows = zip(*columns) if columns else [()] * n
        if self.pandas or self.table or not self._plain:
            for values in rows:
                acc = self.add(acc, values)
            return acc
        accumulate, values = self.function.accumulate, ()
        try:
            for values in rows:
                accumulate(acc, *values)
        except Exception as e:  # noqa: BLE001 - the user's error, reported with its row
            raise operator_failure(e, self.label, tuple(values)) from None
        return acc

    @property
    def retracts(self) -> bool:
        """Whether the function has ``retract`` (it can aggregate an updating table)."""
        base = TableAggregateFunction if self.table else AggregateFunction
        return not self.pandas and getattr(type(self.function), "retract", None) is not \
            getattr(base, "retract", None)

    def retract(self, acc, values) -> Any:
        """Take one row's arguments away (a -U or -D of an updating input)."""
        return self._step("retract", acc, values)

    def _step(self, method: str, acc, values) -> Any:
        """One row's arguments into (``accumulate``) or out of (``retract``) the
        accumulator; a table aggregate's count of changes grows either way."""
        if not self._opened:  # a key's accumulator restored from state, in a new task
            self._open()
        args = values if self._plain else [_argument(t, v)
                                           for t, v in zip(self.arg_types, values)]
        try:
            if self.table:
                getattr(self.function, method)(acc[0], *args)
                acc[1] += 1
            else:
                getattr(self.function, method)(acc, *args)
        except Exception as e:  # noqa: BLE001 - the user's error, reported with its row
            raise operator_failure(e, self.label, tuple(args)) from None
        return acc

    def value(self, acc) -> Any:
        """The result of an accumulator (a pandas function's: of its rows, as Series)."""
        import pandas as pd


        if self.pandas:
            columns = list(zip(*acc)) if acc else [[] for _ in self.arg_types]
            return self._of_series([
                pd.DataFrame([list(v) for v in c], columns=list(t.field_names()))
                if isinstance(t, RowType) else pd.Series(list(c))
                for c, t in zip(columns, self.arg_types)])
        try:
            result = (acc[1], [_as_row(r) for r in self.function.emit_value(acc[0]) or ()]) \
                if self.table else self.function.get_value(acc)
        except Exception as e:  # noqa: BLE001 - the user's error
            raise operator_failure(e, self.label) from None
        return self.result_type.spark_value(result)

    def _of_series(self, series: list) -> Any:
        function = self.function
        try:
            if callable(function):
                result = function(*series)
            else:  # an AggregateFunction given as a pandas one: its accumulate gets Series
                acc = function.create_accumulator()
                function.accumulate(acc, *series)
                result = function.get_value(acc)
        except Exception as e:  # noqa: BLE001 - the user's error
            raise operator_failure(e, self.label) from None
        return self.result_type.spark_value(result)

    def __call__(self, *arrays):
        """One group (a grouped-aggregate Arrow UDF): its arrays of arguments (a pandas
        function gets them as Series, as Spark's pandas UDFs would)."""
        if not self._opened:
            self._open()
        if self.pandas:
            result = self._of_series([_pandas_argument(a, t)
                                      for a, t in zip(arrays, self.arg_types)])
        else:
            acc = self.create()
            for values in zip(*[a.to_pylist() for a in arrays]):
                acc = self.add(acc, list(values))
            result = self.value(acc)
        return _arrow_value(self.result_type, result)


def shipped_evaluator(evaluator: ScalarEvaluator):
    """An evaluator as sent to the workers, with its job's Python dependencies."""
    return evaluator.options.ship(evaluator)


def aggregate_udf_column(wrapper, args: List[Column], arg_types: List[DataType]) -> Column:
    """The grouped-aggregate Arrow UDF running ``wrapper``'s aggregate function (Arrow's,
    not pandas': it may give a ROW)."""
    import warnings

    from pyspark.sql.functions import ArrowUDFType

    with warnings.catch_warnings():  # the function type, not type hints: PySpark's warning
        warnings.simplefilter("ignore")
        run = F.arrow_udf(shipped_evaluator(UserAggregate(wrapper, arg_types,
                                                          wrapper.result_type)),
                          wrapper.result_type.spark_type(), ArrowUDFType.GROUPED_AGG)
    return run(*args)


class CollectedAggregate:
    """A Python aggregate over the lists of its groups' arguments, which Spark's own
    ``collect_list`` gathered (a scalar Arrow UDF: a list per group in, a value out).
    Session windows take this path: Spark merges sessions right with its own aggregates."""

    def __init__(self, aggregate: UserAggregate):
        self.aggregate = aggregate
        self.options = aggregate.options

    def __call__(self, lists):
        import pyarrow as pa
        from pyspark.sql.pandas.types import to_arrow_type

        rows, offsets = lists.values, lists.offsets.to_pylist()
        out = [self.aggregate(*[rows.field(i).slice(start, end - start)
                                for i in range(rows.type.num_fields)])
               for start, end in zip(offsets, offsets[1:])]
        return pa.array(out, to_arrow_type(self.aggregate.result_type.spark_type(),
                                           timezone="UTC"))


def collected_aggregate_columns(wrapper, args: List[Column],
                                arg_types: List[DataType]) -> Tuple[Column, Any]:
    """(Spark's ``collect_list`` of a Python aggregate's arguments, a function giving the
    aggregate's value of such a list column); see ``CollectedAggregate``."""
    import warnings

    from pyspark.sql.functions import ArrowUDFType

    collected = F.collect_list(F.struct(*[a.alias("a%d" % i) for i, a in enumerate(args)]))
    aggregate = UserAggregate(wrapper, arg_types, wrapper.result_type)
    with warnings.catch_warnings():  # the function type, not type hints: PySpark's warning
        warnings.simplefilter("ignore")
        fold = F.arrow_udf(shipped_evaluator(CollectedAggregate(aggregate)),
                           wrapper.result_type.spark_type(), ArrowUDFType.SCALAR)
    return collected, fold


def _plain(data_type: DataType, method: str) -> bool:
    """Whether ``data_type``'s ``python_value`` / ``spark_value`` leaves values as they are
    (DataType's own), so a value crosses without conversion."""
    return getattr(type(data_type), method) is getattr(DataType, method)


def _arrow_value(data_type: DataType, value: Any) -> Any:
    """A Spark value as Arrow builds it: ROWs as dicts (Arrow's structs), in arrays too."""
    if value is None:
        return None
    if isinstance(data_type, RowType):
        return {f.name: _arrow_value(f.data_type, v) for f, v in zip(data_type.fields, value)}
    if isinstance(data_type, T.ArrayType):
        return [_arrow_value(data_type.element_type, v) for v in value]
    return value


def _python_kinds(data_type: DataType) -> Optional[tuple]:
    """The Python types a result of ``data_type`` may have, where Arrow would be lenient or
    fail without naming the function (None: any)."""
    import numbers


    if isinstance(data_type, (T.TinyIntType, T.SmallIntType, T.IntType, T.BigIntType)):
        return (numbers.Integral,)
    if isinstance(data_type, (T.FloatType, T.DoubleType)):
        return (numbers.Real,)
    if isinstance(data_type, (T.CharType, T.VarCharType)):
        return (str,)
    if isinstance(data_type, T.BooleanType):
        import numpy

        return (bool, numpy.bool_)
    return None


def _argument(data_type: DataType, value: Any) -> Any:
    """A value as a user function receives it: ROWs are Rows with their field names (a
    function given the whole row reads ``row.name``)."""
    result = data_type.python_value(value)
    if isinstance(data_type, RowType) and result is not None:
        result.set_field_names(data_type.names)
    return result


def _as_row(item: Any):
    """A yielded row: a Row, tuple or list as it is, any other value a one-field row."""
    return item if isinstance(item, (tuple, list)) or hasattr(item, "get_row_kind") \
        else (item,)


def table_udf_column(wrapper, args: List[Column], arg_types: List[DataType]) -> Column:
    """An array of the rows a table function gives for ``args`` (to be exploded)."""
    from pyspark.sql import types as st

    row = wrapper.result_type
    run = F.udf(shipped_evaluator(TableEvaluator(wrapper, arg_types, row)),
                st.ArrayType(row.spark_type()), useArrow=True)
    return run(*args)


def scalar_udf_column(wrapper, args: List[Column], arg_types: List[DataType]) -> Column:
    """The Spark column calling ``wrapper``'s function on ``args``."""
    result = wrapper.result_type
    if is_async(wrapper.function):
        run = F.arrow_udf(shipped_evaluator(AsyncEvaluator(wrapper, arg_types, result)),
                          result.spark_type())
    elif wrapper.func_type == "pandas":
        run = F.pandas_udf(shipped_evaluator(PandasEvaluator(wrapper, arg_types, result)),
                           result.spark_type())
    else:
        run = F.udf(shipped_evaluator(ScalarEvaluator(wrapper, arg_types, result)),
                    result.spark_type(), useArrow=True)
    if not wrapper._deterministic:
        run = run.asNondeterministic()
    return run(*args)
