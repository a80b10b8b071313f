"""``group_by(...).aggregate(agg.alias(...))`` and ``Table.aggregate``: a Python aggregate
function with a ROW result, given the whole row or named arguments; its fields become
columns (STREAMING, the changelog at bundle size 1)."""
from pyflink.common import Row
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col
from pyflink.table.udf import AggregateFunction, udaf


class CountAndSum(AggregateFunction):
    def get_value(self, accumulator):
        return Row(accumulator[0], accumulator[1])

    def create_accumulator(self):
        return Row(0, 0)

    def accumulate(self, accumulator, row):
        accumulator[0] += 1
        accumulator[1] += row.b

    def get_accumulator_type(self):
        return DataTypes.ROW([DataTypes.FIELD("a", DataTypes.BIGINT()),
                              DataTypes.FIELD("b", DataTypes.BIGINT())])

    def get_result_type(self):
        return DataTypes.ROW([DataTypes.FIELD("a", DataTypes.BIGINT()),
                              DataTypes.FIELD("b", DataTypes.BIGINT())])


class MinMax(AggregateFunction):
    def get_value(self, accumulator):
        return Row(accumulator[0], accumulator[1])

    def create_accumulator(self):
        return [None, None]

    def accumulate(self, accumulator, value):
        accumulator[0] = value if accumulator[0] is None else min(accumulator[0], value)
        accumulator[1] = value if accumulator[1] is None else max(accumulator[1], value)

    def get_accumulator_type(self):
        return DataTypes.ARRAY(DataTypes.BIGINT())

    def get_result_type(self):
        return DataTypes.ROW([DataTypes.FIELD("low", DataTypes.BIGINT()),
                              DataTypes.FIELD("high", DataTypes.BIGINT())])


t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.get_config().set("python.fn-execution.bundle.size", "1")
t = t_env.from_elements([(1, 2), (2, 3), (1, 5), (2, 7), (1, 1)], ["a", "b"])
function = CountAndSum()
count_sum = udaf(function, result_type=function.get_result_type(),
                 accumulator_type=function.get_accumulator_type(), name="CountAndSum")
t.group_by(col("a")).aggregate(count_sum.alias("c", "d")) \
    .select(col("a"), col("c"), col("d")).execute().print()
min_max = udaf(MinMax())
t.group_by(col("a")).aggregate(min_max(col("b")).alias("low", "high")) \
    .select(col("a"), col("low"), col("high")) \
    .execute().print()
t.aggregate(min_max(col("b")).alias("x", "y")).select(col("x"), col("y")).execute().print()
