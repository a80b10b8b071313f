"""A Python aggregate function over an updating table (STREAMING, bundle size 1): its
``retract`` takes away the rows the input retracts (-U, -D); a group left without rows is
deleted (-D)."""
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.udf import AggregateFunction, udaf


class SumAndCount(AggregateFunction):
    def get_value(self, accumulator):
        return "%d/%d" % (accumulator[0], accumulator[1])

    def create_accumulator(self):
        return [0, 0]

    def accumulate(self, accumulator, value):
        accumulator[0] += value
        accumulator[1] += 1

    def retract(self, accumulator, value):
        accumulator[0] -= value
        accumulator[1] -= 1

    def get_accumulator_type(self):
        return DataTypes.ARRAY(DataTypes.BIGINT())

    def get_result_type(self):
        return DataTypes.STRING()


t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.get_config().set("python.fn-execution.bundle.size", "1")
t_env.create_temporary_function("sum_and_count", udaf(SumAndCount()))
t_env.create_temporary_view("sales", t_env.from_elements(
    [("a", 1), ("b", 2), ("a", 3), ("b", 4), ("c", 5), ("a", 5)], ["name", "v"]))
t_env.execute_sql("""SELECT MOD(total, 2) AS parity, sum_and_count(total) AS s FROM (
    SELECT name, SUM(v) AS total FROM sales GROUP BY name) GROUP BY MOD(total, 2)""").print()
