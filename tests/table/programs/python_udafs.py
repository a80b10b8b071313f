"""Python aggregate functions (udaf): an AggregateFunction (a weighted average) and a pandas
one, in STREAMING mode (the changelog) and BATCH mode (pandas), with built-ins beside them."""
from pyflink.common import Row
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col
from pyflink.table.udf import AggregateFunction, udaf


class WeightedAvg(AggregateFunction):

    def create_accumulator(self):
        return Row(0, 0)

    def get_value(self, accumulator):
        if accumulator[1] == 0:
            return None
        return accumulator[0] / accumulator[1]

    def accumulate(self, accumulator, value, weight):
        accumulator[0] += value * weight
        accumulator[1] += weight

    def get_accumulator_type(self):
        return DataTypes.ROW([DataTypes.FIELD("f0", DataTypes.BIGINT()),
                              DataTypes.FIELD("f1", DataTypes.BIGINT())])

    def get_result_type(self):
        return DataTypes.DOUBLE()


rows = [(1, "a", 2, 1), (2, "b", 5, 2), (3, "a", 4, 3), (4, "b", 1, 1), (5, "a", 6, 1)]
names = ["id", "k", "v", "w"]

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
weighted_avg = udaf(WeightedAvg())
t = t_env.from_elements(rows, names)
t.group_by(col("k")).select(col("k"), weighted_avg(col("v"), col("w")).alias("wavg"),
                            col("v").sum.alias("total")).execute().print()
t_env.create_temporary_function("wavg", weighted_avg)
t_env.create_temporary_view("t", t)
t_env.execute_sql("SELECT k, wavg(v, w) AS x FROM t GROUP BY k").print()

small = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
small.get_config().set("parallelism.default", "1")
small.get_config().set("python.fn-execution.bundle.size", "2")
small.from_elements(rows, names).group_by(col("k")).select(
    col("k"), weighted_avg(col("v"), col("w")).alias("wavg")).execute().print()

b_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
b_env.get_config().set("parallelism.default", "1")
mean = udaf(lambda v: v.mean(), result_type=DataTypes.DOUBLE(), func_type="pandas")
spread = udaf(lambda v, w: float((v * w).max() - (v * w).min()),
              result_type=DataTypes.DOUBLE(), func_type="pandas")
bt = b_env.from_elements(rows, names)
bt.group_by(col("k")).select(col("k"), mean(col("v")).alias("m"), spread(col("v"), col("w")),
                             ).order_by(col("k")).execute().print()
