"""Flink's "Hints" page (SQL > Queries > Hints) from Python. Dynamic table options:
``table /*+ OPTIONS('k'='v') */ [AS alias]`` overriding a filesystem CSV table's delimiter or
its 'csv.ignore-parse-errors', a datagen table's 'number-of-rows', in a join and on an INSERT
target; OPTIONS on a view, an unknown hint and 'table.dynamic-table-options.enabled' = false
are refused (an unknown option key: ``hints_unknown_options.py``). Join hints in BATCH mode:
BROADCAST, SHUFFLE_HASH, SHUFFLE_MERGE and NEST_LOOP on inner and left joins, on aliases,
views and sub-queries (query blocks), several tables, conflicting hints, a non-equi and a full
join they cannot apply to, and the hints Flink refuses (a table not in the join, no table,
two hint blocks). Query hints in STREAMING mode: a join hint is ignored there, STATE_TTL on
group aggregates and regular joins (table names, aliases and views as keys), MULTI_JOIN, and a
LOOKUP hint on a regular join (no bundled connector is a lookup source, so no lookup join).
A streaming join's two inputs interleave in no fixed order, so the changelog of a join is
applied and the rows it ends with are printed, sorted."""
import os
import tempfile

from pyflink.common import RowKind
from pyflink.table import EnvironmentSettings, TableEnvironment

directory = tempfile.mkdtemp()
for name, text in (("people", "1;Alice;30\n2;Bob;25\n3;Carol;35\n"),
                   ("scores", "1,90\nx,80\n3,seventy\n4,60\n")):
    os.makedirs(os.path.join(directory, name))
    with open(os.path.join(directory, name, "part-0.csv"), "w") as f:
        f.write(text)


def create_tables(t_env):
    t_env.execute_sql("""CREATE TABLE people (id INT, name STRING, age INT) WITH (
        'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')"""
                      % os.path.join(directory, "people"))
    t_env.execute_sql("""CREATE TABLE scores (id INT, score INT) WITH (
        'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')"""
                      % os.path.join(directory, "scores"))
    t_env.execute_sql("""CREATE TABLE gen (id INT, v INT) WITH ('connector' = 'datagen',
        'number-of-rows' = '10', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',
        'fields.id.end' = '100', 'fields.v.kind' = 'sequence', 'fields.v.start' = '10',
        'fields.v.end' = '1000')""")


def refused(label, query, words=None):
    """Runs a query that Flink refuses; prints the label, and whether the words are in the
    error when they are given."""
    try:
        t_env.execute_sql(query).print()
        print(label, "- no error")
    except Exception as e:  # noqa: BLE001 - PyFlink raises Py4JJavaError; the words differ
        print(label, "fails" if words is None else "fails: %s" % (words in str(e)))


def final_rows(query):
    """Applies a streaming query's changelog and prints the rows it ends with, sorted."""
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
    for values in sorted(final, key=repr):
        print("  ", values)
    print("   retractions of rows not there:", stray)


NO_MATCH = "cannot match the name of input tables or views"

# ---- dynamic table options (STREAMING mode, one source per query)
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
create_tables(t_env)
print("-- OPTIONS overrides the DDL's field delimiter")
t_env.execute_sql("SELECT * FROM people /*+ OPTIONS('csv.field-delimiter'=';') */").print()
print("-- OPTIONS then an alias, with and without AS")
t_env.execute_sql("""SELECT p.name, p.age FROM people /*+ OPTIONS('csv.field-delimiter'=';') */
    AS p WHERE p.age > 26""").print()
t_env.execute_sql("""SELECT p.name FROM people /*+ OPTIONS('csv.field-delimiter'=';') */ p
    WHERE p.id = 2""").print()
refused("an alias before OPTIONS",
        "SELECT p.name FROM people AS p /*+ OPTIONS('csv.field-delimiter'=';') */")
refused("the same table without the hint (its DDL is unchanged)", "SELECT * FROM people")
print("-- 'csv.ignore-parse-errors'")
refused("scores without the hint", "SELECT * FROM scores")
t_env.execute_sql("SELECT * FROM scores /*+ OPTIONS('csv.ignore-parse-errors'='true') */").print()
print("-- datagen: 'number-of-rows' and a field's start overridden")
t_env.execute_sql("SELECT * FROM gen /*+ OPTIONS('number-of-rows'='3') */").print()
t_env.execute_sql("""SELECT * FROM gen /*+ OPTIONS('number-of-rows'='2',
    'fields.id.start'='50') */""").print()
