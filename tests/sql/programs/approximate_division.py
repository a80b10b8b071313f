"""Division as Java divides: a DOUBLE or FLOAT divided by zero is Infinity, -Infinity or NaN
(0 / 0), NULL stays NULL; an integer division truncates; BATCH, then STREAMING."""
from pyflink.table import EnvironmentSettings, TableEnvironment

for settings in (EnvironmentSettings.in_batch_mode(), EnvironmentSettings.in_streaming_mode()):
    t_env = TableEnvironment.create(settings)
    t_env.get_config().set("parallelism.default", "1")
    t_env.execute_sql("""
        CREATE TEMPORARY VIEW v AS SELECT * FROM (VALUES
            (1.0E0, 0.0E0, 1, 0, CAST(2.5 AS FLOAT)), (-2.0E0, 0.0E0, 2, 1, CAST(0 AS FLOAT)),
            (0.0E0, 0.0E0, 3, 2, CAST(-1 AS FLOAT)),
            (CAST(NULL AS DOUBLE), 0.0E0, 4, 3, CAST(NULL AS FLOAT)),
            (6.0E0, 4.0E0, 5, 4, CAST(1 AS FLOAT))) AS T(x, y, a, b, f)""")
    t_env.execute_sql("""
        SELECT a, x / y AS q, x / b AS xb, f / 0 AS fz, a / x AS ax, f / y AS fy,
               a / 2 AS half, x / y > 1 AS above
        FROM v""").print()
