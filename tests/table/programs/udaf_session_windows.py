"""A Python aggregate function (with merge()) in session windows, where sessions merge as
rows come, in the Table API and in SQL's SESSION group window, over a bounded CSV table with
a watermark, in STREAMING mode. (PyFlink 2.3 runs no Python aggregate in a session window
in BATCH mode, and none beside Flink's own aggregates: pystream does both, see
tests/table/test_udaf_windows.py.)"""
# oracle: unordered
import os
import tempfile

from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col, lit
from pyflink.table.udf import AggregateFunction, udaf
from pyflink.table.window import Session


class Total(AggregateFunction):
    def create_accumulator(self):
        return [0, 0]

    def accumulate(self, acc, v):
        acc[0] += v
        acc[1] += 1

    def merge(self, acc, accs):
        for other in accs:
            acc[0] += other[0]
            acc[1] += other[1]

    def get_value(self, acc):
        return '%d of %d rows' % (acc[0], acc[1])

    def get_result_type(self):
        return DataTypes.STRING()

    def get_accumulator_type(self):
        return DataTypes.ARRAY(DataTypes.BIGINT())


directory = tempfile.mkdtemp()
with open(os.path.join(directory, 'part-0.csv'), 'w') as f:
    f.write('a,1,2024-01-01 00:00:01\na,2,2024-01-01 00:00:02\nb,5,2024-01-01 00:00:02\n'
            'a,8,2024-01-01 00:00:04\na,4,2024-01-01 00:00:10\nb,1,2024-01-01 00:00:20\n'
            'a,16,2024-01-01 00:00:12\n')
total = udaf(Total())

for mode, function in (('streaming', total),):
    settings = EnvironmentSettings.in_batch_mode() if mode == 'batch' else \
        EnvironmentSettings.in_streaming_mode()
    t_env = TableEnvironment.create(settings)
    t_env.get_config().set('parallelism.default', '1')
    t_env.execute_sql("""CREATE TABLE clicks (k STRING, v BIGINT, ts TIMESTAMP(3),
        WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem',
        'path' = '%s', 'format' = 'csv')""" % directory)
    t_env.create_temporary_function('f', function)
    print(mode, 'Table API')
    t_env.from_path('clicks') \
        .window(Session.with_gap(lit(3).seconds).on(col('ts')).alias('w')) \
        .group_by(col('k'), col('w')) \
        .select(col('k'), col('w').start, col('w').end, function(col('v'))) \
        .execute().print()
    print(mode, 'SQL')
    t_env.execute_sql("""SELECT k, SESSION_START(ts, INTERVAL '3' SECOND) AS s, f(v) AS t
        FROM clicks GROUP BY k, SESSION(ts, INTERVAL '3' SECOND)""").print()
