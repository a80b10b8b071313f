"""Correlated sub-queries (BATCH): [NOT] EXISTS, [NOT] IN (correlated by an equality or
not), an aggregate in an IN sub-query, scalar ones in the select list and in WHERE (COUNT
of no rows is 0, SUM of none NULL); ORDER BY a qualified column."""
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.create_temporary_view("orders", t_env.from_elements(
    [(1, 'apple', 3, 10), (2, 'pear', 1, 20), (3, 'apple', 5, 10), (4, 'fig', 2, 30),
     (5, 'pear', 4, None)],
    DataTypes.ROW([DataTypes.FIELD("id", DataTypes.INT()),
                   DataTypes.FIELD("item", DataTypes.STRING()),
                   DataTypes.FIELD("qty", DataTypes.INT()),
                   DataTypes.FIELD("cid", DataTypes.INT())])))
t_env.create_temporary_view("customers", t_env.from_elements(
    [(10, 'ann'), (20, 'bob'), (40, 'cy')],
    DataTypes.ROW([DataTypes.FIELD("cid", DataTypes.INT()),
                   DataTypes.FIELD("name", DataTypes.STRING())])))
for query in [
        "SELECT c.name FROM customers c WHERE EXISTS "
        "(SELECT 1 FROM orders o WHERE o.cid = c.cid) ORDER BY c.name",
        "SELECT c.name FROM customers c WHERE NOT EXISTS "
        "(SELECT 1 FROM orders o WHERE o.cid = c.cid AND o.qty > 2) ORDER BY c.name",
        "SELECT o.id, o.item FROM orders o WHERE o.qty IN "
        "(SELECT MAX(o2.qty) FROM orders o2 WHERE o2.item = o.item) ORDER BY o.id",
        "SELECT c.name FROM customers c WHERE 3 NOT IN "
        "(SELECT o.qty FROM orders o WHERE o.cid = c.cid) ORDER BY c.name",
        "SELECT c.name FROM customers c WHERE c.cid IN (SELECT o.cid FROM orders o "
        "WHERE o.item = 'apple' AND o.qty > c.cid / 10) ORDER BY c.name",
        "SELECT c.name, (SELECT SUM(o.qty) FROM orders o WHERE o.cid = c.cid) AS total, "
        "(SELECT COUNT(*) FROM orders o WHERE o.cid = c.cid) AS n "
        "FROM customers c ORDER BY c.name",
        "SELECT o.id FROM orders o WHERE o.qty > "
        "(SELECT AVG(o2.qty) FROM orders o2 WHERE o2.item = o.item) ORDER BY o.id"]:
    t_env.execute_sql(query).print()
