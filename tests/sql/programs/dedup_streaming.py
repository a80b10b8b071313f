"""Deduplication in STREAMING mode: ROW_NUMBER() over a processing-time attribute, keeping the
first row of each key (an append-only result) or the last one (a changelog: each newer row
retracts the one before it)."""
import os
import tempfile

from pyflink.table import EnvironmentSettings, TableEnvironment

directory = tempfile.mkdtemp()
with open(os.path.join(directory, "orders.csv"), "w") as f:
    f.write("1,alice,10\n2,bob,5\n3,alice,30\n4,carol,7\n5,bob,8\n6,alice,20\n")
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("""CREATE TABLE orders (id INT, customer STRING, amount INT,
    pt AS PROCTIME()) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')"""
                  % directory)
for order in ("ASC", "DESC"):
    t_env.execute_sql("""SELECT id, customer, amount FROM (
        SELECT *, ROW_NUMBER() OVER (PARTITION BY customer ORDER BY pt %s) AS rn
        FROM orders) WHERE rn = 1""" % order).print()
t_env.execute_sql("""SELECT customer, amount, rn FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY customer ORDER BY pt DESC) AS rn
    FROM orders) WHERE rn <= 1""").print()
