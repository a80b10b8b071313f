"""Flink's query reference: GROUPING SETS, ROLLUP and CUBE (a key a set leaves out is NULL),
array expansion (CROSS JOIN UNNEST of an array expression, of a map, of an array of rows,
WITH ORDINALITY, LEFT JOIN ... ON TRUE) and LAG/LEAD over windows, in both modes."""
# oracle: unordered
from pyflink.table import EnvironmentSettings, TableEnvironment

ORDERS = """CREATE TEMPORARY VIEW orders AS SELECT * FROM (VALUES
    ('north', 'tea', 3, TIMESTAMP '2024-01-01 00:00:01'),
    ('north', 'cake', 5, TIMESTAMP '2024-01-01 00:00:02'),
    ('south', 'tea', 2, TIMESTAMP '2024-01-01 00:00:03'),
    ('south', CAST(NULL AS STRING), 7, TIMESTAMP '2024-01-01 00:00:04'),
    ('north', 'tea', 1, TIMESTAMP '2024-01-01 00:00:05')) AS t(region, item, qty, ts)"""

BATCH_ONLY = [
    "SELECT item, qty, LAG(qty) OVER (PARTITION BY item ORDER BY ts) AS before, "
    "LEAD(qty, 1, -1) OVER (PARTITION BY item ORDER BY ts) AS after "
    "FROM orders ORDER BY ts",
    "SELECT region, qty, LAG(qty, 2) OVER (ORDER BY ts) AS two_before FROM orders ORDER BY ts",
]
BOTH = [
    "SELECT region, item, SUM(qty) AS total FROM orders "
    "GROUP BY GROUPING SETS ((region, item), (region), ())",
    "SELECT region, item, COUNT(*) AS n FROM orders GROUP BY ROLLUP (region, item)",
    "SELECT region, item, MAX(qty) AS most FROM orders GROUP BY CUBE (region, item)",
    "SELECT region, item, SUM(qty) AS total FROM orders GROUP BY region, ROLLUP (item)",
    "SELECT region, q FROM orders CROSS JOIN UNNEST(ARRAY[qty, qty * 10]) AS t(q)",
    "SELECT item, k, v FROM orders CROSS JOIN UNNEST(MAP['qty', qty]) AS t(k, v)",
    "SELECT region, w, n FROM orders "
    "CROSS JOIN UNNEST(ARRAY[region, item]) WITH ORDINALITY AS t(w, n)",
    "SELECT region, a, b FROM orders "
    "CROSS JOIN UNNEST(ARRAY[ROW(qty, item), ROW(qty + 1, region)]) AS t(a, b)",
    "SELECT item, e FROM orders LEFT JOIN UNNEST(CASE WHEN qty > 4 THEN ARRAY[qty] END) "
    "AS t(e) ON TRUE",
]

for name, settings in (("BATCH", EnvironmentSettings.in_batch_mode()),
                       ("STREAMING", EnvironmentSettings.in_streaming_mode())):
    t_env = TableEnvironment.create(settings)
    t_env.get_config().set("parallelism.default", "1")
    t_env.execute_sql(ORDERS)
    for sql in (BATCH_ONLY if name == "BATCH" else []) + BOTH:
        print(name, sql)
        if name == "BATCH" and "ORDER BY ts" not in sql:
            width = len(sql.split(" FROM ")[0].split(","))  # the select list's columns
            sql = "SELECT * FROM (%s) ORDER BY %s" % (
                sql, ", ".join(str(n + 1) for n in range(width)))
        t_env.execute_sql(sql).print()
