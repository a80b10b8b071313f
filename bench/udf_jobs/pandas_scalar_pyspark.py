"""The job of ``pandas_scalar.py`` hand-written in PySpark: ``pandas_udf``, summed."""
import sys

import pandas as pd
from pyspark.sql import SparkSession
from pyspark.sql import functions as F

rows = int(sys.argv[1]) if len(sys.argv) > 1 else 10000000
spark = SparkSession.builder.master("local[*]").config("spark.ui.enabled", "false") \
    .getOrCreate()


@F.pandas_udf("bigint")
def plus_one(s: pd.Series) -> pd.Series:
    return s + 1


print("result=%d" % spark.range(1, rows + 1).select(F.sum(plus_one("id"))).first()[0])
