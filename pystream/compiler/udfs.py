"""User-defined scalar functions -> Spark Python UDFs (Arrow-batched; pandas ones as
``pandas_udf``). Values cross as PyFlink hands them to Python: a ROW argument is a ``Row``,
a TIMESTAMP a ``datetime``; a failing function names itself, its line and the row."""
from __future__ import annotations

from typing import Any, List

from pyspark.sql import Column
from pyspark.sql import functions as F

from pystream.table.types import DataType
from pystream.table.udf import FunctionContext, UserDefinedFunction, python_callable

__all__ = ["scalar_udf_column"]


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
        args = [t.python_value(v) for t, v in zip(self.arg_types, values)]
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
