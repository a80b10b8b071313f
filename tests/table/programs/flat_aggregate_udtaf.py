"""``group_by(...).flat_aggregate(udtaf)``: a Python table aggregate function (Top-2 per
key) in STREAMING mode at bundle size 1: the rows it emits for a key are retracted and
emitted again as the key's rows come."""
from pyflink.common import Row
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col
from pyflink.table.udf import TableAggregateFunction, udtaf


class Top2(TableAggregateFunction):
    def emit_value(self, accumulator):
        for value in sorted((v for v in accumulator if v is not None), reverse=True):
            yield Row(value)

    def create_accumulator(self):
        return [None, None]

    def accumulate(self, accumulator, row):
        if accumulator[0] is None or row.b > accumulator[0]:
            accumulator[1] = accumulator[0]
            accumulator[0] = row.b
        elif accumulator[1] is None or row.b > accumulator[1]:
            accumulator[1] = row.b

    def get_accumulator_type(self):
        return DataTypes.ARRAY(DataTypes.BIGINT())

    def get_result_type(self):
        return DataTypes.ROW([DataTypes.FIELD("top", DataTypes.BIGINT())])


class Spread(TableAggregateFunction):
    def emit_value(self, accumulator):
        yield Row(accumulator[0], accumulator[1])

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
t = t_env.from_elements([(1, 2), (2, 3), (1, 5), (2, 7), (1, 4), (1, 1)], ["a", "b"])
top2 = udtaf(Top2())
t.group_by(col("a")).flat_aggregate(top2).select(col("a"), col("top")).execute().print()
spread = udtaf(Spread())
t.group_by(col("a")).flat_aggregate(spread(col("b")).alias("x", "y")) \
    .select(col("a"), col("x"), col("y")).execute().print()
