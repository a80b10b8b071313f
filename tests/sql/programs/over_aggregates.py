"""Built-in aggregates OVER windows in STREAMING mode, ordered by the rowtime: ROWS and RANGE
frames, bounded and unbounded, partitioned or not, rows with equal times (RANGE peers), a
row behind the watermark (dropped), the Table API's Over windows; then BATCH mode's
results of the same queries (but a RANGE frame of an interval: PyFlink 2.3 fails to compile
its comparator over a TIMESTAMP, "Cannot cast TimestampData to java.lang.Long")."""
# oracle: unordered
import os
import tempfile

from pyflink.table import EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import CURRENT_RANGE, CURRENT_ROW, UNBOUNDED_ROW, col, lit
from pyflink.table.window import Over

directory = tempfile.mkdtemp()
with open(os.path.join(directory, 'part-0.csv'), 'w') as f:
    f.write('a,1,2024-01-01 00:00:01\n'
            'a,2,2024-01-01 00:00:02\n'
            'b,5,2024-01-01 00:00:02\n'
            'a,8,2024-01-01 00:00:04\n'
            'a,3,2024-01-01 00:00:04\n'  # the same time as the row before: RANGE peers
            'b,7,2024-01-01 00:00:05\n'
            'a,4,2024-01-01 00:00:10\n'
            'a,9,2024-01-01 00:00:07\n'  # behind the watermark (00:00:09): late
            'a,16,2024-01-01 00:00:12\n'
            'b,1,2024-01-01 00:00:20\n')

QUERIES = {
    'running totals (ROWS UNBOUNDED PRECEDING)': """
        SELECT k, v, ts,
               SUM(v) OVER w AS total, COUNT(v) OVER w AS n, AVG(v) OVER w AS mean,
               MIN(v) OVER w AS low, MAX(v) OVER w AS high
        FROM clicks
        WINDOW w AS (PARTITION BY k ORDER BY ts
                     ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)""",
    'last three rows (ROWS 2 PRECEDING)': """
        SELECT k, v, SUM(v) OVER (PARTITION BY k ORDER BY ts
            ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS last_three FROM clicks""",
    'the last five seconds (RANGE INTERVAL PRECEDING)': """
        SELECT k, v, ts, SUM(v) OVER (PARTITION BY k ORDER BY ts
            RANGE BETWEEN INTERVAL '5' SECOND PRECEDING AND CURRENT ROW) AS recent,
            COUNT(*) OVER (PARTITION BY k ORDER BY ts
            RANGE BETWEEN INTERVAL '5' SECOND PRECEDING AND CURRENT ROW) AS n
        FROM clicks""",
    'running totals with peers (RANGE UNBOUNDED PRECEDING, the default frame)': """
        SELECT k, v, SUM(v) OVER (PARTITION BY k ORDER BY ts) AS total,
               MAX(v) OVER (PARTITION BY k ORDER BY ts) AS high FROM clicks""",
    'over all rows (no PARTITION BY)': """
        SELECT k, v, COUNT(*) OVER w AS seen, SUM(v) OVER w AS pair FROM clicks
        WINDOW w AS (ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)""",
    'an OVER aggregate beside a calculation and a filter': """
        SELECT k, v * 10 AS v10, SUM(v) OVER (PARTITION BY k ORDER BY ts
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) + 1 AS total_plus_one
        FROM clicks WHERE v > 1""",
}

for mode in ('streaming', 'batch'):
    settings = EnvironmentSettings.in_batch_mode() if mode == 'batch' else \
        EnvironmentSettings.in_streaming_mode()
    t_env = TableEnvironment.create(settings)
    t_env.get_config().set('parallelism.default', '1')
    t_env.execute_sql("""CREATE TABLE clicks (k STRING, v BIGINT, ts TIMESTAMP(3),
        WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem',
        'path' = '%s', 'format' = 'csv')""" % directory)
    for title, query in QUERIES.items():
        if mode == 'batch' and 'RANGE INTERVAL' in title:
            continue  # Flink 2.3's BATCH RANGE frame over a TIMESTAMP does not compile
        print(mode, title)
        t_env.execute_sql(query).print()
    if mode == 'batch':  # the Table API's OVER needs a time attribute: none in BATCH mode
        continue
    clicks = t_env.from_path('clicks')
    print(mode, 'Table API: ROWS, UNBOUNDED_ROW to CURRENT_ROW')
    clicks.over_window(Over.partition_by(col('k')).order_by(col('ts'))
                       .preceding(UNBOUNDED_ROW).following(CURRENT_ROW).alias('w')) \
        .select(col('k'), col('v'), col('v').sum.over(col('w')).alias('total'),
                col('v').count.over(col('w')).alias('n')) \
        .execute().print()
    print(mode, 'Table API: RANGE, 3 seconds to CURRENT_RANGE')
    clicks.over_window(Over.partition_by(col('k')).order_by(col('ts'))
                       .preceding(lit(3).seconds).following(CURRENT_RANGE).alias('w')) \
        .select(col('k'), col('v'), col('v').max.over(col('w')).alias('high')) \
        .execute().print()
