"""Python aggregate functions (udaf) in BATCH mode (grouped-aggregate pandas UDFs beside
Spark's own aggregates), in STREAMING mode over bounded inputs (per key and bundle, as PyFlink
emits) and over unbounded ones (per key and micro-batch, in Spark's state store)."""
from __future__ import annotations

import pytest

from pystream.common import Row
from pystream.errors import JobExecutionError, UnsupportedFeatureError
from pystream.table import DataTypes
from pystream.table.expressions import col, lit
from pystream.table.udf import AggregateFunction, udaf
from pystream.table.window import Tumble
from tests.table.conftest import changelog, rows

ROWS = [(1, "a", 2, 1), (2, "b", 5, 2), (3, "a", 4, 3), (4, "b", 1, 1), (5, "a", 6, 1)]
NAMES = ["id", "k", "v", "w"]


class WeightedAvg(AggregateFunction):

    def create_accumulator(self):
        return Row(0, 0)

    def get_value(self, accumulator):
        return None if accumulator[1] == 0 else accumulator[0] / accumulator[1]

    def accumulate(self, accumulator, value, weight):
        accumulator[0] += value * weight
        accumulator[1] += weight


weighted_avg = udaf(WeightedAvg(), result_type=DataTypes.DOUBLE())
mean = udaf(lambda v: v.mean(), result_type=DataTypes.DOUBLE(), func_type="pandas")


def test_batch_group_by_mixes_python_and_spark_aggregates(batch_t_env):
    t = batch_t_env.from_elements(ROWS, NAMES)
    result = t.group_by(col("k")).select(col("k"), weighted_avg(col("v"), col("w")),
                                         mean(col("v")), col("id").count)
    assert sorted(rows(result)) == [("a", 4.0, 4.0, 3), ("b", 11 / 3, 3.0, 2)]


def test_a_python_aggregate_in_a_group_window(batch_t_env):
    import datetime

    start = datetime.datetime(2024, 1, 1)
    data = [(start + datetime.timedelta(seconds=s), v) for s, v in [(0, 1), (1, 3), (5, 10)]]
    t = batch_t_env.from_elements(data, DataTypes.ROW([
        DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)), DataTypes.FIELD("v", DataTypes.INT())]))
    result = t.window(Tumble.over(lit(5).seconds).on(col("ts")).alias("w")) \
        .group_by(col("w")).select(col("w").start, mean(col("v")))
    assert rows(result) == [(start, 2.0), (start + datetime.timedelta(seconds=5), 10.0)]


def test_streaming_emits_once_per_bundle_as_pyflink_does(streaming_t_env):
    streaming_t_env.get_config().set("python.fn-execution.bundle.size", "2")
    t = streaming_t_env.from_elements(ROWS, NAMES)
    result = t.group_by(col("k")).select(col("k"), weighted_avg(col("v"), col("w")))
    assert changelog(result) == [
        ("+I", "a", 2.0), ("+I", "b", 5.0), ("-U", "a", 2.0), ("+U", "a", 3.5),
        ("-U", "b", 5.0), ("+U", "b", 11 / 3), ("-U", "a", 3.5), ("+U", "a", 4.0)]


def test_a_registered_python_aggregate_in_sql(streaming_t_env):
    streaming_t_env.create_temporary_function("wavg", weighted_avg)
    streaming_t_env.create_temporary_view("t", streaming_t_env.from_elements(ROWS, NAMES))
    result = streaming_t_env.sql_query("SELECT k, wavg(v, w) AS x, SUM(v) AS s FROM t "
                                       "GROUP BY k")
    assert changelog(result) == [("+I", "a", 4.0, 12), ("+I", "b", 11 / 3, 6)]


def test_a_python_aggregate_over_an_unbounded_table(streaming_t_env):
    streaming_t_env.execute_sql("""CREATE TABLE ticks (n INT) WITH ('connector' = 'datagen',
        'rows-per-second' = '20', 'fields.n.min' = '3', 'fields.n.max' = '3')""")
    streaming_t_env.create_temporary_function("wavg", weighted_avg)
    result = streaming_t_env.execute_sql("SELECT n, wavg(n, 1) AS x FROM ticks GROUP BY n")
    with result.collect() as changes:
        first = next(changes)
    assert (str(first.get_row_kind()), tuple(first)) == ("+I", (3, 3.0))


def test_a_failing_accumulate_names_the_function_and_the_row(batch_t_env):
    class Broken(AggregateFunction):
        def create_accumulator(self):
            return [0]

        def get_value(self, accumulator):
            return accumulator[0]

        def accumulate(self, accumulator, value):
            accumulator[0] += 10 // (value - 4)

    broken = udaf(Broken(), result_type=DataTypes.BIGINT())
    t = batch_t_env.from_elements(ROWS, NAMES)
    with pytest.raises(JobExecutionError, match=r"ZeroDivisionError.*Broken"):
        rows(t.group_by(col("k")).select(broken(col("v"))))
    assert rows(batch_t_env.from_elements([(1,)], ["x"])) == [(1,)]


def test_a_general_udaf_must_be_an_aggregate_function():
    with pytest.raises(TypeError, match="AggregateFunction"):
        udaf(lambda v: v, result_type=DataTypes.INT())


def test_a_table_aggregate_over_an_unbounded_table(streaming_t_env):
    """The rows a table aggregate function emits, from Spark's state store: the first
    micro-batch's rows are inserted; a later one deletes them (-D) and inserts its own."""
    from pystream.table.udf import TableAggregateFunction, udtaf

    class Last2(TableAggregateFunction):
        def create_accumulator(self):
            return []

        def accumulate(self, accumulator, n):
            accumulator[:] = (accumulator + [n])[-2:]

        def emit_value(self, accumulator):
            yield from accumulator

    streaming_t_env.execute_sql("""CREATE TABLE ticks (n INT) WITH ('connector' = 'datagen',
        'rows-per-second' = '20', 'fields.n.min' = '3', 'fields.n.max' = '3')""")
    last2 = udtaf(Last2(), result_type="INT", accumulator_type="ARRAY<INT>")
    table = streaming_t_env.from_path("ticks").group_by(col("n")) \
        .flat_aggregate(last2(col("n")).alias("last")).select(col("n"), col("last"))
    kinds = []
    with table.execute().collect() as changes:
        for change in changes:
            kinds.append((str(change.get_row_kind()), tuple(change)))
            if kinds[-1][0] == "-D":
                break
    assert kinds[0] == ("+I", (3, 3)) and kinds[-1] == ("-D", (3, 3))


def test_a_python_aggregate_without_retract_over_an_updating_table_is_refused(
        streaming_t_env):
    class NoRetract(AggregateFunction):
        def create_accumulator(self):
            return [0]

        def get_value(self, accumulator):
            return accumulator[0]

        def accumulate(self, accumulator, value):
            accumulator[0] += value

    total = udaf(NoRetract(), result_type=DataTypes.BIGINT())
    t = streaming_t_env.from_elements(ROWS, NAMES).group_by(col("k")) \
        .select(col("k"), col("v").sum.alias("s"))
    with pytest.raises(UnsupportedFeatureError, match=r"AggregateFunction 'NoRetract'.*retract"):
        rows(t.group_by(col("s")).select(total(col("s"))))
