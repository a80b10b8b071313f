"""The filesystem connector: write CSV and JSON into a directory, then read them back."""
# oracle: unordered
import tempfile

from pyflink.table import EnvironmentSettings, TableEnvironment

directory = tempfile.mkdtemp()
t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
for fmt in ("csv", "json"):
    t_env.execute_sql("""CREATE TABLE out_%s (id INT, name STRING, price DOUBLE)
        WITH ('connector' = 'filesystem', 'path' = '%s/%s', 'format' = '%s')"""
                      % (fmt, directory, fmt, fmt))
    t_env.execute_sql("INSERT INTO out_%s VALUES (1, 'apple', 1.5), (2, 'pear', 2.0)"
                      % fmt).wait()
    t_env.execute_sql("SELECT * FROM out_%s" % fmt).print()
