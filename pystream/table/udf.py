"""User-defined functions of the Table API (``pyflink.table.udf``).

``udf`` makes a scalar function usable in ``select``, ``where`` and SQL: a plain function, a
lambda, a callable or a ``ScalarFunction``, with ``func_type='pandas'`` for one taking and
returning pandas Series. Calling the wrapper with expressions builds a ``UserCall`` node; the
compiler runs it as an Arrow-batched Spark Python UDF (``pystream.compiler.udfs``), so Python
runs only where the program wrote Python.

>>> add_one = udf(lambda i: i + 1, result_type=DataTypes.BIGINT())
>>> table.select(add_one(col('a')))                             # doctest: +SKIP

An ``AsyncScalarFunction`` (or an ``async def``) is a scalar function whose calls wait on
I/O: each batch of rows has many calls in flight at once, its results in the rows' order,
with the ``table.exec.async-scalar.*`` options' capacity, timeout and retries.

``udtf`` makes a table function (``join_lateral``, ``flat_map``), run as a Spark UDF giving
an array of rows that is exploded; ``udaf`` an aggregate function (``group_by().select()``,
``aggregate``, group and over windows, SQL); ``udtaf`` a table aggregate function
(``flat_aggregate``), run as an aggregate whose value is the rows it emits, then exploded.
"""
from __future__ import annotations

import functools
import inspect
from typing import Callable, List, Optional, Union

from pystream.common.data_types import DataType, DataTypes, RowField, RowType
from pystream.core.udf import (
    AggregateFunction,
    AsyncScalarFunction,
    FunctionContext,
    ImperativeAggregateFunction,
    ScalarFunction,
    TableAggregateFunction,
    TableFunction,
    UserDefinedFunction,
    is_async,
)
from pystream.relational import expressions as ex
from pystream.table.expression import Expression, to_node

__all__ = ["FunctionContext", "UserDefinedFunction", "ScalarFunction", "AsyncScalarFunction",
           "TableFunction", "ImperativeAggregateFunction",
           "AggregateFunction", "TableAggregateFunction", "udf", "udtf", "udaf", "udtaf",
           "UserDefinedScalarFunctionWrapper", "UserDefinedTableFunctionWrapper"]


def _data_type(value: Union[DataType, str, None]) -> Optional[DataType]:
    if isinstance(value, str):
        from pystream.sql.types import parse_data_type

        return parse_data_type(value)
    return value


def _defined_at() -> str:
    """``file.py:12``: where the program made the function (for its errors)."""
    here = __file__
    for frame in inspect.stack()[2:]:
        if frame.filename != here and "functools" not in frame.filename:
            return "%s:%d" % (frame.filename.rsplit("/", 1)[-1], frame.lineno)
    return "?"


class UserDefinedScalarFunctionWrapper:
    """A scalar function ready for use: call it with expressions (``f(col('a'))``)."""

    kind = "ScalarFunction"  # how errors name it

    @property
    def _kind(self) -> str:
        return "AsyncScalarFunction" if is_async(self._func) else self.kind

    def __init__(self, func: Union[Callable, ScalarFunction], input_types, result_type,
                 func_type: str = "general", deterministic: Optional[bool] = None,
                 name: Optional[str] = None):
        if result_type is None:
            raise TypeError("Invalid returnType: returnType should be DataType or str but is "
                            "None")
        if func_type not in ("general", "pandas"):
            raise ValueError("The func_type must be one of 'general, pandas', got %s."
                             % func_type)
        if func_type == "pandas" and is_async(func):
            raise ValueError("Async scalar functions do not support pandas func_type. Please "
                             "use func_type='general' (default) for async functions.")
        self._func = func
        self._input_types = [_data_type(t) for t in input_types] if isinstance(
            input_types, (list, tuple)) else ([_data_type(input_types)] if input_types else None)
        self._result_type = _data_type(result_type)
        self._func_type = func_type
        self._deterministic = deterministic if deterministic is not None else (
            func.is_deterministic() if isinstance(func, UserDefinedFunction) else True)
        self._name = name or _function_name(func)
        self._defined_at = _defined_at()

    @property
    def result_type(self) -> DataType:
        return self._result_type

    @property
    def func_type(self) -> str:
        return self._func_type

    @property
    def name(self) -> str:
        return self._name

    @property
    def label(self) -> str:
        """How errors name it: ``ScalarFunction 'add_one' (job.py:7)``."""
        return "%s '%s' (%s)" % (self._kind, self._name, self._defined_at)

    @property
    def function(self) -> Union[Callable, ScalarFunction]:
        return self._func

    def __call__(self, *args):
        return Expression(ex.UserCall(self, tuple(to_node(a) for a in args)))

    def __repr__(self) -> str:
        return "<udf %s -> %s>" % (self._name, self._result_type.summary_string())


