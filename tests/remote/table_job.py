"""The Table API and SQL program the deployment tests run with ``pystream run`` on a
standalone cluster and over Spark Connect: a SQL aggregate in BATCH mode, a STREAMING
changelog, a Python UDF and a table function, and a group-by over an unbounded datagen
table (a Structured Streaming job, cancelled after its first changes). Prints
``RESULT {...}``."""
import json

from pystream.table import DataTypes, EnvironmentSettings, TableEnvironment
from pystream.table.expressions import col
from pystream.table.udf import udf, udtf

DATAGEN = """CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '6',
    'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '6')"""


def batch_sql():
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t_env.execute_sql(DATAGEN)
    with t_env.execute_sql("SELECT id % 2 AS k, SUM(id) AS s FROM src GROUP BY id % 2 "
                           "ORDER BY k").collect() as rows:
        return [list(r) for r in rows]


def streaming_changelog():
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t = t_env.from_elements([(1, "a"), (2, "b"), (3, "a")], ["id", "k"])
    counts = t.group_by(col("k")).select(col("k"), col("id").count)
    with counts.execute().collect() as rows:
        return ["%s%s" % (r.get_row_kind(), [str(v) for v in r]) for r in rows]


def python_functions():
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t = t_env.from_elements([(1, "a b"), (2, "c")], ["id", "words"])
    shout = udf(lambda s: s.upper(), result_type=DataTypes.STRING())
    split = udtf(lambda s: [(w,) for w in s.split()], result_types=[DataTypes.STRING()])
    table = t.join_lateral(split(col("words")).alias("w")).select(col("id"), shout(col("w")))
    with table.execute().collect() as rows:
        return sorted(list(r) for r in rows)


def unbounded_changelog():
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.execute_sql("CREATE TABLE ticks (n INT) WITH ('connector' = 'datagen', "
                      "'rows-per-second' = '10', 'fields.n.min' = '7', 'fields.n.max' = '7')")
    changes = []
    with t_env.execute_sql("SELECT n, COUNT(*) FROM ticks GROUP BY n").collect() as rows:
        for row in rows:
            changes.append("%s%s" % (row.get_row_kind(), list(row)))
            if len(changes) == 3:
                break
    return changes


print("RESULT " + json.dumps({"batch": batch_sql(), "changelog": streaming_changelog(),
                              "udf": python_functions(), "unbounded": unbounded_changelog()}))
