"""The map/filter job of ``map_filter.py`` hand-written in PySpark.

    python map_filter_pyspark.py N MODE


The same Python functions in one ``mapInArrow`` over ``spark.range``, collected as Arrow.
MODE is accepted for symmetry: a bounded job is a batch DataFrame either way. With N <= 10 it
prints each value as the PyFlink job does.
"""
import sys

import pyarrow as pa
from pyspark.sql import SparkSession


def chain(batches):
    for batch in batches:
        values = [x + 1 for x in (x * 2 for x in batch.column(0).to_pylist()) if x % 3 != 0]
        yield pa.RecordBatch.from_arrays([pa.array(values, pa.int64())], ["value"])


def main(n: int) -> None:
    spark = SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false") \
        .getOrCreate()
    result = spark.range(0, n, numPartitions=2).mapInArrow(chain, "value long")
    if n <= 10:
        for row in result.collect():
            print(row.value)
    else:
        values = result.toArrow().column(0).to_pylist()
        print(len(values), sum(values))
    spark.stop()


if __name__ == "__main__":
    main(int(sys.argv[1]))
