"""Streaming Top-N as whole fresh processes: pystream, the same SQL on real PyFlink, and the
job hand-written in PySpark.

    python -m bench.top_n --rows 1000000 --pyflink /tmp/flinkvenv/bin/python

``bench/sql_jobs/top_n.py`` runs ``ROW_NUMBER() OVER (PARTITION BY shop ORDER BY amount
DESC) ... WHERE rn <= 3`` over generated rows (100 shops) in STREAMING mode into a blackhole
sink; PyFlink runs the same file with ``pystream`` renamed to ``pyflink``;
``top_n_pyspark.py`` is the job in plain PySpark. Prints seconds (min [median]) and rows/s
of the best run. The outputs are not compared here: the changelog's correctness is the
oracle programs' (``tests/sql/programs/top_n_streaming.py``).
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Dict, List

from bench.whole_job import environment, run_once

JOBS = Path(__file__).resolve().parent / "sql_jobs"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1000000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pyflink", help="the python of a venv with apache-flink installed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        systems = {"pystream": [sys.executable, str(JOBS / "top_n.py")],
                   "pyspark": [sys.executable, str(JOBS / "top_n_pyspark.py")]}
        if args.pyflink:
            copy = Path(directory) / "top_n_pyflink.py"
            copy.write_text(re.sub(r"\bpystream\b", "pyflink", (JOBS / "top_n.py").read_text()))
            systems["pyflink"] = [args.pyflink, str(copy)]
        times: Dict[str, List[float]] = {name: [] for name in systems}
        for _ in range(args.repeat):
            for name, command in systems.items():
                seconds, _ = run_once(command + [str(args.rows)], environment(name, args))
                times[name].append(seconds)
    print("Top-N (top 3 of 100 shops) over %s rows, STREAMING, whole fresh processes, %d runs"
          % ("{:,}".format(args.rows), args.repeat))
    print("| system | seconds min [median] | rows/s (best) |")
    print("|---|---|---|")
    for name, runs in times.items():
        print("| %s | %.1f [%.1f] | %s |" % (name, min(runs), statistics.median(runs),
                                            "{:,.0f}".format(args.rows / min(runs))))


if __name__ == "__main__":
    main()
