"""Event-time temporal joins: orders joined with the currency rate valid at each order's time
(FOR SYSTEM_TIME AS OF), from a versioned table (a debezium-json changelog with a primary key
and a watermark); inner and left; STREAMING. Then the errors of a temporal join PyFlink
refuses."""
# oracle: unordered
import json
import os
import tempfile

from pyflink.table import EnvironmentSettings, TableEnvironment

directory = tempfile.mkdtemp()
os.makedirs(os.path.join(directory, "orders"))
os.makedirs(os.path.join(directory, "rates"))
with open(os.path.join(directory, "orders", "part-0.csv"), "w") as f:
    f.write("\n".join(["o1,10,EUR,2024-04-15 09:00:00", "o2,20,EUR,2024-04-15 10:30:00",
                       "o3,30,USD,2024-04-15 09:30:00", "o4,40,GBP,2024-04-15 09:00:00",
                       "o5,50,EUR,2024-04-15 07:00:00"]) + "\n")


def rate(currency, value, time):
    return {"currency": currency, "rate": value, "update_time": "2024-04-15 %s" % time}


changes = [
    {"before": None, "after": rate("EUR", 1.10, "08:00:00"), "op": "c"},
    {"before": None, "after": rate("USD", 1.00, "08:00:00"), "op": "c"},
    {"before": rate("EUR", 1.10, "08:00:00"), "after": rate("EUR", 1.20, "10:00:00"),
     "op": "u"},
    {"before": None, "after": rate("GBP", 0.90, "12:00:00"), "op": "c"},
]
with open(os.path.join(directory, "rates", "part-0.json"), "w") as f:
    f.write("\n".join(json.dumps(c) for c in changes) + "\n")

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("""CREATE TABLE orders (order_id STRING, price INT, currency STRING,
    order_time TIMESTAMP(3), WATERMARK FOR order_time AS order_time) WITH (
    'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')"""
                  % os.path.join(directory, "orders"))
t_env.execute_sql("""CREATE TABLE rates (currency STRING, rate DOUBLE,
    update_time TIMESTAMP(3), WATERMARK FOR update_time AS update_time,
    PRIMARY KEY (currency) NOT ENFORCED) WITH ('connector' = 'filesystem', 'path' = '%s',
    'format' = 'debezium-json')""" % os.path.join(directory, "rates"))
t_env.execute_sql("""SELECT o.order_id, o.price, o.currency, r.rate, o.order_time
    FROM orders AS o JOIN rates FOR SYSTEM_TIME AS OF o.order_time AS r
    ON o.currency = r.currency""").print()
t_env.execute_sql("""SELECT o.order_id, o.price * r.rate AS converted
    FROM orders AS o LEFT JOIN rates FOR SYSTEM_TIME AS OF o.order_time AS r
    ON o.currency = r.currency""").print()

t_env.execute_sql("""CREATE TABLE rates_without_key (currency STRING, rate DOUBLE,
    update_time TIMESTAMP(3), WATERMARK FOR update_time AS update_time) WITH (
    'connector' = 'filesystem', 'path' = '%s', 'format' = 'debezium-json')"""
                  % os.path.join(directory, "rates"))
t_env.execute_sql("""CREATE TABLE orders_by_proctime (order_id STRING, currency STRING,
    pt AS PROCTIME()) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv',
    'csv.ignore-parse-errors' = 'true')""" % os.path.join(directory, "orders"))
for query in [
    """SELECT o.order_id, r.rate FROM orders AS o
       JOIN rates_without_key FOR SYSTEM_TIME AS OF o.order_time AS r
       ON o.currency = r.currency""",
    """SELECT o.order_id, r.rate FROM orders_by_proctime AS o
       JOIN rates FOR SYSTEM_TIME AS OF o.pt AS r ON o.currency = r.currency""",
    """SELECT o.order_id, r.rate FROM orders AS o
       JOIN rates FOR SYSTEM_TIME AS OF o.order_time AS r ON o.price > 1""",
]:
    try:
        t_env.execute_sql(query).print()
    except Exception as e:  # noqa: BLE001 - PyFlink raises Py4JJavaError
        # the message of the innermost Java exception, up to its first sentence
        lines = [line for line in str(e).splitlines() if "Exception: " in line]
        print((lines[-1] if lines else str(e).splitlines()[0]).split("Exception: ")[-1]
              .split(". ")[0])
