"""A pandas UDAF given as an AggregateFunction instance (PyFlink's own test's MaxAdd):
``accumulate`` gets each argument's Series of the group, ``get_value`` gives the result;
in a group-by, a tumbling window and an OVER window."""
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col
from pyflink.table.udf import AggregateFunction, udaf


class MaxAdd(AggregateFunction):
    def open(self, function_context):
        self.calls = 0

    def get_value(self, accumulator):
        self.calls += 1
        return accumulator[0]

    def create_accumulator(self):
        return []

    def accumulate(self, accumulator, *args):
        result = 0
        for arg in args:
            result += arg.max()
        accumulator.append(result)


max_add = udaf(MaxAdd(), result_type=DataTypes.INT(), func_type="pandas")
t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t = t_env.from_elements([(1, 2, 3), (3, 2, 1), (1, 5, 4), (2, 1, 1)],
                        DataTypes.ROW([DataTypes.FIELD("a", DataTypes.INT()),
                                       DataTypes.FIELD("b", DataTypes.INT()),
                                       DataTypes.FIELD("c", DataTypes.INT())]))
t.group_by(col("a")).select(col("a"), max_add(col("b"), col("c")).alias("m")) \
    .order_by(col("a")).execute().print()
t_env.create_temporary_function("max_add", max_add)
t_env.create_temporary_view("t", t)
t_env.execute_sql("SELECT a, max_add(b, c) AS m FROM t GROUP BY a ORDER BY a").print()
