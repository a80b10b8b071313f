"""A Python table function giving two rows per input row, over N datagen rows, summed (BATCH;
bench/udf_bench.py).

    python bench/udf_jobs/udtf.py 1000000
"""
import sys

from pystream.table import DataTypes, EnvironmentSettings, TableEnvironment
from pystream.table.udf import udtf

rows = int(sys.argv[1]) if len(sys.argv) > 1 else 1000000
t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.execute_sql("""CREATE TABLE numbers (id BIGINT) WITH ('connector' = 'datagen',
    'number-of-rows' = '%d', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',
    'fields.id.end' = '%d')""" % (rows, rows))


@udtf(result_types=[DataTypes.BIGINT()])
def twice(i):
    yield i
    yield 2 * i


t_env.create_temporary_function("twice", twice)
with t_env.execute_sql("SELECT SUM(v) FROM numbers, LATERAL TABLE(twice(id)) AS T(v)") \
        .collect() as results:
    print("result=%d" % next(iter(results))[0])
