"""Flink's "Configuration" page (Table API): options set and read back (a default for an unset
key, durations written as Flink writes them, the runtime mode recorded by the settings), the
sink's NOT NULL enforcer (ERROR fails the job, DROP leaves the row out), the implicit cast of
a text into its sink column (CHAR(5) padded, VARCHAR(3) cut), an INSERT's printed result,
and values that do not parse refused."""
import datetime
import re

from pyflink.common import Configuration
from pyflink.table import EnvironmentSettings, TableEnvironment


def refused(what, call):
    try:
        call()
        print(what, "-> accepted")
    except Exception as e:  # noqa: BLE001 (PyFlink's are Java's: print what they say)
        said = re.search(r"Could not parse value '[^']*' for key '[^']*'\.|Column '\w+' is NOT "
                         r"NULL, however, a null value is being written into it\.", str(e))
        print(what, "-> refused:", said.group(0) if said else "(other)")


settings = EnvironmentSettings.new_instance().in_batch_mode().build()
print("settings streaming:", settings.is_streaming_mode(),
      "mode:", settings.get_configuration().get_string("execution.runtime-mode", "unset"))
t_env = TableEnvironment.create(settings)
config = t_env.get_config()
print("runtime mode:", config.get("execution.runtime-mode", "unset"))
print("unset key:", config.get("table.local-time-zone", "unset"))
config.set_idle_state_retention(datetime.timedelta(hours=1))
print("ttl written:", config.get("table.exec.state.ttl", "unset"))
for text in ("1 min", "2 d", "30s", "1500 ms"):
    config.set("table.exec.state.ttl", text)
    print("ttl", repr(text), "->", config.get_idle_state_retention())
config.set("table.exec.state.ttl", "0 ms")
config.set_local_timezone("Asia/Tokyo")
print("zone:", config.get_local_timezone())
refused("set_local_timezone('Invalid/Zone')", lambda: config.set_local_timezone("Invalid/Zone"))
conf = Configuration()
conf.set_string("k", "hello")
conf.set_string("n", "1.5")
print("get_float default:", repr(conf.get_float("missing", 2)))
refused("get_integer('k')", lambda: conf.get_integer("k", 0))
refused("get_boolean('k')", lambda: conf.get_boolean("k", False))
refused("get_integer('n')", lambda: conf.get_integer("n", 0))

config.set("parallelism.default", "1")
t_env.execute_sql("CREATE TEMPORARY VIEW v AS SELECT * FROM (VALUES (1, 'a'), "
                  "(2, CAST(NULL AS STRING)), (3, 'c')) AS T(id, name)")
t_env.execute_sql("CREATE TABLE not_null_sink (id INT, name STRING NOT NULL) "
                  "WITH ('connector' = 'print')")
t_env.execute_sql("CREATE TABLE not_null_void (id INT, name STRING NOT NULL) "
                  "WITH ('connector' = 'blackhole')")
t_env.execute_sql("CREATE TABLE sized_sink (c CHAR(5), v VARCHAR(3)) "
                  "WITH ('connector' = 'print')")
refused("NULL into NOT NULL (ERROR)",
        lambda: t_env.execute_sql("INSERT INTO not_null_void SELECT id, name FROM v").wait())
config.set("table.exec.sink.not-null-enforcer", "DROP")
t_env.execute_sql("INSERT INTO not_null_sink SELECT id, name FROM v").wait()
config.set("table.exec.sink.not-null-enforcer", "WARN")
refused("not-null-enforcer WARN",
        lambda: t_env.execute_sql("INSERT INTO not_null_void SELECT id, name FROM v").wait())
config.set("table.exec.sink.not-null-enforcer", "ERROR")
t_env.execute_sql("INSERT INTO sized_sink SELECT CAST(a AS CHAR(8)), b FROM "
                  "(VALUES ('ab', 'abcdef'), ('abcdefgh', 'x')) AS T(a, b)").wait()
result = t_env.execute_sql("INSERT INTO sized_sink VALUES ('ab', 'abcdef')")
result.wait()
result.print()
print("result kind:", result.get_result_kind())
statements = t_env.create_statement_set()
statements.add_insert_sql("INSERT INTO sized_sink VALUES ('x', 'y')")
statements.add_insert_sql("INSERT INTO not_null_sink VALUES (7, 'z')")
both = statements.execute()
both.wait()
both.print()
for key, value, default in (("table.exec.resource.default-parallelism", "abc", "-1"),
                            ("table.exec.sink.type-length-enforcer", "TRIM", "IGNORE")):
    config.set(key, value)
    refused("%s=%s" % (key, value), lambda: t_env.execute_sql("SELECT 1").wait())
    config.set(key, default)
