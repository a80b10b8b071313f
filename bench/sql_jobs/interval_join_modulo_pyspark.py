"""The join of ``interval_join_modulo.py`` hand-written in PySpark, the best way it knows:
``spark.range`` rows, the key plus a time bucket as the join's equality (each row of ``a`` in
the buckets its interval reaches), the exact bounds after; into Spark's ``noop`` sink.

    PYSPARK_PYTHON=.venv/bin/python python bench/sql_jobs/interval_join_modulo_pyspark.py 1000000
"""
import sys
import time

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

rows = int(sys.argv[1]) if len(sys.argv) > 1 else 1000000
started = time.perf_counter()
spark = SparkSession.builder.master("local[*]").config("spark.ui.enabled", "false") \
    .config("spark.sql.shuffle.partitions", "2").getOrCreate()
width = 4000  # ms: the interval's width


def side(name):
    return spark.range(1, rows + 1).select(F.col("id").alias(name + "x"),
                                           (F.col("id") * 100).alias(name + "t"))


a = side("a").withColumn("bucket", F.explode(F.sequence(F.floor((F.col("at") - 2000) / width),
                                                        F.floor((F.col("at") + 2000) / width))))
b = side("b").withColumn("bucket", F.floor(F.col("bt") / width))
joined = a.join(b, (a.ax % 10 == b.bx % 10) & (a.bucket == b.bucket)
                & F.col("bt").between(F.col("at") - 2000, F.col("at") + 2000))
joined.select("ax", "bx").write.format("noop").mode("overwrite").save()
print("interval_join_modulo rows=%d seconds=%.1f" % (rows, time.perf_counter() - started))