print("-- a key given twice: the last value wins; two OPTIONS hints: the first wins")
t_env.execute_sql("""SELECT * FROM gen
    /*+ OPTIONS('number-of-rows'='1', 'number-of-rows'='4') */""").print()
t_env.execute_sql("""SELECT * FROM gen
    /*+ OPTIONS('number-of-rows'='2'), OPTIONS('number-of-rows'='3') */""").print()
print("-- OPTIONS on an INSERT target")
out = os.path.join(directory, "out")
t_env.execute_sql("""CREATE TABLE people_out (id INT, name STRING) WITH (
    'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')""" % out)
t_env.execute_sql("""INSERT INTO people_out /*+ OPTIONS('csv.field-delimiter'='|') */
    SELECT id, name FROM people /*+ OPTIONS('csv.field-delimiter'=';') */""").wait()
lines = []
for root, _, files in os.walk(out):
    for file in files:
        if not file.startswith("."):
            with open(os.path.join(root, file)) as f:
                lines.extend(f.read().splitlines())
for line in sorted(lines):
    print("  ", line)
print("-- refused")
t_env.execute_sql("CREATE TEMPORARY VIEW people_view AS SELECT * FROM people")
refused("OPTIONS on a view",
        "SELECT * FROM people_view /*+ OPTIONS('csv.field-delimiter'=';') */",
        "cannot be enriched with new options")
refused("a value that does not parse", "SELECT * FROM gen /*+ OPTIONS('number-of-rows'='abc') */")
refused("an unknown hint on a table", "SELECT * FROM gen /*+ NO_SUCH_HINT('a'='b') */")
refused("an unknown query hint", "SELECT /*+ NO_SUCH_HINT(gen) */ * FROM gen")
t_env.get_config().set("table.dynamic-table-options.enabled", "false")
refused("OPTIONS with 'table.dynamic-table-options.enabled' = false",
        "SELECT * FROM gen /*+ OPTIONS('number-of-rows'='2') */",
        "table.dynamic-table-options.enabled")
t_env.get_config().set("table.dynamic-table-options.enabled", "true")

# ---- join hints (BATCH mode; every query ends with ORDER BY)
t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
create_tables(t_env)
t_env.execute_sql("""CREATE TEMPORARY VIEW t1 AS SELECT * FROM (VALUES (1, 'a'), (2, 'b'),
    (3, 'c')) AS T(id, name)""")
t_env.execute_sql("""CREATE TEMPORARY VIEW t2 AS SELECT * FROM (VALUES (1, 10), (3, 30),
    (3, 31), (4, 40)) AS T(id, v)""")
t_env.execute_sql("""CREATE TEMPORARY VIEW t3 AS SELECT * FROM (VALUES (1, 'x'), (3, 'z'))
    AS T(id, w)""")
print("-- OPTIONS on both sides of a join")
t_env.execute_sql("""SELECT p.id, p.name, s.score
    FROM people /*+ OPTIONS('csv.field-delimiter'=';') */ p
    JOIN scores /*+ OPTIONS('csv.ignore-parse-errors'='true') */ s ON p.id = s.id
    ORDER BY p.id""").print()
# NEST_LOOP(t1) on the LEFT JOIN is left out: Flink 2.3 then builds the nested loop join on
# the side the join preserves and its rows are wrong (t1's unmatched row is lost, t2's
# unmatched row comes out with (-1, '') for t1's columns).
for hint in ("BROADCAST(t1)", "SHUFFLE_HASH(t1)", "SHUFFLE_MERGE(t1)", "NEST_LOOP(t1)",
             "BROADCAST(t2)", "SHUFFLE_HASH(t2)", "NEST_LOOP(t2)"):
    for join in ("JOIN", "LEFT JOIN")[:1 if hint == "NEST_LOOP(t1)" else 2]:
        print("--", hint, join)
        t_env.execute_sql("""SELECT /*+ %s */ t1.id, t1.name, t2.v FROM t1 %s t2
            ON t1.id = t2.id ORDER BY t1.id, t2.v""" % (hint, join)).print()
