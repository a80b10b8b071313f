"""Connector options as Flink checks them when a statement reads or writes a table: datagen's
per-column keys by type and kind (a sequence takes start and end, not min; a DATE column
only its kind; a STRING its length), keys of the wrong case, a filesystem table's format
keys (not checked), print's and blackhole's keys; each statement either runs or fails with
"Unsupported options"."""
import tempfile

from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
directory = tempfile.mkdtemp()
CASES = [
    ("datagen: a sequence, a random INT, a STRING's length",
     "id INT, v INT, s STRING", "'fields.id.kind'='sequence', 'fields.id.start'='1', "
     "'fields.id.end'='3', 'fields.v.min'='5', 'fields.v.max'='5', 'fields.s.length'='2'"),
    ("datagen: min of a sequence", "id INT",
     "'fields.id.kind'='sequence', 'fields.id.start'='1', 'fields.id.end'='3', "
     "'fields.id.min'='1'"),
    ("datagen: a column that is not there", "id INT", "'fields.nope.kind'='random'"),
    ("datagen: min of a DATE", "d DATE", "'fields.d.min'='1'"),
    ("datagen: length of an INT", "id INT", "'fields.id.length'='3'"),
    ("datagen: a key in upper case", "id INT", "'Rows-Per-Second'='5'"),
    ("datagen: an array's element and a row's field", "a ARRAY<INT>, r ROW<x INT, y STRING>",
     "'fields.a.element.min'='1', 'fields.a.element.max'='1', 'fields.a.length'='2', "
     "'fields.r.x.min'='7', 'fields.r.x.max'='7', 'fields.r.y.length'='1'"),
    ("datagen: a map's keys and values", "m MAP<STRING, INT>",
     "'fields.m.key.length'='1', 'fields.m.value.min'='1', 'fields.m.value.max'='1', "
     "'fields.m.length'='1'"),
]
for label, columns, options in CASES:
    name = "t%d" % CASES.index((label, columns, options))
    t_env.execute_sql("CREATE TABLE %s (%s) WITH ('connector'='datagen', "
                      "'number-of-rows'='3', %s)" % (name, columns, options))
    try:
        rows = t_env.execute_sql("SELECT COUNT(*) FROM %s" % name).collect()
        with rows:
            print(label, "- runs:", next(iter(rows))[0], "rows")
    except Exception as e:  # noqa: BLE001 - PyFlink raises Py4JJavaError
        print(label, "- fails:", "Unsupported options" in str(e))

SINKS = [
    ("filesystem: a csv key that does not exist (format keys are not checked)",
     "'connector'='filesystem', 'path'='%s', 'format'='csv', 'csv.no-such'='x'" % directory),
    ("filesystem: an unknown key", "'connector'='filesystem', 'path'='%s', 'format'='csv', "
     "'no.such'='x'" % directory),
    ("print: its identifier and standard-error",
     "'connector'='print', 'print-identifier'='p', 'standard-error'='false'"),
    ("print: an unknown key", "'connector'='print', 'no.such'='x'"),
    ("blackhole: an unknown key", "'connector'='blackhole', 'no.such'='x'"),
]
for i, (label, options) in enumerate(SINKS):
    t_env.execute_sql("CREATE TABLE s%d (id INT) WITH (%s)" % (i, options))
    try:
        t_env.execute_sql("INSERT INTO s%d SELECT * FROM (VALUES (1)) AS T(id)" % i).wait()
        print(label, "- runs")
    except Exception as e:  # noqa: BLE001 - PyFlink raises Py4JJavaError
        print(label, "- fails:", "Unsupported options" in str(e))
