"""The job of ``scalar.py`` hand-written in PySpark: ``udf(useArrow=True)``, summed."""
import sys

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

rows = int(sys.argv[1]) if len(sys.argv) > 1 else 10000000
spark = SparkSession.builder.master("local[*]").config("spark.ui.enabled", "false") \
    .getOrCreate()
plus_one = F.udf(lambda i: i + 1, "bigint", useArrow=True)
print("result=%d" % spark.range(1, rows + 1).select(F.sum(plus_one("id"))).first()[0])