print("-- two joins, BROADCAST(t1, t3)")
t_env.execute_sql("""SELECT /*+ BROADCAST(t1, t3) */ t1.id, t2.v, t3.w FROM t1
    JOIN t2 ON t1.id = t2.id JOIN t3 ON t1.id = t3.id ORDER BY t1.id, t2.v""").print()
print("-- SHUFFLE_HASH(t1, t3) and NEST_LOOP(t1), SHUFFLE_MERGE(t3)")
t_env.execute_sql("""SELECT /*+ SHUFFLE_HASH(t1, t3) */ t1.id, t2.v, t3.w FROM t1
    JOIN t2 ON t1.id = t2.id LEFT JOIN t3 ON t2.v = 31 AND t1.id = t3.id
    ORDER BY t1.id, t2.v""").print()
t_env.execute_sql("""SELECT /*+ NEST_LOOP(t1), SHUFFLE_MERGE(t3) */ t1.id, t2.v, t3.w FROM t1
    JOIN t2 ON t1.id = t2.id JOIN t3 ON t1.id = t3.id ORDER BY t1.id, t2.v""").print()
print("-- a non-equi join: only a nested loop join applies")
t_env.execute_sql("""SELECT /*+ BROADCAST(t1) */ t1.id, t2.id AS id2 FROM t1
    JOIN t2 ON t1.id > t2.id ORDER BY t1.id, id2""").print()
t_env.execute_sql("""SELECT /*+ NEST_LOOP(t2) */ t1.id, t2.id AS id2 FROM t1
    LEFT JOIN t2 ON t1.id > t2.id ORDER BY t1.id, id2""").print()
print("-- a full join: BROADCAST does not apply")
t_env.execute_sql("""SELECT /*+ BROADCAST(t1) */ t1.id, t2.v FROM t1
    FULL OUTER JOIN t2 ON t1.id = t2.id ORDER BY t1.id, t2.v""").print()
print("-- conflicting hints: BROADCAST(t2), BROADCAST(t1) and BROADCAST(t1), SHUFFLE_HASH(t1)")
t_env.execute_sql("""SELECT /*+ BROADCAST(t2), BROADCAST(t1) */ t1.id, t2.v FROM t1
    JOIN t2 ON t1.id = t2.id ORDER BY t1.id, t2.v""").print()
t_env.execute_sql("""SELECT /*+ BROADCAST(t1), SHUFFLE_HASH(t1) */ t1.id, t2.v FROM t1
    FULL OUTER JOIN t2 ON t1.id = t2.id ORDER BY t1.id, t2.v""").print()
print("-- a hint on an alias, in lower case, on a view")
t_env.execute_sql("""SELECT /*+ BROADCAST(a) */ a.id, b.v FROM t1 AS a JOIN t2 AS b
    ON a.id = b.id ORDER BY a.id, b.v""").print()
t_env.execute_sql("""SELECT /*+ shuffle_hash(t2) */ t1.id, t2.v FROM t1 JOIN t2
    ON t1.id = t2.id ORDER BY t1.id, t2.v""").print()
t_env.execute_sql("CREATE TEMPORARY VIEW big AS SELECT * FROM t2 WHERE v > 10")
t_env.execute_sql("""SELECT /*+ SHUFFLE_MERGE(big) */ t1.id, big.v FROM t1 JOIN big
    ON t1.id = big.id ORDER BY t1.id, big.v""").print()
print("-- query blocks: a hint in a sub-query, in a view, and on the outer block (ignored)")
t_env.execute_sql("""SELECT s.id, s.v FROM (SELECT /*+ SHUFFLE_HASH(t1) */ t1.id, t2.v
    FROM t1 JOIN t2 ON t1.id = t2.id) s ORDER BY s.id, s.v""").print()
t_env.execute_sql("""CREATE TEMPORARY VIEW joined AS SELECT /*+ NEST_LOOP(t2) */ t1.id, t2.v
    FROM t1 JOIN t2 ON t1.id = t2.id""")
t_env.execute_sql("SELECT * FROM joined ORDER BY id, v").print()
t_env.execute_sql("""SELECT /*+ SHUFFLE_HASH(t1) */ s.id, s.v FROM (SELECT t1.id, t2.v
    FROM t1 JOIN t2 ON t1.id = t2.id) s ORDER BY s.id, s.v""").print()
