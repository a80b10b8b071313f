"""The Top-N job of ``top_n.py`` hand-written in PySpark: the same rows from ``spark.range``,
ranked by Spark, each shop's rows replayed in arrival order through a buffer of the best 3,
the changes written to Spark's ``noop`` sink (a blackhole).

    PYSPARK_PYTHON=.venv/bin/python python bench/sql_jobs/top_n_pyspark.py 1000000
"""
import bisect
import sys
import time

import pyarrow as pa
from pyspark.sql import SparkSession, Window
from pyspark.sql import functions as F

rows = int(sys.argv[1]) if len(sys.argv) > 1 else 1000000
started = time.perf_counter()
spark = SparkSession.builder.master("local[*]").config("spark.ui.enabled", "false") \
    .config("spark.sql.shuffle.partitions", "2").getOrCreate()
df = spark.range(1, rows + 1).select(F.col("id"), (F.col("id") % 100).alias("shop"),
                                     ((F.col("id") * 7919) % 100003).alias("amount"))
df = df.withColumn("ord", F.dense_rank().over(
    Window.partitionBy("shop").orderBy(F.col("amount").desc())))


def top3(table: pa.Table) -> pa.Table:
    ids, orders = table.column("id").to_pylist(), table.column("ord").to_pylist()
    amounts, shops = table.column("amount").to_pylist(), table.column("shop").to_pylist()
    keys, out = [], []
    for i in sorted(range(len(ids)), key=ids.__getitem__):
        position = bisect.bisect_right(keys, (orders[i], ids[i]))
        if position >= 3:
            continue
        keys.insert(position, (orders[i], ids[i]))
        if len(keys) > 3:
            _, evicted = keys.pop()
            out.append((shops[i], evicted, -1))
        out.append((shops[i], ids[i], amounts[i]))
    return pa.table({"shop": [o[0] for o in out], "id": [o[1] for o in out],
                     "amount": [o[2] for o in out]})


df.groupBy("shop").applyInArrow(top3, "shop long, id long, amount long") \
    .write.format("noop").mode("overwrite").save()
print("top_n rows=%d seconds=%.1f" % (rows, time.perf_counter() - started))