class UserDefinedTableFunctionWrapper:
    """A table function ready for use: ``f(col('a'))`` in ``join_lateral``, or ``f`` alone
    in ``flat_map`` (called with the whole row); ``f.alias('x')`` names its fields."""

    is_table_function = True

    def __init__(self, func: Union[Callable, TableFunction], input_types, result_types,
                 deterministic: Optional[bool] = None, name: Optional[str] = None):
        if result_types is None:
            raise TypeError("Invalid result_types: result_types should be a list of DataType "
                            "or str but is None")
        self._func = func
        self._result_type = _row_of(result_types)
        self._deterministic = True if deterministic is None else deterministic
        self._name = name or _function_name(func)
        self._defined_at = _defined_at()

    @property
    def result_type(self) -> RowType:
        """The rows it gives, as a ROW (fields ``f0``, ``f1``, ... unless named)."""
        return self._result_type

    @property
    def function(self) -> Union[Callable, TableFunction]:
        return self._func

    @property
    def name(self) -> str:
        return self._name

    @property
    def label(self) -> str:
        return "TableFunction '%s' (%s)" % (self._name, self._defined_at)

    def __call__(self, *args):
        return Expression(ex.UserCall(self, tuple(to_node(a) for a in args)))

    def alias(self, *names: str):
        return self().alias(*names)

    def __repr__(self) -> str:
        return "<udtf %s -> %s>" % (self._name, self._result_type.summary_string())


class UserDefinedAggregateFunctionWrapper(UserDefinedScalarFunctionWrapper):
    """An aggregate function ready for use in ``group_by(...).select(...)``, group windows and
    SQL: an ``AggregateFunction`` (accumulator per group), or with ``func_type='pandas'`` a
    function from the group's Series to one value."""

    is_aggregate_function = True
    kind = "AggregateFunction"

    def __init__(self, func, input_types, result_type, accumulator_type=None,
                 func_type: str = "general", deterministic: Optional[bool] = None,
                 name: Optional[str] = None):
        if isinstance(func, AggregateFunction):
            result_type = result_type or func.get_result_type()
            accumulator_type = accumulator_type or func.get_accumulator_type()
        elif func_type == "general":
            raise TypeError("Invalid function: %s (a general udaf is an AggregateFunction; a "
                            "function of Series is func_type='pandas')" % (func,))
        super().__init__(func, input_types, result_type, func_type, deterministic, name)
        self._accumulator_type = _data_type(accumulator_type)

    def alias(self, *names: str):
        """The function called with the whole row, its result's fields named ``names``
        (``group_by(...).aggregate(agg.alias('c', 'd'))``)."""
        return self().alias(*names)

    def __repr__(self) -> str:
        return "<udaf %s -> %s>" % (self._name, self._result_type.summary_string())


