"""A pandas aggregate function OVER windows (ROWS and RANGE frames, partitioned, ordered by
the rowtime), in SQL and the Table API, in STREAMING and BATCH mode (PyFlink 2.3 runs no
other Python aggregate OVER a window: see tests/table/test_udaf_windows.py)."""
# oracle: unordered
import os
import tempfile

from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import CURRENT_RANGE, col, lit
from pyflink.table.udf import udaf
from pyflink.table.window import Over

directory = tempfile.mkdtemp()
with open(os.path.join(directory, 'part-0.csv'), 'w') as f:
    f.write('a,1,2024-01-01 00:00:01\na,2,2024-01-01 00:00:02\nb,5,2024-01-01 00:00:02\n'
            'a,8,2024-01-01 00:00:04\na,4,2024-01-01 00:00:10\na,16,2024-01-01 00:00:12\n'
            'b,1,2024-01-01 00:00:20\n')  # in time order: no late rows
mean = udaf(lambda v: float(v.mean()), result_type=DataTypes.DOUBLE(), func_type='pandas')

for mode, function in (('streaming', mean), ('batch', mean)):
    settings = EnvironmentSettings.in_batch_mode() if mode == 'batch' else \
        EnvironmentSettings.in_streaming_mode()
    t_env = TableEnvironment.create(settings)
    t_env.get_config().set('parallelism.default', '1')
    t_env.execute_sql("""CREATE TABLE clicks (k STRING, v BIGINT, ts TIMESTAMP(3),
        WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem',
        'path' = '%s', 'format' = 'csv')""" % directory)
    t_env.create_temporary_function('f', function)
    print(mode, 'SQL ROWS')
    t_env.execute_sql("""SELECT k, v, f(v) OVER (PARTITION BY k ORDER BY ts
        ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS last_two FROM clicks""").print()
    print(mode, 'SQL RANGE')
    t_env.execute_sql("""SELECT k, v, f(v) OVER (PARTITION BY k ORDER BY ts
        RANGE BETWEEN INTERVAL '5' SECOND PRECEDING AND CURRENT ROW) AS recent
        FROM clicks""").print()
    if mode == 'batch':  # the Table API's OVER needs a time attribute: none in BATCH mode
        continue
    print(mode, 'Table API')
    t_env.from_path('clicks') \
        .over_window(Over.partition_by(col('k')).order_by(col('ts'))
                     .preceding(lit(3).seconds).following(CURRENT_RANGE).alias('w')) \
        .select(col('k'), col('v'), function(col('v')).over(col('w')).alias('last_3s')) \
        .execute().print()
