"""User-defined scalar functions -> Spark Python UDFs (Arrow-batched; pandas ones as
``pandas_udf``). Values cross as PyFlink hands them to Python: a ROW argument is a ``Row``,
a TIMESTAMP a ``datetime``; a failing function names itself, its line and the row."""
from __future__ import annotations

from typing import Any, List

from pyspark.sql import Column
from pyspark.sql import functions as F

from pystream.runtime.records import is_missing
from pystream.table.types import DataType, RowType
from pystream.table.udf import FunctionContext, UserDefinedFunction, python_callable

__all__ = ["scalar_udf_column", "table_udf_column"]


class ScalarEvaluator:
    """Calls the user's function on one row's values (shipped to Spark's Python workers);
    ``open()`` runs once per worker before the first call."""

    def __init__(self, wrapper, arg_types: List[DataType], result_type: DataType):
        self.function = wrapper.function
        self.label = wrapper.label
        self.arg_types = arg_types
        self.result_type = result_type
        self._opened = False

    def _open(self) -> None:
        if isinstance(self.function, UserDefinedFunction):
            self.function.open(FunctionContext())
        self._call = python_callable(self.function)
        self._opened = True

    def __call__(self, *values: Any) -> Any:
        from pystream.runtime.errors import operator_failure

        if not self._opened:
            self._open()
        args = [_argument(t, v) for t, v in zip(self.arg_types, values)]
        try:
            return self.result_type.spark_value(self._call(*args))
        except Exception as e:  # noqa: BLE001 - the user's error, reported with its row
            raise operator_failure(e, self.label, tuple(args)) from None


class PandasEvaluator(ScalarEvaluator):
    """A pandas function: Series in, a Series (or a scalar) of the same length out."""

    def __call__(self, *series):
        import pandas as pd

        from pystream.runtime.errors import operator_failure

        if not self._opened:
            self._open()
        try:
            result = self._call(*series)
        except Exception as e:  # noqa: BLE001 - the user's error, reported with its row
            raise operator_failure(e, self.label) from None
        if not isinstance(result, pd.Series):
            result = pd.Series([result] * len(series[0]) if series else [result])
        return result


class TableEvaluator(ScalarEvaluator):
    """Calls a table function on one row's values: the rows it yields, as a list of tuples
    (a single value yielded is a one-field row)."""

    def __call__(self, *values: Any) -> Any:
        from pystream.runtime.errors import operator_failure

        if not self._opened:
            self._open()
        args = [_argument(t, v) for t, v in zip(self.arg_types, values)]
        try:
            produced = self._call(*args)
            rows = [] if produced is None else list(produced)
        except Exception as e:  # noqa: BLE001 - the user's error, reported with its row
            raise operator_failure(e, self.label, tuple(args)) from None
        return [self.result_type.spark_value(_as_row(r)) for r in rows]


class UserAggregate(ScalarEvaluator):
    """A user-defined aggregate function over one group's values: ``create()`` an
    accumulator, ``add(acc, values)`` one row's arguments, ``value(acc)`` the result. A
    pandas one keeps the rows and calls the function on their Series."""

    def __init__(self, wrapper, arg_types: List[DataType], result_type: DataType):
        super().__init__(wrapper, arg_types, result_type)
        self.pandas = wrapper.func_type == "pandas"

    def _open(self) -> None:
        if isinstance(self.function, UserDefinedFunction):
            self.function.open(FunctionContext())
        self._opened = True

    def create(self):
        from pystream.runtime.errors import operator_failure

        if not self._opened:
            self._open()
        if self.pandas:
            return []
        try:
            return self.function.create_accumulator()
        except Exception as e:  # noqa: BLE001 - the user's error
            raise operator_failure(e, self.label) from None

    def add(self, acc, values) -> Any:
        from pystream.runtime.errors import operator_failure

        args = [_argument(t, v) for t, v in zip(self.arg_types, values)]
        if self.pandas:
            acc.append(args)
            return acc
        try:
            self.function.accumulate(acc, *args)
        except Exception as e:  # noqa: BLE001 - the user's error, reported with its row
            raise operator_failure(e, self.label, tuple(args)) from None
        return acc

    def value(self, acc) -> Any:
        import pandas as pd

        from pystream.runtime.errors import operator_failure

        try:
            if self.pandas:
                columns = list(zip(*acc)) if acc else [[] for _ in self.arg_types]
                result = self.function(*[pd.Series(list(c)) for c in columns])
            else:
                result = self.function.get_value(acc)
        except Exception as e:  # noqa: BLE001 - the user's error
            raise operator_failure(e, self.label) from None
        return self.result_type.spark_value(result)

    def __call__(self, *series):
        """One group (a grouped-aggregate pandas UDF): its Series of arguments."""
        acc = self.create()
        for values in zip(*[s.tolist() for s in series]):
            acc = self.add(acc, [None if is_missing(v) else v for v in values])
        return self.value(acc)


def aggregate_udf_column(wrapper, args: List[Column], arg_types: List[DataType]) -> Column:
    """The grouped-aggregate pandas UDF running ``wrapper``'s aggregate function."""
    import warnings

    from pyspark.sql.functions import PandasUDFType

    with warnings.catch_warnings():  # the function type, not type hints: PySpark's warning
        warnings.simplefilter("ignore")
        run = F.pandas_udf(UserAggregate(wrapper, arg_types, wrapper.result_type),
                           wrapper.result_type.spark_type(), PandasUDFType.GROUPED_AGG)
    return run(*args)


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
    run = F.udf(TableEvaluator(wrapper, arg_types, row), st.ArrayType(row.spark_type()),
                useArrow=True)
    return run(*args)


def scalar_udf_column(wrapper, args: List[Column], arg_types: List[DataType]) -> Column:
    """The Spark column calling ``wrapper``'s function on ``args``."""
    result = wrapper.result_type
    if wrapper.func_type == "pandas":
        run = F.pandas_udf(PandasEvaluator(wrapper, arg_types, result), result.spark_type())
    else:
        run = F.udf(ScalarEvaluator(wrapper, arg_types, result), result.spark_type(),
                    useArrow=True)
    if not wrapper._deterministic:
        run = run.asNondeterministic()
    return run(*args)
