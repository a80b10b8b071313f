"""A projection that reads a grouped table's keys only, or only some of its aggregates: Flink
prunes the aggregates nobody reads, so each key comes once (+I) and a change of an unread
aggregate emits nothing (STREAMING, in SQL and in the Table API)."""
from pyflink.table import EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("""CREATE TEMPORARY VIEW t AS SELECT * FROM (VALUES
    ('a', 1, 10), ('b', 2, 20), ('a', 3, 5), ('a', 4, 10), ('b', 1, 30)) AS v(k, x, y)""")
t_env.execute_sql("SELECT k FROM (SELECT k, COUNT(*) AS c FROM t GROUP BY k)").print()
t_env.execute_sql("""SELECT k, top FROM (
    SELECT k, SUM(x) AS total, MAX(y) AS top FROM t GROUP BY k)""").print()
grouped = t_env.from_path("t").group_by(col("k")).select(
    col("k"), col("x").sum.alias("total"), col("y").max.alias("top"))
grouped.select(col("k"), col("top")).execute().print()
