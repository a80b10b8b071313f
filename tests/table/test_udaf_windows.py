"""Python aggregate functions in session windows in BATCH mode, which PyFlink 2.3 does not
run (its STREAMING run is recorded: programs/udaf_session_windows.py): each session's value
of a Python aggregate equals Flink's own SUM beside it, sessions merged as rows came."""
from pystream.table import DataTypes, EnvironmentSettings, TableEnvironment
from pystream.table.expressions import col, lit
from pystream.table.udf import AggregateFunction, udaf
from pystream.table.window import Session


class Total(AggregateFunction):
    def create_accumulator(self):
        return [0]

    def accumulate(self, acc, v):
        acc[0] += v

    def merge(self, acc, accs):
        for other in accs:
            acc[0] += other[0]

    def get_value(self, acc):
        return acc[0]

    def get_result_type(self):
        return DataTypes.BIGINT()

    def get_accumulator_type(self):
        return DataTypes.ARRAY(DataTypes.BIGINT())


def test_session_windows_of_a_python_aggregate_and_a_pandas_one_in_batch_mode(tmp_path):
    (tmp_path / "part-0.csv").write_text(
        "a,1,2024-01-01 00:00:01\na,2,2024-01-01 00:00:02\nb,5,2024-01-01 00:00:02\n"
        "a,8,2024-01-01 00:00:04\na,4,2024-01-01 00:00:10\nb,1,2024-01-01 00:00:20\n"
        "a,16,2024-01-01 00:00:12\n")
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t_env.execute_sql("""CREATE TABLE clicks (k STRING, v BIGINT, ts TIMESTAMP(3),
        WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem',
        'path' = '%s', 'format' = 'csv')""" % tmp_path)
    mean = udaf(lambda v: float(v.mean()), result_type=DataTypes.DOUBLE(), func_type="pandas")
    rows = t_env.from_path("clicks") \
        .window(Session.with_gap(lit(3).seconds).on(col("ts")).alias("w")) \
        .group_by(col("k"), col("w")) \
        .select(col("k"), col("w").start.alias("s"), udaf(Total())(col("v")).alias("total"),
                col("v").sum.alias("native"), col("v").count.alias("n"),
                mean(col("v")).alias("mean")) \
        .execute().collect()
    sessions = sorted((r[0], str(r[1]), r[2], r[3], r[5] * r[4]) for r in rows)
    assert sessions == [("a", "2024-01-01 00:00:01", 11, 11, 11.0),
                        ("a", "2024-01-01 00:00:10", 20, 20, 20.0),
                        ("b", "2024-01-01 00:00:02", 5, 5, 5.0),
                        ("b", "2024-01-01 00:00:20", 1, 1, 1.0)]


def test_a_general_python_aggregate_over_a_window_equals_sum(tmp_path):
    """PyFlink 2.3 runs pandas aggregates only OVER windows (programs/udaf_over_windows.py);
    pystream runs the others too (it failed on the function's name before)."""
    (tmp_path / "part-0.csv").write_text(
        "a,1,2024-01-01 00:00:01\na,2,2024-01-01 00:00:02\nb,5,2024-01-01 00:00:02\n"
        "a,8,2024-01-01 00:00:04\n")
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t_env.execute_sql("""CREATE TABLE clicks (k STRING, v BIGINT, ts TIMESTAMP(3))
        WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')""" % tmp_path)
    t_env.create_temporary_function("total", udaf(Total()))
    rows = t_env.execute_sql("""SELECT k, v,
        total(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW),
        SUM(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)
        FROM clicks""").collect()
    assert sorted(tuple(r) for r in rows) == [("a", 1, 1, 1), ("a", 2, 3, 3), ("a", 8, 10, 10),
                                              ("b", 5, 5, 5)]
