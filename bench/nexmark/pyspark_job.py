"""Nexmark's stateless queries hand-written in PySpark: the baseline beside pystream.

    python bench/nexmark/pyspark_job.py q0 /tmp/events.json

Structured Streaming over the same JSON lines (one trigger that reads them all), the
query's columns into Spark's ``noop`` sink, as a PySpark user would write q0, q1, q2, q21
and q22; prints ``nexmark <query> seconds=<s>``.
"""
import os
import sys
import time

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

BID = ("auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING, "
       "dateTime TIMESTAMP, extra STRING")
SCHEMA = "event_type INT, bid STRUCT<%s>" % BID.replace(" BIGINT", ": BIGINT").replace(
    " STRING", ": STRING").replace(" TIMESTAMP", ": TIMESTAMP")


def bids(spark, events):
    """The bids of the events file (a streaming file source reads a directory: the file's
    own, filtered to its name)."""
    df = spark.readStream.schema(SCHEMA).option("timestampFormat", "yyyy-MM-dd HH:mm:ss.SSS") \
        .option("pathGlobFilter", os.path.basename(events)).json(os.path.dirname(events))
    return df.where("event_type = 2").select("bid.*")


def channel_id(url):
    return F.regexp_extract(url, "(&|^)channel_id=([^&]*)", 2)


QUERIES = {
    "q0": lambda b: b.select("auction", "bidder", "price", "dateTime", "extra"),
    "q1": lambda b: b.select("auction", "bidder", (F.lit(0.908).cast("decimal(4,3)")
                                                   * F.col("price")).alias("price"),
                             "dateTime", "extra"),
    "q2": lambda b: b.where(F.col("auction") % 123 == 0).select("auction", "price"),
    "q21": lambda b: b.select(
        "auction", "bidder", "price", "channel",
        F.when(F.lower("channel") == "apple", "0").when(F.lower("channel") == "google", "1")
        .when(F.lower("channel") == "facebook", "2").when(F.lower("channel") == "baidu", "3")
        .otherwise(F.nullif(channel_id(F.col("url")), F.lit(""))).alias("channel_id"))
        .where(F.col("channel_id").isNotNull()),
    "q22": lambda b: b.select("auction", "bidder", "price", "channel",
                              *[F.split("url", "/").getItem(i + 2).alias("dir%d" % i)
                                for i in (1, 2, 3)]),
}


def main(query, events):
    started = time.perf_counter()
    spark = SparkSession.builder.master("local[*]").config("spark.ui.enabled", "false") \
        .config("spark.sql.shuffle.partitions", "2").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    out = QUERIES[query](bids(spark, events))
    out.writeStream.format("noop").trigger(availableNow=True).start().awaitTermination()
    print("nexmark %s seconds=%.1f" % (query, time.perf_counter() - started))
    spark.stop()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
