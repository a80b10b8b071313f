"""The job of ``udaf_batch.py`` hand-written in PySpark: a grouped-aggregate ``pandas_udf``."""
import sys

import pandas as pd
from pyspark.sql import SparkSession
from pyspark.sql import functions as F

rows = int(sys.argv[1]) if len(sys.argv) > 1 else 1000000
spark = SparkSession.builder.master("local[*]").config("spark.ui.enabled", "false") \
    .getOrCreate()


@F.pandas_udf("bigint")
def spread(s: pd.Series) -> int:
    return int(s.max() - s.min())


numbers = spark.range(1, rows + 1).withColumn("k", F.col("id") % 100)
print("result=%d" % sum(r[1] for r in numbers.groupBy("k").agg(spread("id")).collect()))
