"""The interval join of ``interval_join.py`` hand-written in PySpark: the same rows from
``spark.range``, joined on the id with the time bounds, written to Spark's ``noop`` sink.

    PYSPARK_PYTHON=.venv/bin/python python bench/sql_jobs/interval_join_pyspark.py 1000000
"""
import sys
import time

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

rows = int(sys.argv[1]) if len(sys.argv) > 1 else 1000000
started = time.perf_counter()
spark = SparkSession.builder.master("local[*]").config("spark.ui.enabled", "false") \
    .config("spark.sql.shuffle.partitions", "2").getOrCreate()
orders = spark.range(1, rows + 1).select(F.col("id"), F.timestamp_millis(F.col("id") * 1000)
                                         .alias("ts"))
shipments = spark.range(1, rows + 1).select(
    F.col("id").alias("order_id"),
    F.timestamp_millis(F.col("id") * 1000 + (F.col("id") * 7919 % 7) * 3600000).alias("ship_ts"))
joined = orders.join(shipments, (F.col("id") == F.col("order_id"))
                     & F.col("ship_ts").between(F.col("ts"),
                                                F.col("ts") + F.expr("INTERVAL 4 HOURS")))
joined.select("id", "ts", "ship_ts").write.format("noop").mode("overwrite").save()
print("interval_join rows=%d seconds=%.1f" % (rows, time.perf_counter() - started))
