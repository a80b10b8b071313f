"""The job of ``udaf_streaming.py`` hand-written in PySpark: each key's rows through a Python
accumulator (``applyInArrow``), its final value per key to the ``noop`` sink."""
import sys

import pyarrow as pa
from pyspark.sql import SparkSession
from pyspark.sql import functions as F

rows = int(sys.argv[1]) if len(sys.argv) > 1 else 1000000
spark = SparkSession.builder.master("local[*]").config("spark.ui.enabled", "false") \
    .config("spark.sql.shuffle.partitions", "2").getOrCreate()


def total(table: pa.Table) -> pa.Table:
    accumulator = [0]
    for value in table.column("id").to_pylist():
        accumulator[0] += value
    return pa.table({"k": table.column("k")[:1], "total": [accumulator[0]]})


numbers = spark.range(1, rows + 1).withColumn("k", F.col("id") % 100)
numbers.groupBy("k").applyInArrow(total, "k long, total long") \
    .write.format("noop").mode("overwrite").save()
print("result=done")
