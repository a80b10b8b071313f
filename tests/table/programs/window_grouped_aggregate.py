"""A group window's row-based aggregate (the Table API's row-based operations page):
``window(Tumble...).group_by(w, k).aggregate(pandas_udaf.alias(...)).select(...)`` with the
window's start and end, in BATCH and STREAMING mode, and a general Python aggregate function
with a ROW result over a sliding window (STREAMING: PyFlink runs only pandas ones in BATCH).
Windows of one end fire in the order of Flink's timer heap, which no program can rely on."""
# oracle: unordered
import os
import tempfile

import pandas as pd
from pyflink.common import Row
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col, lit
from pyflink.table.udf import AggregateFunction, udaf
from pyflink.table.window import Slide, Tumble


class MinMax(AggregateFunction):
    def get_value(self, accumulator):
        return Row(accumulator[0], accumulator[1])

    def create_accumulator(self):
        return [None, None]

    def accumulate(self, accumulator, value):
        accumulator[0] = value if accumulator[0] is None else min(accumulator[0], value)
        accumulator[1] = value if accumulator[1] is None else max(accumulator[1], value)

    def merge(self, accumulator, accumulators):  # a sliding window's panes
        for other in accumulators:
            for value in other:
                if value is not None:
                    self.accumulate(accumulator, value)

    def get_accumulator_type(self):
        return DataTypes.ARRAY(DataTypes.BIGINT())

    def get_result_type(self):
        return DataTypes.ROW([DataTypes.FIELD("lo", DataTypes.BIGINT()),
                              DataTypes.FIELD("hi", DataTypes.BIGINT())])


@udaf(result_type=DataTypes.ROW([DataTypes.FIELD("total", DataTypes.BIGINT()),
                                 DataTypes.FIELD("mean", DataTypes.DOUBLE())]),
      func_type="pandas")
def total_and_mean(rows: pd.DataFrame):  # called with the whole row: the window's rows
    return Row(int(rows.v.sum()), float(rows.v.mean()))


ROWS = [('a', 1, '2024-01-01 00:00:01'), ('b', 5, '2024-01-01 00:00:02'),
        ('a', 3, '2024-01-01 00:00:04'), ('a', 7, '2024-01-01 00:00:06'),
        ('b', 2, '2024-01-01 00:00:09'), ('a', 4, '2024-01-01 00:00:12')]

directory = tempfile.mkdtemp()
with open(os.path.join(directory, "events.json"), "w") as f:
    f.writelines('{"k": "%s", "v": %d, "ts": "%s"}\n' % row for row in ROWS)

for settings in (EnvironmentSettings.in_batch_mode(), EnvironmentSettings.in_streaming_mode()):
    t_env = TableEnvironment.create(settings)
    t_env.get_config().set("parallelism.default", "1")
    t_env.execute_sql("""
        CREATE TABLE src (k STRING, v BIGINT, ts TIMESTAMP(3),
                          WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
        WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'json')""" % directory)
    table = t_env.from_path("src")
    table.window(Tumble.over(lit(5).seconds).on(col('ts')).alias('w')) \
        .group_by(col('w'), col('k')) \
        .aggregate(total_and_mean.alias('total', 'mean')) \
        .select(col('k'), col('total'), col('mean'), col('w').start, col('w').end) \
        .execute().print()
    if settings.is_streaming_mode():  # PyFlink: "non-Pandas UDAFs are not supported in batch"
        table.window(Slide.over(lit(10).seconds).every(lit(5).seconds).on(col('ts'))
                     .alias('w')) \
            .group_by(col('w'), col('k')) \
            .aggregate(udaf(MinMax())(col('v')).alias('lo', 'hi')) \
            .select(col('k'), col('lo'), col('hi'), col('w').end) \
            .execute().print()