t_env.execute_sql("SELECT /*+ BROADCAST(t1) */ id FROM t1 ORDER BY id").print()
print("-- STATE_TTL and LOOKUP in BATCH mode")
t_env.execute_sql("""SELECT /*+ STATE_TTL('t1'='1d') */ t1.id, t2.v FROM t1 JOIN t2
    ON t1.id = t2.id ORDER BY t1.id, t2.v""").print()
t_env.execute_sql("""SELECT /*+ LOOKUP('table'='t2') */ t1.id, t2.v FROM t1 JOIN t2
    ON t1.id = t2.id ORDER BY t1.id, t2.v""").print()
print("-- refused")
refused("a join hint on a table not in the join",
        "SELECT /*+ BROADCAST(t3) */ t1.id, t2.v FROM t1 JOIN t2 ON t1.id = t2.id", NO_MATCH)
refused("a join hint on a table that does not exist",
        "SELECT /*+ SHUFFLE_HASH(t9) */ t1.id, t2.v FROM t1 JOIN t2 ON t1.id = t2.id", NO_MATCH)
refused("a join hint on the name of an aliased table",
        "SELECT /*+ BROADCAST(t1) */ a.id, b.v FROM t1 AS a JOIN t2 AS b ON a.id = b.id",
        NO_MATCH)
refused("a join hint with no table",
        "SELECT /*+ BROADCAST */ t1.id, t2.v FROM t1 JOIN t2 ON t1.id = t2.id")
refused("a join hint with key-value options",
        "SELECT /*+ NEST_LOOP('t1'='x') */ t1.id, t2.v FROM t1 JOIN t2 ON t1.id = t2.id")
refused("two hint blocks", """SELECT /*+ BROADCAST(t1) */ /*+ SHUFFLE_HASH(t1) */ t1.id, t2.v
    FROM t1 JOIN t2 ON t1.id = t2.id""")
refused("two hints without a comma", """SELECT /*+ BROADCAST(t1) SHUFFLE_HASH(t1) */ t1.id, t2.v
    FROM t1 JOIN t2 ON t1.id = t2.id""")
refused("an unknown join hint",
        "SELECT /*+ MERGE_JOIN(t1) */ t1.id, t2.v FROM t1 JOIN t2 ON t1.id = t2.id")

# ---- query hints in STREAMING mode
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("""CREATE TEMPORARY VIEW orders AS SELECT * FROM (VALUES (1, 1, 10.0),
    (2, 2, 20.0), (3, 1, 5.0), (4, 3, 7.0)) AS T(o_orderkey, o_custkey, o_totalprice)""")
t_env.execute_sql("""CREATE TEMPORARY VIEW customers AS SELECT * FROM (VALUES (1, 'Paris'),
    (2, 'Rome')) AS T(c_custkey, c_address)""")
t_env.execute_sql("""CREATE TEMPORARY VIEW lineitem AS SELECT * FROM (VALUES (1, 'pen'),
    (3, 'ink'), (3, 'cap')) AS T(l_orderkey, l_item)""")
print("-- STATE_TTL on a group aggregate: the table name, an alias")
t_env.execute_sql("""SELECT /*+ STATE_TTL('orders'='1d') */ o_custkey,
    SUM(o_totalprice) AS revenue FROM orders GROUP BY o_custkey""").print()
t_env.execute_sql("""SELECT /*+ STATE_TTL('o'='12h') */ o_custkey, COUNT(*) AS n
    FROM orders AS o GROUP BY o_custkey""").print()
t_env.execute_sql("""SELECT /*+ STATE_TTL('orders'='1d', 'orders'='2d'), STATE_TTL('orders'='6h') */
    COUNT(*) AS n FROM orders""").print()
print("-- STATE_TTL on a query block with no join or aggregate")
t_env.execute_sql("SELECT /*+ STATE_TTL('orders'='1d') */ o_orderkey FROM orders").print()
print("-- STATE_TTL on regular joins: table names, aliases, views, nested query blocks")
final_rows("""SELECT /*+ STATE_TTL('orders'='3d', 'customers'='1d') */ o_orderkey, c_address
    FROM orders JOIN customers ON o_custkey = c_custkey""")
