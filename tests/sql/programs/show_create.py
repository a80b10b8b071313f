"""SHOW CREATE TABLE (physical and computed columns, a watermark, a primary key, comments,
partitions, NOT NULL, options sorted, a temporary table); of a table that does not exist,
of a view asked as a table and a table asked as a view (SHOW CREATE VIEW's text:
show_create_view.py)."""
from pyflink.table import EnvironmentSettings, TableEnvironment


def run(statement):
    print(statement)
    try:
        t_env.execute_sql(statement).print()
    except Exception:  # noqa: BLE001 - PyFlink raises Py4JJavaError; the words differ
        print("fails")


t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
run("""CREATE TABLE orders (
    id INT NOT NULL,
    item STRING COMMENT 'what was bought',
    price DECIMAL(10, 2),
    ts TIMESTAMP(3),
    total AS price * 2,
    part_day STRING,
    WATERMARK FOR ts AS ts - INTERVAL '5' SECOND,
    PRIMARY KEY (id) NOT ENFORCED
) COMMENT 'the orders' PARTITIONED BY (part_day) WITH (
    'connector' = 'filesystem', 'path' = '/tmp/nowhere', 'format' = 'json'
)""")
run("SHOW CREATE TABLE orders")
run("""CREATE TEMPORARY TABLE clicks (user_id BIGINT, url STRING, proc AS PROCTIME())
    WITH ('connector' = 'datagen', 'rows-per-second' = '5', 'fields.url.length' = '3')""")
run("SHOW CREATE TABLE clicks")
run("CREATE VIEW big_orders AS SELECT id, item FROM orders WHERE price > 10")
run("SHOW CREATE TABLE big_orders")
run("SHOW CREATE TABLE missing")
run("SHOW CREATE VIEW orders")
