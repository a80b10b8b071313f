"""A one-argument Python scalar function over N datagen rows, summed (BATCH; bench/udf_bench.py).

    python bench/udf_jobs/scalar.py 10000000
"""
import sys

from pystream.table import DataTypes, EnvironmentSettings, TableEnvironment
from pystream.table.udf import udf

rows = int(sys.argv[1]) if len(sys.argv) > 1 else 10000000
t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.execute_sql("""CREATE TABLE numbers (id BIGINT) WITH ('connector' = 'datagen',
    'number-of-rows' = '%d', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',
    'fields.id.end' = '%d')""" % (rows, rows))
t_env.create_temporary_function(
    "plus_one", udf(lambda i: i + 1, result_type=DataTypes.BIGINT()))
with t_env.execute_sql("SELECT SUM(plus_one(id)) FROM numbers").collect() as results:
    print("result=%d" % next(iter(results))[0])
