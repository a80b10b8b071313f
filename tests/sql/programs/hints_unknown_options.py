"""Dynamic table options (the "Hints" page) that name an option the table's connector and
format do not have are refused, as a DDL's would be: on a datagen table read, and on a
filesystem table an INSERT writes."""
import tempfile

from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("""CREATE TABLE gen (id INT) WITH ('connector' = 'datagen',
    'number-of-rows' = '3', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',
    'fields.id.end' = '3')""")
t_env.execute_sql("""CREATE TABLE out_table (id INT) WITH ('connector' = 'filesystem',
    'path' = '%s', 'format' = 'csv')""" % tempfile.mkdtemp())
for label, query in (
        ("an unknown option key", "SELECT * FROM gen /*+ OPTIONS('no.such.option'='x') */"),
        ("an unknown option key on an INSERT target",
         "INSERT INTO out_table /*+ OPTIONS('no.such.option'='x') */ SELECT 1")):
    try:
        t_env.execute_sql(query).wait()
        print(label, "- no error")
    except Exception as e:  # noqa: BLE001 - PyFlink raises Py4JJavaError
        print(label, "fails: %s" % ("Unsupported options" in str(e)))
