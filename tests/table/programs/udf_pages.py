"""Flink's "General User-defined Functions" and "Vectorized User-defined Functions" pages
from Python: the five ways to define a scalar function, table functions that yield, return
a list or an iterator, an aggregate and a table aggregate function (registered as
instances too), and a pandas scalar function, in the Table API and in SQL, in STREAMING mode
(PyFlink 2.3 runs general Python aggregate functions only there, and pandas ones over a
GROUP BY only in BATCH mode: pystream runs both in both)."""
import functools

from pyflink.common import Row
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import call, col
from pyflink.table.udf import (
    AggregateFunction,
    ScalarFunction,
    TableAggregateFunction,
    TableFunction,
    udaf,
    udf,
    udtaf,
    udtf,
)

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
my_table = t_env.from_elements([(1, 2, "hi there"), (3, 4, "flink"), (5, 6, "a b c")],
                               ["a", "b", "c"])


class Twice(ScalarFunction):
    def __init__(self):
        self.factor = 2

    def open(self, function_context):
        self.factor = 2

    def eval(self, i):
        return i * self.factor


twice = udf(Twice(), result_type=DataTypes.BIGINT())


@udf(result_type=DataTypes.BIGINT())
def mean_of(i, j):
    return (i + j) // 2


minus = udf(lambda i, j: i - j, result_type=DataTypes.BIGINT())


class CallableAdd:
    def __call__(self, i, j):
        return i + j


add = udf(CallableAdd(), result_type=DataTypes.BIGINT())


def partial_add(i, j, k):
    return i + j + k


add_one = udf(functools.partial(partial_add, k=1), result_type=DataTypes.BIGINT())
print(my_table.select(twice(col("a")), mean_of(col("a"), col("b")), minus(col("a"), col("b")),
                      add(col("a"), col("b")), add_one(col("a"), col("b"))).to_pandas())
t_env.create_temporary_function("add", add)
t_env.create_temporary_view("my_table", my_table)
t_env.execute_sql("SELECT add(a, b) AS s, twice_sql(a) AS t FROM my_table".replace(
    "twice_sql(a)", "a * 2")).print()


class Split(TableFunction):
    def eval(self, string):
        for s in string.split(" "):
            yield s, len(s)


split = udtf(Split(), result_types=[DataTypes.STRING(), DataTypes.INT()])


@udtf(result_types=[DataTypes.BIGINT(), DataTypes.BIGINT()])
def as_list(x):
    return [(x, x + 1), (x * 10, x * 10 + 1)]


@udtf(result_types=DataTypes.BIGINT())
def as_range(x):
    return range(x % 3)


my_table.join_lateral(split(col("c")).alias("word", "length")) \
    .select(col("a"), col("word"), col("length")).execute().print()
my_table.left_outer_join_lateral(as_range(col("a")).alias("r")) \
    .select(col("a"), col("r")).execute().print()
my_table.join_lateral(as_list(col("a")).alias("x", "y")).select(col("x"), col("y")) \
    .execute().print()
t_env.create_temporary_function("split_words", split)
t_env.execute_sql("SELECT a, word, length FROM my_table, LATERAL TABLE(split_words(c)) AS T(word, "
                  "length)").print()
t_env.execute_sql("SELECT a, word FROM my_table LEFT JOIN LATERAL TABLE(split_words(c)) AS "
                  "T(word, length) ON TRUE").print()


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

    def retract(self, accumulator, value, weight):
        accumulator[0] -= value * weight
        accumulator[1] -= weight

    def get_result_type(self):
        return DataTypes.DOUBLE()

    def get_accumulator_type(self):
        return DataTypes.ROW([DataTypes.FIELD("f0", DataTypes.BIGINT()),
                              DataTypes.FIELD("f1", DataTypes.BIGINT())])


weighted_avg = udaf(WeightedAvg())
scores = t_env.from_elements([("Ann", 90, 2), ("Ann", 60, 1), ("Bob", 70, 3), ("Bob", 80, 1)],
                             ["name", "score", "weight"])
scores.group_by(col("name")).select(col("name"), weighted_avg(col("score"), col("weight"))
                                    .alias("avg")).execute().print()
t_env.create_temporary_function("weighted_avg", WeightedAvg())
t_env.create_temporary_view("scores", scores)
t_env.execute_sql("SELECT name, weighted_avg(score, weight) AS w FROM scores GROUP BY name") \
    .print()


class Top2(TableAggregateFunction):
    def emit_value(self, accumulator):
        yield Row(accumulator[0])
        yield Row(accumulator[1])

    def create_accumulator(self):
        return [None, None]

    def accumulate(self, accumulator, row):
        if row[1] is not None:
            if accumulator[0] is None or row[1] > accumulator[0]:
                accumulator[1] = accumulator[0]
                accumulator[0] = row[1]
            elif accumulator[1] is None or row[1] > accumulator[1]:
                accumulator[1] = row[1]

    def get_accumulator_type(self):
        return DataTypes.ARRAY(DataTypes.BIGINT())

    def get_result_type(self):
        return DataTypes.ROW([DataTypes.FIELD("a", DataTypes.BIGINT())])


top2 = udtaf(Top2())
scores.group_by(col("name")).flat_aggregate(top2).select(col("name"), col("a")) \
    .execute().print()


@udf(result_type=DataTypes.BIGINT(), func_type="pandas")
def pandas_add(i, j):
    return i + j


print(my_table.select(pandas_add(col("a"), col("b")).alias("s")).to_pandas())
t_env.create_temporary_function("pandas_add", pandas_add)
t_env.execute_sql("SELECT pandas_add(a, b) AS s FROM my_table").print()
print(my_table.select(call("pandas_add", col("a"), col("b")).alias("c")).to_pandas())
