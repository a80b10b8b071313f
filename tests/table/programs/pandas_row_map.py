"""Row-based map with a pandas UDF, as Flink's docs teach it: the function gets the rows as a
pandas.DataFrame (the columns by name) and returns a DataFrame of the ROW result."""
import pandas as pd
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.udf import udf

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
table = t_env.from_elements([(1, 'Hi'), (2, 'Hello')], ['id', 'data'])


@udf(result_type=DataTypes.ROW([DataTypes.FIELD("id", DataTypes.BIGINT()),
                                DataTypes.FIELD("data", DataTypes.STRING())]),
     func_type="pandas")
def func2(data: pd.DataFrame) -> pd.DataFrame:
    return pd.concat([data.id * 10, data.data * 2], axis=1)


table.map(func2).execute().print()
table.map(func2).alias("a", "b").execute().print()
