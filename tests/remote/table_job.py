"""The Table API and SQL program the deployment tests run with ``pystream run`` on a
standalone cluster and over Spark Connect: a SQL aggregate in BATCH mode, a STREAMING
changelog, a Python UDF (its metrics read back) and a table function, and a group-by over
an unbounded datagen table (a Structured Streaming job, cancelled after its first changes).
Prints ``RESULT {...}``."""
import json

from pystream.table import DataTypes, EnvironmentSettings, TableEnvironment
from pystream.table.expressions import col
from pystream.table.udf import ScalarFunction, udf, udtf

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


class Shout(ScalarFunction):
    def open(self, function_context):
        self.seen = function_context.get_metric_group().counter("seen")

    def eval(self, s):
        self.seen.inc()
        return s.upper()


def python_functions():
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t = t_env.from_elements([(1, "a b"), (2, "c")], ["id", "words"])
    shout = udf(Shout(), result_type=DataTypes.STRING(), name="shout")
    split = udtf(lambda s: [(w,) for w in s.split()], result_types=[DataTypes.STRING()])
    table = t.join_lateral(split(col("words")).alias("w")).select(col("id"), shout(col("w")))
    result = table.execute()
    with result.collect() as rows:
        return sorted(list(r) for r in rows), result.get_job_client().get_metrics()


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


udf_rows, udf_metrics = python_functions()
print("RESULT " + json.dumps({"batch": batch_sql(), "changelog": streaming_changelog(),
                              "udf": udf_rows, "metrics": udf_metrics,
                              "unbounded": unbounded_changelog()}))
