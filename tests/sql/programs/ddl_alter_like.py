"""CREATE TABLE ... LIKE (with its options), ALTER TABLE (SET, RESET, RENAME TO, ADD, RENAME
a column, DROP, MODIFY), CREATE CATALOG, and VALUES with expressions."""
import os
import tempfile

from pyflink.table import EnvironmentSettings, TableEnvironment

directory = tempfile.mkdtemp()
for name, lines in (("a", ["1,apple,3", "2,pear,5"]), ("b", ["7,fig,1", "8,kiwi,x"])):
    os.makedirs(os.path.join(directory, name))
    with open(os.path.join(directory, name, "part-0.csv"), "w") as f:
        f.write("\n".join(lines) + "\n")


def run(statement):
    print(statement.replace(directory, "<dir>"))
    try:
        t_env.execute_sql(statement).print()
    except Exception:  # noqa: BLE001 - PyFlink raises Py4JJavaError; the words differ
        print("fails")


t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
run("""CREATE TABLE orders (id INT, item STRING, amount INT) WITH ('connector' = 'filesystem',
    'path' = '%s', 'format' = 'csv')""" % os.path.join(directory, "a"))
run("CREATE TABLE orders_b WITH ('path' = '%s', 'csv.ignore-parse-errors' = 'true') "
    "LIKE orders" % os.path.join(directory, "b"))
run("SELECT * FROM orders_b")
run("DESCRIBE orders_b")
run("CREATE TABLE wide (note STRING) WITH ('connector' = 'blackhole') "
    "LIKE orders (EXCLUDING OPTIONS)")
run("DESCRIBE wide")
run("CREATE TABLE missing_like WITH ('connector' = 'blackhole') LIKE no_such_table")
run("ALTER TABLE orders SET ('path' = '%s')" % os.path.join(directory, "b"))
run("SELECT * FROM orders")
run("ALTER TABLE orders SET ('csv.ignore-parse-errors' = 'true')")
run("SELECT * FROM orders")
run("ALTER TABLE orders RESET ('csv.ignore-parse-errors')")
run("ALTER TABLE orders SET ('path' = '%s')" % os.path.join(directory, "a"))
run("ALTER TABLE orders RENAME TO purchases")
run("SHOW TABLES")
run("SELECT * FROM orders")
run("ALTER TABLE purchases ADD total AS amount * 10")
run("ALTER TABLE purchases ADD (discount DOUBLE)")
run("SELECT * FROM purchases")
run("ALTER TABLE purchases RENAME item TO product")
run("ALTER TABLE purchases DROP discount")
run("ALTER TABLE purchases MODIFY amount BIGINT")
run("DESCRIBE purchases")
run("SELECT * FROM purchases")
run("ALTER TABLE purchases DROP no_such_column")
run("ALTER TABLE no_such_table RENAME TO x")
run("CREATE CATALOG mycat WITH ('type' = 'generic_in_memory')")
run("SHOW CATALOGS")
run("USE CATALOG mycat")
run("SHOW DATABASES")
run("CREATE TABLE t (x INT) WITH ('connector' = 'datagen', 'number-of-rows' = '2', "
    "'fields.x.kind' = 'sequence', 'fields.x.start' = '1', 'fields.x.end' = '2')")
run("SELECT * FROM mycat.`default`.t")
run("USE CATALOG default_catalog")
run("SELECT * FROM (VALUES (1 + 1, 'a' || 'b'), (3, UPPER('c'))) AS t(x, y)")
run("SELECT x * 2 AS x2 FROM (VALUES (CAST(1 AS BIGINT)), (ABS(-5))) AS t(x)")
