"""A Python AggregateFunction per key (100 keys) over N datagen rows in STREAMING mode, its
changelog into a blackhole sink (bench/udf_bench.py).

    python bench/udf_jobs/udaf_streaming.py 1000000
"""
import sys

from pystream.table import DataTypes, EnvironmentSettings, TableEnvironment
from pystream.table.udf import AggregateFunction, udaf


class Total(AggregateFunction):
    def create_accumulator(self):
        return [0]

    def accumulate(self, accumulator, value):
        accumulator[0] += value

    def get_value(self, accumulator):
        return accumulator[0]


rows = int(sys.argv[1]) if len(sys.argv) > 1 else 1000000
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.execute_sql("""CREATE TABLE numbers (id BIGINT, k AS id %% 100) WITH (
    'connector' = 'datagen', 'number-of-rows' = '%d', 'fields.id.kind' = 'sequence',
    'fields.id.start' = '1', 'fields.id.end' = '%d')""" % (rows, rows))
t_env.execute_sql("CREATE TABLE sink (k BIGINT, total BIGINT) WITH ('connector' = 'blackhole')")
t_env.create_temporary_function("total", udaf(Total(), result_type=DataTypes.BIGINT(),
                                              accumulator_type=DataTypes.ARRAY(
                                                  DataTypes.BIGINT())))
t_env.execute_sql("INSERT INTO sink SELECT k, total(id) FROM numbers GROUP BY k").wait()
print("result=done")
