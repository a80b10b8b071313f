"""The job of ``udtf.py`` hand-written in PySpark: a Python UDTF (``@udtf``) joined
laterally, summed."""
import sys

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

rows = int(sys.argv[1]) if len(sys.argv) > 1 else 1000000
spark = SparkSession.builder.master("local[*]").config("spark.ui.enabled", "false") \
    .getOrCreate()


@F.udtf(returnType="v: bigint", useArrow=True)
class Twice:
    def eval(self, i: int):
        yield i,
        yield 2 * i,


numbers = spark.range(1, rows + 1)
result = numbers.lateralJoin(Twice(F.col("id").outer())).select(F.sum("v")).first()[0]
print("result=%d" % result)
