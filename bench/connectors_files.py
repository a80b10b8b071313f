"""File connector throughput: pystream's FileSource / FileSink against hand-written PySpark
doing the same work, in the same run (BATCH mode, local[2]).

    python bench/connectors_files.py [records]
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time

from pystream.common import Types
from pystream.common.serialization import Encoder
from pystream.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pystream.datastream.connectors import BucketAssigner, FileSink
from pystream.session import configure, get_session


def timed(label: str, n: int, run) -> None:
    start = time.perf_counter()
    run()
    seconds = time.perf_counter() - start
    print("%-44s %7.2f s  %10.0f records/s" % (label, seconds, n / seconds))


def main(n: int) -> None:
    configure(master="local[2]", conf={"spark.ui.enabled": "false",
                                       "spark.sql.shuffle.partitions": "2"})
    spark = get_session()
    base = tempfile.mkdtemp(prefix="pystream-bench-")
    source_dir = os.path.join(base, "in")
    spark.range(n).selectExpr("concat('line ', id) AS value").repartition(2) \
        .write.text(source_dir)

    def env():
        e = StreamExecutionEnvironment.get_execution_environment()
        e.set_runtime_mode(RuntimeExecutionMode.BATCH)
        e.set_parallelism(2)
        return e

    def pystream_copy():
        e = env()
        e.read_text_file(source_dir).sink_to(
            FileSink.for_row_format(os.path.join(base, "out-pystream"),
                                    Encoder.simple_string_encoder())
            .with_bucket_assigner(BucketAssigner.base_path_bucket_assigner()).build())
        e.execute("bench copy")

    def pyspark_copy():
        spark.read.text(source_dir).write.text(os.path.join(base, "out-pyspark"))

    def pystream_map_copy():
        e = env()
        e.read_text_file(source_dir).map(str.upper, output_type=Types.STRING()).sink_to(
            FileSink.for_row_format(os.path.join(base, "out-pystream-map"),
                                    Encoder.simple_string_encoder())
            .with_bucket_assigner(BucketAssigner.base_path_bucket_assigner()).build())
        e.execute("bench map copy")

    def pyspark_map_copy():
        from pyspark.sql import functions as F

        spark.read.text(source_dir).select(F.upper("value").alias("value")) \
            .write.text(os.path.join(base, "out-pyspark-map"))

    try:
        pyspark_copy()  # warm up the JVM and the Python workers
        pystream_copy()
        for out in ("out-pyspark", "out-pystream"):
            shutil.rmtree(os.path.join(base, out))
        print("%d text lines, local[2]" % n)
        timed("pystream read_text_file -> FileSink", n, pystream_copy)
        timed("PySpark read.text -> write.text", n, pyspark_copy)
        timed("pystream ... map(str.upper) -> FileSink", n, pystream_map_copy)
        timed("PySpark ... upper() -> write.text", n, pyspark_map_copy)
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)
