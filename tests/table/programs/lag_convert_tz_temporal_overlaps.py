"""The Table API's lag (over windows ordered by a time attribute; Flink has no LEAD in
STREAMING mode), convert_tz and temporal_overlaps, as PyFlink's pyflink.table.expressions
give them."""
import os
import tempfile

from pyflink.table import EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col, convert_tz, lag, lit, temporal_overlaps
from pyflink.table.window import Over

directory = tempfile.mkdtemp()
with open(os.path.join(directory, 'clicks.csv'), 'w') as f:
    f.write('a,10,2024-01-01 00:00:01\na,20,2024-01-01 00:00:02\na,30,2024-01-01 00:00:03\n'
            'b,5,2024-01-01 00:00:01\nb,6,2024-01-01 00:00:04\n')

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("""
    CREATE TABLE clicks (k STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
    WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')""" % directory)
table = t_env.from_path('clicks')
window = Over.partition_by(col('k')).order_by(col('ts')).alias('w')
table.over_window(window).select(
    col('k'), col('v'), lag(col('v')).over(col('w')).alias('before'),
    lag(col('v'), 2, -1).over(col('w')).alias('two_before')).execute().print()
table.select(
    col('k'),
    convert_tz(lit('2024-03-10 01:30:00'), 'America/Los_Angeles', 'UTC').alias('utc'),
    convert_tz('1970-01-01 00:00:00', lit('UTC'), 'Asia/Kolkata').alias('kolkata'),
    temporal_overlaps(lit('2:55:00').to_time, lit(1).hours,
                      lit('3:30:00').to_time, lit(2).hours).alias('overlaps'),
    temporal_overlaps(lit('2:55:00').to_time, lit(1).minutes,
                      lit('3:30:00').to_time, lit(2).hours).alias('apart'),
).limit(1).execute().print()