class UserDefinedTableAggregateFunctionWrapper(UserDefinedAggregateFunctionWrapper):
    """A table aggregate function ready for ``flat_aggregate``: per group, an accumulator;
    ``emit_value`` yields the group's rows. As an aggregate call its value is the rows
    (``__rows``) with the number of rows accumulated (``__n``), so each new row makes a new
    result, as Flink emits one per record."""

    is_table_aggregate = True
    kind = "TableAggregateFunction"

    def __init__(self, func, input_types, result_type, accumulator_type=None,
                 deterministic: Optional[bool] = None, name: Optional[str] = None):
        if not isinstance(func, TableAggregateFunction):
            raise TypeError("Invalid function: %s (a udtaf is a TableAggregateFunction)"
                            % (func,))
        result_type = result_type or func.get_result_type()
        accumulator_type = accumulator_type or func.get_accumulator_type()
        UserDefinedScalarFunctionWrapper.__init__(self, func, input_types, result_type,
                                                  "general", deterministic, name)
        self._accumulator_type = _data_type(accumulator_type)
        self.row_type = _row_of(self._result_type)

    @property
    def result_type(self) -> DataType:
        return DataTypes.ROW([DataTypes.FIELD("__n", DataTypes.BIGINT()),
                              DataTypes.FIELD("__rows", DataTypes.ARRAY(self.row_type))])

    def __repr__(self) -> str:
        return "<udtaf %s -> %s>" % (self._name, self.row_type.summary_string())


def _row_of(result_types) -> RowType:
    if isinstance(result_types, (DataType, str)):
        result_types = [result_types]
    types = [_data_type(t) for t in result_types]
    if len(types) == 1 and isinstance(types[0], RowType):
        return types[0]
    return RowType([RowField("f%d" % i, t) for i, t in enumerate(types)])


def _function_name(func) -> str:
    if isinstance(func, functools.partial):
        func = func.func
    name = getattr(func, "__name__", None) or type(func).__name__
    return name


def udf(f: Union[Callable, ScalarFunction, None] = None, input_types=None,
        result_type: Union[DataType, str, None] = None, deterministic: Optional[bool] = None,
        name: Optional[str] = None, func_type: str = "general"):
    """A scalar function from a function, lambda, callable or ScalarFunction; also a
    decorator (``@udf(result_type='BIGINT')``)."""
    if f is None:
        return functools.partial(udf, input_types=input_types, result_type=result_type,
                                 deterministic=deterministic, name=name, func_type=func_type)
    return UserDefinedScalarFunctionWrapper(f, input_types, result_type, func_type,
                                            deterministic, name)


def udtf(f: Union[Callable, TableFunction, None] = None, input_types=None, result_types=None,
         deterministic: Optional[bool] = None, name: Optional[str] = None):
    """A table function from a generator function, callable or TableFunction; also a
    decorator (``@udtf(result_types=[DataTypes.STRING()])``)."""
    if f is None:
        return functools.partial(udtf, input_types=input_types, result_types=result_types,
                                 deterministic=deterministic, name=name)
    return UserDefinedTableFunctionWrapper(f, input_types, result_types, deterministic, name)


def udaf(f=None, input_types=None, result_type=None, accumulator_type=None,
         deterministic: Optional[bool] = None, name: Optional[str] = None,
         func_type: str = "general"):
    """An aggregate function: ``udaf(MyAggregateFunction(), result_type=...)``, or a pandas
    one, ``udaf(lambda s: s.mean(), result_type=..., func_type='pandas')``; also a
    decorator."""
    if f is None:
        return functools.partial(udaf, input_types=input_types, result_type=result_type,
                                 accumulator_type=accumulator_type,
                                 deterministic=deterministic, name=name, func_type=func_type)
    return UserDefinedAggregateFunctionWrapper(f, input_types, result_type, accumulator_type,
                                               func_type, deterministic, name)
def udtaf(f=None, input_types=None, result_type=None, accumulator_type=None,
          deterministic: Optional[bool] = None, name: Optional[str] = None,
          func_type: str = "general"):
    """A table aggregate function for ``flat_aggregate``: ``udtaf(MyTop2())``, the types from
    here or from ``get_result_type``/``get_accumulator_type``; also a decorator."""
    if func_type != "general":
        raise ValueError("The func_type must be 'general' for a table aggregate function, "
                         "got %s." % func_type)
    if f is None:
        return functools.partial(udtaf, input_types=input_types, result_type=result_type,
                                 accumulator_type=accumulator_type,
                                 deterministic=deterministic, name=name)
    return UserDefinedTableAggregateFunctionWrapper(f, input_types, result_type,
                                                    accumulator_type, deterministic, name)


def input_types_of(wrapper: UserDefinedScalarFunctionWrapper) -> Optional[List[DataType]]:
    return wrapper._input_types
