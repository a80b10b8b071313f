"""ARRAY[...] and MAP[...] value constructors in SQL, their elements and CARDINALITY."""
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("""SELECT ARRAY[1, 2, 3] AS a, MAP['x', 1, 'y', 2] AS m,
    CARDINALITY(MAP['x', 1, 'y', 2]) AS n, MAP['x', 1, 'y', 2]['y'] AS y,
    ARRAY['p', 'q'][2] AS q""").print()
t_env.execute_sql("""SELECT k, MAP[k, v * 10] AS m FROM (VALUES ('a', 1), ('b', 2)) AS T(k, v)
    ORDER BY k""").print()
