"""Table API benchmark: whole fresh processes, pystream beside hand-written PySpark and real
PyFlink 2.3, in one run.

Jobs:
  batch      BATCH filter + group-by aggregate over N datagen rows (default 10M) into a
             blackhole sink. pystream runs ``pystream run -py job.py``; PySpark runs the same
             query hand-written with ``spark.range`` and the ``noop`` sink; PyFlink runs the
             very same program with ``pyflink`` imports.
  changelog  STREAMING group-by whose per-record changelog the program collects
             (``execute().collect()``), over M rows (default 1M): records/s, beside Spark's own
             update-mode streaming query over the same rows (``availableNow``, ``noop`` sink),
             and real PyFlink over ``--pyflink-rows`` rows (default 30k).
  unbounded  STREAMING group-by over an endless datagen (``--rate`` rows/s), its per-record
             changelog collected until ``--unbounded-rows`` records (default 200k), beside
             Spark's update-mode query over its rate source until as many rows were read.

Every figure is the wall time of a whole process (start, plan, run, exit), best of
``--repeat``. PyFlink runs when ``--pyflink-python`` (default /tmp/flinkvenv/bin/python)
exists: ``python3 -m venv /tmp/flinkvenv && /tmp/flinkvenv/bin/pip install
apache-flink==2.3.0``.

    python -m bench.table_bench [--rows 10000000] [--changelog-rows 1000000] [--repeat 3]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYSTREAM = ROOT / "bin" / "pystream"
KEYS = 100

BATCH_JOB = '''
from pystream.table import DataTypes, EnvironmentSettings, Schema, TableDescriptor, TableEnvironment
from pystream.table.expressions import col

N = {rows}
t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "2")
t_env.create_temporary_table("src", TableDescriptor.for_connector("datagen")
    .schema(Schema.new_builder().column("id", DataTypes.BIGINT())
            .column("v", DataTypes.INT()).build())
    .option("number-of-rows", str(N))
    .option("fields.id.kind", "sequence").option("fields.id.start", "1")
    .option("fields.id.end", str(N))
    .option("fields.v.min", "0").option("fields.v.max", "99").build())
t_env.create_temporary_table("sink", TableDescriptor.for_connector("blackhole")
    .schema(Schema.new_builder().column("k", DataTypes.BIGINT())
            .column("n", DataTypes.BIGINT()).column("total", DataTypes.INT()).build()).build())
t_env.from_path("src").where(col("v") > 10) \\
    .select((col("id") % {keys}).alias("k"), col("v")).group_by(col("k")) \\
    .select(col("k"), col("v").count, col("v").sum).execute_insert("sink").wait()
'''

BATCH_PYSPARK = '''
from pyspark.sql import SparkSession, functions as F
spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
         .config("spark.sql.shuffle.partitions", "2").getOrCreate())
df = spark.range(1, {rows} + 1, 1, 2).select(
    F.col("id"), (F.rand() * 100).cast("int").alias("v"))
(df.where(F.col("v") > 10).groupBy((F.col("id") % {keys}).alias("k"))
   .agg(F.count("v").alias("n"), F.sum("v").alias("total"))
   .write.format("noop").mode("overwrite").save())
spark.stop()
'''

CHANGELOG_JOB = '''
from pystream.table import DataTypes, EnvironmentSettings, Schema, TableDescriptor, TableEnvironment
from pystream.table.expressions import col

N = {rows}
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.create_temporary_table("src", TableDescriptor.for_connector("datagen")
    .schema(Schema.new_builder().column("id", DataTypes.BIGINT()).build())
    .option("number-of-rows", str(N))
    .option("fields.id.kind", "sequence").option("fields.id.start", "1")
    .option("fields.id.end", str(N)).build())
changes = 0
with t_env.from_path("src").select((col("id") % {keys}).alias("k"), col("id")) \\
        .group_by(col("k")).select(col("k"), col("id").count).execute().collect() as rows:
    for row in rows:
        changes += 1
print("changes", changes)
'''

CHANGELOG_PYSPARK = '''
import tempfile
from pyspark.sql import SparkSession, functions as F
spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
         .config("spark.sql.shuffle.partitions", "2").getOrCreate())
directory = tempfile.mkdtemp()
spark.range(1, {rows} + 1, 1, 1).write.mode("overwrite").parquet(directory + "/in")
query = (spark.readStream.schema("id BIGINT").parquet(directory + "/in")
         .groupBy((F.col("id") % {keys}).alias("k")).agg(F.count("id").alias("n"))
         .writeStream.outputMode("update").format("noop")
         .option("checkpointLocation", directory + "/cp").trigger(availableNow=True).start())
query.awaitTermination()
spark.stop()
'''

UNBOUNDED_JOB = '''
from pystream.table import EnvironmentSettings, TableEnvironment

N = {rows}
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("CREATE TABLE src (v INT) WITH ('connector' = 'datagen', "
                  "'rows-per-second' = '{rate}', 'fields.v.min' = '0', "
                  "'fields.v.max' = '{keys_less_one}')")
records = 0
with t_env.execute_sql("SELECT v, COUNT(*) FROM src GROUP BY v").collect() as rows:
    for row in rows:
        records += str(row.get_row_kind()) != "-U"  # one +I or +U per input record
        if records >= N:
            break
print("records", records)
'''

UNBOUNDED_PYSPARK = '''
import tempfile
from pyspark.sql import SparkSession, functions as F
spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
         .config("spark.sql.shuffle.partitions", "2").getOrCreate())
seen = []
query = (spark.readStream.format("rate").option("rowsPerSecond", {rate}).load()
         .groupBy((F.col("value") % {keys}).alias("k")).agg(F.count("*").alias("n"))
         .writeStream.outputMode("update").format("noop")
         .option("checkpointLocation", tempfile.mkdtemp()).start())
while sum(p["numInputRows"] for p in query.recentProgress) < {rows}:
    query.awaitTermination(0.2)
query.stop()
spark.stop()
'''


def run(command, env=None, timeout=None) -> float:
    """Seconds a whole process takes; its output is shown when it fails. A process past its
    ``timeout`` is killed and counts as ``inf``."""
    start = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return float("inf")
    seconds = time.perf_counter() - start
    if done.returncode:
        sys.stderr.write(done.stdout[-2000:] + done.stderr[-4000:])
        raise SystemExit("failed: %s" % " ".join(map(str, command)))
    return seconds


def write(directory: str, name: str, text: str) -> str:
    path = os.path.join(directory, name)
    Path(path).write_text(text)
    return path


def pyflink_env(python: str) -> dict:
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(python) + os.pathsep + env["PATH"]
    return env


def best(command, repeat: int, env=None) -> float:
    return min(run(command, env) for _ in range(repeat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--changelog-rows", type=int, default=1_000_000)
    parser.add_argument("--pyflink-rows", type=int, default=30_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pyflink-python", default="/tmp/flinkvenv/bin/python")
    parser.add_argument("--pyflink-timeout", type=float, default=600,
                        help="seconds before a PyFlink run is stopped (reported as > T)")
    parser.add_argument("--unbounded-rows", type=int, default=200_000)
    parser.add_argument("--rate", type=int, default=50_000,
                        help="rows per second of the endless datagen / rate source")
    parser.add_argument("--only", choices=["batch", "changelog", "unbounded"], default=None)
    args = parser.parse_args()
    python = sys.executable
    flink = args.pyflink_python if os.path.exists(args.pyflink_python) else None
    directory = tempfile.mkdtemp(prefix="pystream-bench-")

    def program(name, template, rows, pyflink=False):
        text = template.format(rows=rows, keys=KEYS, keys_less_one=KEYS - 1, rate=args.rate)
        if pyflink:
            text = text.replace("from pystream.", "from pyflink.")
        return write(directory, name, text)

    for name, job in (("batch", batch), ("changelog", changelog), ("unbounded", unbounded)):
        if args.only in (None, name):
            job(args, python, flink, program)


def _flink_seconds(seconds: float, timeout: float) -> str:
    return "%7.1f s" % seconds if seconds != float("inf") else "  > %.0f s (stopped)" % timeout


def batch(args, python, flink, program) -> None:
    print("BATCH filter + group-by, %d rows (whole processes, best of %d)"
          % (args.rows, args.repeat))
    ours = best([str(PYSTREAM), "run", "-py", program("batch.py", BATCH_JOB, args.rows)],
                args.repeat)
    spark = best([python, program("batch_spark.py", BATCH_PYSPARK, args.rows)], args.repeat)
    print("  pystream run -py   %7.1f s" % ours)
    print("  PySpark by hand    %7.1f s   pystream / PySpark = %.2fx" % (spark, ours / spark))
    if flink:
        pyflink = run([flink, program("batch_flink.py", BATCH_JOB, args.rows, True)],
                      pyflink_env(flink), args.pyflink_timeout)
        print("  PyFlink 2.3        %s   (one run)" % _flink_seconds(pyflink,
                                                                   args.pyflink_timeout))


def changelog(args, python, flink, program) -> None:
    n = args.changelog_rows
    print("STREAMING group-by, per-record changelog collected, %d rows" % n)
    ours = best([str(PYSTREAM), "run", "-py", program("changelog.py", CHANGELOG_JOB, n)],
                args.repeat)
    spark = best([python, program("changelog_spark.py", CHANGELOG_PYSPARK, n)], args.repeat)
    print("  pystream run -py   %7.1f s   %9.0f records/s" % (ours, n / ours))
    print("  Spark update mode  %7.1f s   %9.0f records/s   pystream / Spark = %.2fx"
          % (spark, n / spark, ours / spark))
    if flink:
        m = args.pyflink_rows
        pyflink = run([flink, program("changelog_flink.py", CHANGELOG_JOB, m, True)],
                      pyflink_env(flink), args.pyflink_timeout)
        print("  PyFlink 2.3        %7.1f s   %9.0f records/s (%d rows)   pystream is %.0fx "
              "PyFlink's records/s" % (pyflink, m / pyflink, m, (n / ours) / (m / pyflink)))


def unbounded(args, python, flink, program) -> None:
    n = args.unbounded_rows
    print("STREAMING group-by over an endless datagen (%d rows/s), per-record changelog "
          "collected until %d records" % (args.rate, n))
    ours = best([str(PYSTREAM), "run", "-py", program("unbounded.py", UNBOUNDED_JOB, n)],
                args.repeat)
    spark = best([python, program("unbounded_spark.py", UNBOUNDED_PYSPARK, n)], args.repeat)
    print("  pystream run -py   %7.1f s   %9.0f records/s" % (ours, n / ours))
    print("  Spark update mode  %7.1f s   %9.0f records/s   pystream / Spark = %.2fx"
          % (spark, n / spark, ours / spark))


if __name__ == "__main__":
    main()
