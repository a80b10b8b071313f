"""CSV as Flink's filesystem sink writes it (Jackson's loose quoting: a string is quoted when
it is longer than 24 characters or has a character below '-', such as a space or a comma),
NULL and '' both as an empty field, timestamps in SQL form without the fraction's trailing
zeros, numbers, booleans, dates and decimals bare; in BATCH and in STREAMING mode; then read
back as strings (an empty field reads as '', not NULL)."""
import os
import tempfile

from pyflink.table import EnvironmentSettings, TableEnvironment


def files_of(directory):
    lines = []
    for folder, _, names in os.walk(directory):
        for name in names:
            if not name.startswith((".", "_")):
                with open(os.path.join(folder, name)) as f:
                    lines.extend(line.rstrip("\n") for line in f)
    return sorted(lines)


ROWS = """VALUES
    (1, 'TEA', CAST('' AS STRING), TIMESTAMP '2026-01-01 00:00:05.000', 1.5, TRUE,
     DATE '2026-03-04', CAST(12.30 AS DECIMAL(10, 2))),
    (4, 'a-b.c_d:e', 'x y', TIMESTAMP '2026-01-01 00:00:00.000', 1e20, TRUE,
     DATE '2026-01-01', CAST(10.00 AS DECIMAL(10, 2))),
    (2, 'a,b', 'he said "hi"', TIMESTAMP '2026-01-01 00:00:05.100', -0.25, FALSE,
     DATE '2026-12-31', CAST(-0.05 AS DECIMAL(10, 2))),
    (3, CAST(NULL AS STRING), 'abcdefghijklmnopqrstuvwxyz', TIMESTAMP '2026-01-01 23:59:59.123',
     CAST(NULL AS DOUBLE), CAST(NULL AS BOOLEAN), CAST(NULL AS DATE),
     CAST(NULL AS DECIMAL(10, 2)))"""

for mode in ("batch", "streaming"):
    settings = EnvironmentSettings.in_batch_mode() if mode == "batch" \
        else EnvironmentSettings.in_streaming_mode()
    t_env = TableEnvironment.create(settings)
    t_env.get_config().set("parallelism.default", "1")
    directory = tempfile.mkdtemp()
    t_env.execute_sql("""CREATE TABLE out_csv (id INT, name STRING, note STRING,
        ts TIMESTAMP(3), x DOUBLE, flag BOOLEAN, d DATE, amount DECIMAL(10, 2))
        WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')""" % directory)
    t_env.execute_sql("INSERT INTO out_csv SELECT * FROM (%s) AS t(id, name, note, ts, x, flag, "
                      "d, amount)" % ROWS).wait()
    print("== %s" % mode)
    for line in files_of(directory):
        print(line)
    reader = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    reader.execute_sql("""CREATE TABLE in_csv (id STRING, name STRING, note STRING, ts STRING,
        x STRING, flag STRING, d STRING, amount STRING)
        WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')""" % directory)
    reader.execute_sql("SELECT id, name, name IS NULL, CHAR_LENGTH(note), note, ts, x, flag, "
                      "d, amount, amount IS NULL FROM in_csv ORDER BY id").print()
