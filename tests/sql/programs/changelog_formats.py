"""Changelog formats: debezium-json, canal-json and maxwell-json files read as changelogs
(inserts, updates with their before images, deletes), aggregated with retractions, refused in
BATCH mode, and an updating table written in each format and read back."""
import glob
import os
import tempfile

from pyflink.table import EnvironmentSettings, TableEnvironment

RECORDS = {
    "debezium-json": [
        '{"before":null,"after":{"id":1,"name":"apple","price":1.5},"op":"c"}',
        '{"before":null,"after":{"id":2,"name":"pear","price":2.0},"op":"r"}',
        '{"before":{"id":1,"name":"apple","price":1.5},'
        '"after":{"id":1,"name":"apple","price":1.75},"op":"u"}',
        '{"before":{"id":2,"name":"pear","price":2.0},"after":null,"op":"d"}',
        '{"before":null,"after":{"id":3,"name":"fig","price":3.0},"op":"c"}'],
    "canal-json": [
        '{"data":[{"id":1,"name":"apple","price":1.5},{"id":2,"name":"pear","price":2.0}],'
        '"database":"shop","table":"products","type":"INSERT"}',
        '{"data":[{"id":1,"name":"apple","price":1.75}],"old":[{"price":1.5}],'
        '"database":"shop","table":"products","type":"UPDATE"}',
        '{"data":[{"id":2,"name":"pear","price":2.0}],"database":"shop","table":"products",'
        '"type":"DELETE"}',
        '{"data":[{"id":3,"name":"fig","price":3.0}],"database":"shop","table":"products",'
        '"type":"INSERT"}'],
    "maxwell-json": [
        '{"database":"shop","table":"products","type":"insert",'
        '"data":{"id":1,"name":"apple","price":1.5}}',
        '{"database":"shop","table":"products","type":"insert",'
        '"data":{"id":2,"name":"pear","price":2.0}}',
        '{"database":"shop","table":"products","type":"update",'
        '"data":{"id":1,"name":"apple","price":1.75},"old":{"price":1.5}}',
        '{"database":"shop","table":"products","type":"delete",'
        '"data":{"id":2,"name":"pear","price":2.0}}',
        '{"database":"shop","table":"products","type":"insert",'
        '"data":{"id":3,"name":"fig","price":3.0}}'],
}

directory = tempfile.mkdtemp()
for fmt, records in RECORDS.items():
    source = os.path.join(directory, fmt)
    os.makedirs(source)
    with open(os.path.join(source, "changes.json"), "w") as f:
        f.write("\n".join(records) + "\n")
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.get_config().set("parallelism.default", "1")
    t_env.execute_sql("""CREATE TABLE products (id INT, name STRING, price DOUBLE)
        WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = '%s')""" % (source, fmt))
    print(fmt)
    t_env.execute_sql("SELECT * FROM products").print()
    t_env.execute_sql("SELECT COUNT(*) AS n, SUM(price) AS total, AVG(id) AS mean_id "
                      "FROM products").print()
    t_env.execute_sql("SELECT name, COUNT(*) AS n FROM products GROUP BY name").print()

nulls = os.path.join(directory, "nulls")  # SUM of no values left is NULL, COUNT goes on
os.makedirs(nulls)
with open(os.path.join(nulls, "changes.json"), "w") as f:
    f.write("\n".join(RECORDS["debezium-json"][:2] + [
        '{"before":null,"after":{"id":4,"name":"kiwi","price":null},"op":"c"}',
        '{"before":{"id":1,"name":"apple","price":1.5},"after":null,"op":"d"}',
        '{"before":{"id":2,"name":"pear","price":2.0},"after":null,"op":"d"}']) + "\n")
t_env.execute_sql("""CREATE TABLE priced (id INT, name STRING, price DOUBLE)
    WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'debezium-json')""" % nulls)
t_env.execute_sql("SELECT COUNT(*) AS n, SUM(price) AS total FROM priced").print()

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.execute_sql("""CREATE TABLE products (id INT, name STRING, price DOUBLE)
    WITH ('connector' = 'filesystem', 'path' = '%s/debezium-json', 'format' = 'debezium-json')"""
                  % directory)
try:
    t_env.execute_sql("SELECT * FROM products").print()
except Exception as e:  # noqa: BLE001 - PyFlink raises its own TableException
    print("BATCH mode:", str(e).split("TableException: ")[-1].splitlines()[0])

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
clicks = os.path.join(directory, "clicks")
os.makedirs(clicks)
with open(os.path.join(clicks, "clicks.csv"), "w") as f:
    f.write("a,1\nb,2\na,3\nb,-2\n")
t_env.execute_sql("""CREATE TABLE clicks (k STRING, v INT)
    WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')""" % clicks)
for fmt in RECORDS:
    out = os.path.join(directory, "out-" + fmt)
    name = fmt.split("-")[0]
    t_env.execute_sql("""CREATE TABLE totals_%s (k STRING, total INT)
        WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = '%s')""" % (name, out, fmt))
    t_env.execute_sql("INSERT INTO totals_%s SELECT k, SUM(v) FROM clicks GROUP BY k"
                      % name).wait()
    print(fmt, "written:")
    for path in sorted(glob.glob(os.path.join(out, "**"), recursive=True)):
        if os.path.isfile(path) and not os.path.basename(path).startswith((".", "_")):
            with open(path) as f:
                print(f.read().strip())
    t_env.execute_sql("SELECT * FROM totals_%s" % name).print()
