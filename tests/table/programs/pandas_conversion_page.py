"""Flink's "Conversions between PyFlink Table and Pandas DataFrame" page: from_pandas with
no schema, with names, with types and with a ROW type, and to_pandas of the results, with
NULLs and the types a DataFrame holds (integers, floats, strings, booleans, dates, times
and timestamps, decimals, arrays)."""
import datetime
from decimal import Decimal

import pandas as pd
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
pdf = pd.DataFrame({"f0": [0.25, 0.75, 0.5, 1.0], "f1": [1.5, 2.5, 3.5, 4.5]})

table = t_env.from_pandas(pdf)
table.print_schema()
print(table.filter(col("f0") > 0.5).to_pandas())
table = t_env.from_pandas(pdf, ["a", "b"])
table.print_schema()
table = t_env.from_pandas(pdf, [DataTypes.DOUBLE(), DataTypes.FLOAT()])
table.print_schema()
print(table.to_pandas().dtypes.to_dict())
table = t_env.from_pandas(pdf, DataTypes.ROW([DataTypes.FIELD("x", DataTypes.DOUBLE()),
                                              DataTypes.FIELD("y", DataTypes.DOUBLE())]))
table.print_schema()
print(table.select(col("x") + col("y")).to_pandas())

mixed = pd.DataFrame({
    "s": ["tea", None, "cake"],
    "b": [True, False, None],
    "d": [1.5, None, float("nan")],
})
table = t_env.from_pandas(mixed, ["s", "b", "d"])
table.print_schema()
table.execute().print()
result = table.to_pandas()
print(result)
print(result.dtypes.to_dict())

rows = t_env.from_elements(
    [(1, "a", datetime.date(2024, 1, 2), datetime.datetime(2024, 1, 2, 3, 4, 5, 678000),
      Decimal("1.50"), [1, 2], True),
     (2, None, None, None, None, None, None)],
    DataTypes.ROW([DataTypes.FIELD("id", DataTypes.INT()),
                   DataTypes.FIELD("s", DataTypes.STRING()),
                   DataTypes.FIELD("d", DataTypes.DATE()),
                   DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)),
                   DataTypes.FIELD("m", DataTypes.DECIMAL(10, 2)),
                   DataTypes.FIELD("arr", DataTypes.ARRAY(DataTypes.INT())),
                   DataTypes.FIELD("ok", DataTypes.BOOLEAN())]))
result = rows.to_pandas()
print(result)
print({k: str(v) for k, v in result.dtypes.to_dict().items()})
print([type(v).__name__ for v in result.iloc[0]])
print(t_env.from_pandas(result.iloc[:1]).to_pandas())
