"""Top-N with ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...) in BATCH mode, and OVER
aggregates in SQL."""
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("""CREATE TEMPORARY VIEW sales AS SELECT * FROM (VALUES
    ('a', 'x', 10), ('a', 'y', 30), ('a', 'z', 20), ('b', 'x', 5), ('b', 'y', 7))
    AS T(shop, item, amount)""")
t_env.execute_sql("""SELECT shop, item, amount FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY shop ORDER BY amount DESC) AS rn FROM sales)
    WHERE rn <= 2 ORDER BY shop, amount DESC""").print()
t_env.execute_sql("""SELECT shop, item, SUM(amount) OVER (PARTITION BY shop ORDER BY item
    ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS total_so_far FROM sales
    ORDER BY shop, item""").print()
