"""A pandas aggregate function per key (100 keys) over N datagen rows (BATCH;
bench/udf_bench.py); the results summed.

    python bench/udf_jobs/udaf_batch.py 1000000
"""
import sys

from pystream.table import DataTypes, EnvironmentSettings, TableEnvironment
from pystream.table.udf import udaf

rows = int(sys.argv[1]) if len(sys.argv) > 1 else 1000000
t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.execute_sql("""CREATE TABLE numbers (id BIGINT, k AS id %% 100) WITH (
    'connector' = 'datagen', 'number-of-rows' = '%d', 'fields.id.kind' = 'sequence',
    'fields.id.start' = '1', 'fields.id.end' = '%d')""" % (rows, rows))
t_env.create_temporary_function("spread", udaf(lambda s: int(s.max() - s.min()),
                                               result_type=DataTypes.BIGINT(),
                                               func_type="pandas"))
total = 0
with t_env.execute_sql("SELECT k, spread(id) AS s FROM numbers GROUP BY k").collect() as rs:
    for row in rs:
        total += row[1]
print("result=%d" % total)