final_rows("""SELECT /*+ STATE_TTL('o'='3d', 'c'='1d') */ o.o_orderkey, c.c_address
    FROM orders o LEFT JOIN customers c ON o.o_custkey = c.c_custkey""")
t_env.execute_sql("""CREATE TEMPORARY VIEW left_input AS SELECT * FROM orders
    WHERE o_totalprice > 6""")
t_env.execute_sql("CREATE TEMPORARY VIEW right_input AS SELECT * FROM lineitem")
final_rows("""SELECT /*+ STATE_TTL('left_input'='360000s', 'right_input'='15h') */
    left_input.o_orderkey, right_input.l_item FROM left_input
    JOIN right_input ON left_input.o_orderkey = right_input.l_orderkey""")
final_rows("""SELECT /*+ STATE_TTL('orders'='1d', 'customers'='2d', 'lineitem'='3d') */
    o_orderkey, c_address, l_item FROM orders
    JOIN customers ON o_custkey = c_custkey LEFT JOIN lineitem ON o_orderkey = l_orderkey""")
final_rows("""SELECT /*+ STATE_TTL('tmp'='1d') */ c_address, SUM(o_totalprice) AS revenue
    FROM (SELECT /*+ STATE_TTL('o'='12h', 'c'='3d') */ * FROM orders o
          LEFT JOIN customers c ON o.o_custkey = c.c_custkey) tmp GROUP BY c_address""")
final_rows("""SELECT /*+ STATE_TTL('agg'='1d', 'customers'='7d') */ agg.o_custkey, agg.n,
    c_address FROM (SELECT /*+ STATE_TTL('orders'='30d') */ o_custkey, COUNT(*) AS n
    FROM orders GROUP BY o_custkey) agg
    LEFT JOIN customers ON agg.o_custkey = customers.c_custkey""")
print("-- a join hint in STREAMING mode is ignored; so is LOOKUP on a regular join")
final_rows("""SELECT /*+ BROADCAST(customers) */ o_orderkey, c_address FROM orders
    JOIN customers ON o_custkey = c_custkey""")
final_rows("""SELECT /*+ SHUFFLE_HASH(orders), NEST_LOOP(customers) */ o_orderkey, c_address
    FROM orders LEFT JOIN customers ON o_custkey = c_custkey""")
final_rows("""SELECT /*+ LOOKUP('table'='customers') */ o_orderkey, c_address FROM orders
    JOIN customers ON o_custkey = c_custkey""")
print("-- MULTI_JOIN")
final_rows("""SELECT /*+ MULTI_JOIN(orders, customers, lineitem) */ o_orderkey, c_address,
    l_item FROM orders JOIN customers ON o_custkey = c_custkey
    JOIN lineitem ON o_orderkey = l_orderkey""")
print("-- refused")
refused("STATE_TTL on a key that is not an input",
        """SELECT /*+ STATE_TTL('foo'='1d', 'customers'='20d') */ * FROM orders
        LEFT JOIN customers ON o_custkey = c_custkey""", NO_MATCH)
refused("STATE_TTL on the name of an aliased table",
        "SELECT /*+ STATE_TTL('orders'='1d') */ COUNT(*) AS n FROM orders AS o", NO_MATCH)
refused("STATE_TTL on an aggregate naming a table that is not its input",
        """SELECT /*+ STATE_TTL('orders'='1d', 'customers'='1d') */ o_custkey, COUNT(*) AS n
        FROM orders GROUP BY o_custkey""", NO_MATCH)
refused("STATE_TTL with a value that is not a duration",
        "SELECT /*+ STATE_TTL('orders'='abc') */ COUNT(*) AS n FROM orders")
refused("STATE_TTL with a list of tables",
        "SELECT /*+ STATE_TTL(orders) */ COUNT(*) AS n FROM orders")
refused("a join hint on a table not in the join",
        """SELECT /*+ BROADCAST(lineitem) */ o_orderkey FROM orders
        JOIN customers ON o_custkey = c_custkey""", NO_MATCH)
refused("LOOKUP naming a table not in the join",
        """SELECT /*+ LOOKUP('table'='nope') */ o_orderkey FROM orders
        JOIN customers ON o_custkey = c_custkey""", NO_MATCH)
