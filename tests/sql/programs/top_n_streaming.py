"""Top-N in STREAMING mode: ROW_NUMBER() ordered by a non-time field, filtered by rank; the
changelog follows the ranking as rows arrive (without and with the rank number)."""
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("""CREATE TEMPORARY VIEW sales AS SELECT * FROM (VALUES
    ('a', 'x', 10), ('a', 'y', 30), ('a', 'z', 20), ('b', 'x', 5), ('a', 'w', 40),
    ('b', 'y', 7)) AS T(shop, item, amount)""")
t_env.execute_sql("""SELECT shop, item, amount FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY shop ORDER BY amount DESC) AS rn FROM sales)
    WHERE rn <= 2""").print()
t_env.execute_sql("""SELECT shop, item, amount, rn FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY shop ORDER BY amount DESC) AS rn FROM sales)
    WHERE rn <= 2""").print()
t_env.execute_sql("""SELECT shop, item FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY shop ORDER BY amount, item DESC) AS rn
    FROM sales) WHERE rn = 1""").print()
t_env.execute_sql("""SELECT * FROM (
    SELECT *, ROW_NUMBER() OVER (ORDER BY amount DESC) AS rn FROM sales) WHERE rn < 3""").print()
