"""Streaming SQL jobs as whole fresh processes: pystream, the same SQL on real PyFlink, and
the job hand-written in PySpark.

    python -m bench.streaming_sql --job top_n --rows 1000000 --pyflink /tmp/flinkvenv/bin/python
    python -m bench.streaming_sql --job interval_join --rows 1000000 --pyflink ...
    python -m bench.streaming_sql --job top_n --server     # also on a warm `pystream server`

Each job is ``bench/sql_jobs/<job>.py`` (STREAMING mode, generated rows, a blackhole sink);
PyFlink runs the same file with ``pystream`` renamed to ``pyflink``; ``<job>_pyspark.py`` is
the job in plain PySpark. Prints seconds (min [median]) and rows/s of the best run. The
outputs are not compared here: their correctness is the oracle programs'
(``tests/sql/programs/top_n_streaming.py``, ``interval_join.py``).

* ``top_n``: ``ROW_NUMBER() OVER (PARTITION BY shop ORDER BY amount DESC) ... rn <= 3`` over
  rows of 100 shops;
* ``interval_join``: orders and as many shipments (each 0 to 6 hours after its order), joined
  on the order id and ``ship_ts BETWEEN o.ts AND o.ts + INTERVAL '4' HOUR``;
* ``interval_join_modulo``: two sides of ten rows a second joined on ``x % 10`` and two
  seconds either way (each row meets five: about 5N joined rows).
"""
from __future__ import annotations

import argparse
from pathlib import Path

from bench.whole_job import print_figures, side_by_side

JOBS = Path(__file__).resolve().parent / "sql_jobs"
JOB_TITLES = {"top_n": "Top-N (top 3 of 100 shops)",
              "interval_join": "Interval join (orders with shipments within 4 hours)",
              "interval_join_modulo": "Interval join on a key of ten values, within 2 s"}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--job", choices=sorted(JOB_TITLES), default="top_n")
    parser.add_argument("--rows", type=int, default=1000000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pyflink", help="the python of a venv with apache-flink installed")
    parser.add_argument("--server", action="store_true",
                        help="also pystream on a warm `pystream server` (started here)")
    args = parser.parse_args()
    from pystream import server

    started = server.start() if args.server and server.running() is None else None
    try:
        times = side_by_side(JOBS / ("%s.py" % args.job), JOBS / ("%s_pyspark.py" % args.job),
                             args.rows, args.repeat, args.pyflink, warm_server=args.server)
    finally:
        if started is not None:
            server.stop()
    print_figures("%s over %s rows, STREAMING, whole fresh processes, %d runs"
                  % (JOB_TITLES[args.job], "{:,}".format(args.rows), args.repeat),
                  args.rows, times)


if __name__ == "__main__":
    main()
