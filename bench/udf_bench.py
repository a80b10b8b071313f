"""Python functions in Table jobs as whole fresh processes: pystream, the same program on real
PyFlink 2.3, and the job hand-written in PySpark, side by side in one run.

    python -m bench.udf_bench --job scalar --rows 10000000 --pyflink /tmp/flinkvenv/bin/python
    python -m bench.udf_bench --job all --rows 1000000 --repeat 1 --pyflink ...

Each job is ``bench/udf_jobs/<job>.py`` (generated rows); PyFlink runs the same file with
``pystream`` renamed to ``pyflink``; ``<job>_pyspark.py`` is the job in plain PySpark. The
runs print their result (``result=...``), which must agree.

* ``scalar``: ``plus_one(id)`` (a lambda, ``udf``), summed, BATCH;
* ``pandas_scalar``: the same as a pandas function (Series in, Series out);
* ``udtf``: a table function giving two rows per row (``LATERAL TABLE``), summed;
* ``udaf_batch``: a pandas aggregate function per key (100 keys), BATCH;
* ``udaf_streaming``: an ``AggregateFunction`` per key, STREAMING, into a blackhole sink.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from bench.whole_job import print_figures, side_by_side

JOBS = Path(__file__).resolve().parent / "udf_jobs"
JOB_TITLES = {"scalar": "Python scalar function, summed (BATCH)",
              "pandas_scalar": "pandas scalar function, summed (BATCH)",
              "udtf": "Python table function, two rows per row, summed (BATCH)",
              "udaf_batch": "pandas aggregate function per key (BATCH)",
              "udaf_streaming": "Python AggregateFunction per key (STREAMING, changelog)"}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--job", choices=sorted(JOB_TITLES) + ["all"], default="scalar")
    parser.add_argument("--rows", type=int, default=1000000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--pyflink", help="the python of a venv with apache-flink installed")
    args = parser.parse_args()
    for job in sorted(JOB_TITLES) if args.job == "all" else [args.job]:
        times = side_by_side(JOBS / ("%s.py" % job), JOBS / ("%s_pyspark.py" % job),
                             args.rows, args.repeat, args.pyflink)
        print_figures("%s over %s rows, whole fresh processes, %d runs"
                      % (JOB_TITLES[job], "{:,}".format(args.rows), args.repeat),
                      args.rows, times)
        print()


if __name__ == "__main__":
    main()
