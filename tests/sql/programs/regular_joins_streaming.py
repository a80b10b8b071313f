"""Regular joins in STREAMING mode whose results update: LEFT, RIGHT and FULL joins of
append-only tables and joins of an updating table (a GROUP BY). The order in which a join's
two inputs interleave is not fixed in Flink, so neither is its changelog: each query's
changelog is applied here and the rows it ends with are printed, with any retraction of a
row that was not there."""
from pyflink.common import RowKind
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("""CREATE TEMPORARY VIEW orders AS SELECT * FROM (VALUES
    (1, 'apple', 3), (2, 'pear', 5), (3, 'plum', 2), (4, 'apple', 1), (5, 'fig', 7))
    AS T(id, item, amount)""")
t_env.execute_sql("""CREATE TEMPORARY VIEW prices AS SELECT * FROM (VALUES
    ('apple', 10), ('pear', 20), ('kiwi', 30), ('apple', 11)) AS T(item, price)""")

QUERIES = [
    "SELECT o.id, o.item, p.price FROM orders o LEFT JOIN prices p ON o.item = p.item",
    "SELECT o.id, p.item, p.price FROM orders o RIGHT JOIN prices p ON o.item = p.item",
    "SELECT o.id, o.item, p.item AS p_item, p.price FROM orders o FULL JOIN prices p "
    "ON o.item = p.item",
    """SELECT t.item, t.total, p.price FROM (SELECT item, SUM(amount) AS total FROM orders
        GROUP BY item) t JOIN prices p ON t.item = p.item""",
    """SELECT t.item, t.total, p.price FROM (SELECT item, SUM(amount) AS total FROM orders
        GROUP BY item) t LEFT JOIN (SELECT item, MAX(price) AS price FROM prices
        GROUP BY item) p ON t.item = p.item""",
]

for query in QUERIES:
    final, stray = [], 0
    with t_env.execute_sql(query).collect() as rows:
        for row in rows:
            values = tuple(row)
            if row.get_row_kind() in (RowKind.INSERT, RowKind.UPDATE_AFTER):
                final.append(values)
            elif values in final:
                final.remove(values)
            else:
                stray += 1
    print(query.split("FROM")[0].strip())
    for values in sorted(final, key=repr):
        print("  ", values)
    print("   retractions of rows not there:", stray)
