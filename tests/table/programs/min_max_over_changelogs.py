"""MIN, MAX, FIRST_VALUE, LAST_VALUE and COUNT/SUM/AVG(DISTINCT) over updating tables
(STREAMING): over the latest row of each key (LAST_VALUE), grouped again, and over a running
SUM per key (a global MIN/MAX of it): a retraction that takes the current value away falls
back to the next one still counted; changes in order."""
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment
from pyflink.table.expressions import col

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
t = t_env.from_elements([('a', 1, 'x'), ('b', 5, 'y'), ('a', 3, 'x'), ('c', 4, 'y'),
                         ('a', 9, 'y'), ('b', 2, 'x')], ['k', 'v', 'g'])
latest = t_env.sql_query(
    "SELECT k, LAST_VALUE(v) AS v, LAST_VALUE(g) AS g FROM %s GROUP BY k" % t)
t_env.create_temporary_view('latest', latest)
t_env.execute_sql(
    "SELECT g, MIN(v) AS lo, MAX(v) AS hi, COUNT(*) AS n FROM latest GROUP BY g").print()
sums = t.group_by(col('k')).select(col('k'), col('v').sum.alias('s'))
sums.select(col('s').max.alias('top'), col('s').min.alias('bottom')).execute().print()
# FIRST_VALUE and LAST_VALUE over an updating table: a retraction takes away its value's
# earliest occurrence; duplicates of a value among the keys
t2 = t_env.from_elements([('a', 1, 'x'), ('b', 5, 'x'), ('c', 1, 'x'), ('a', 3, 'x'),
                          ('d', 7, 'y'), ('c', 4, 'x'), ('b', 1, 'y'), ('a', 8, 'y'),
                          ('e', 2, 'x')], ['k', 'v', 'g'])
t_env.create_temporary_view('latest2', t_env.sql_query(
    "SELECT k, LAST_VALUE(v) AS v, LAST_VALUE(g) AS g FROM %s GROUP BY k" % t2))
t_env.execute_sql("""
    SELECT g, FIRST_VALUE(v) AS f, LAST_VALUE(v) AS l, MIN(v) AS lo, MAX(v) AS hi
    FROM latest2 GROUP BY g""").print()
t_env.execute_sql("""
    SELECT g, COUNT(DISTINCT v) AS n, SUM(DISTINCT v) AS s, COUNT(v) AS c
    FROM latest2 GROUP BY g""").print()
t_env.execute_sql("""
    SELECT g, AVG(DISTINCT v) AS a, AVG(v) AS b, AVG(DISTINCT CAST(v AS DOUBLE)) AS d
    FROM latest2 GROUP BY g""").print()
