"""Nexmark side by side: each query a whole fresh STREAMING process on pystream, real PyFlink
2.3 and, for the stateless queries, hand-written PySpark; and with a warm `pystream server`.

    python -m bench.nexmark --events 1000000 --pyflink /tmp/flinkvenv/bin/python
    python -m bench.nexmark --events 1000000 --queries q0,q5,q9 --server

The events (``bench.nexmark.events``, 10,000 per second of event time) are written once per
size under the temporary directory. Every query runs into its blackhole sink; prints per
query the seconds of each system, events/s of pystream and its speed over PyFlink's
(PyFlink's seconds / pystream's), then the geometric mean. ``--check N`` first runs each
query with printing sinks over N events on pystream and PyFlink and compares the rows
their changelogs leave (``bench.nexmark.results``).
"""
from __future__ import annotations

import argparse
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional

from bench.nexmark.events import write_events
from bench.nexmark.results import result_rows

HERE = Path(__file__).resolve().parent
# q6 as nexmark writes it is refused by both; q6_corrected by PyFlink in STREAMING mode
QUERIES = ["q0", "q1", "q2", "q3", "q4", "q5", "q6_corrected", "q7", "q8", "q9", "q10", "q11",
           "q14", "q15", "q16", "q17", "q18", "q19", "q20", "q21", "q22", "q23"]
PYSPARK = {"q0", "q1", "q2", "q21", "q22"}


def events_file(count: int) -> Path:
    path = Path(tempfile.gettempdir()) / "pystream-nexmark" / ("events-%d.json" % count)
    if not path.exists():
        print("writing %s events to %s ..." % ("{:,}".format(count), path), flush=True)
        write_events(path.with_suffix(".tmp"), count).rename(path)
    return path


def pyflink_job() -> Path:
    copy = HERE / "job_pyflink.py"
    copy.write_text(re.sub(r"\bpystream\b", "pyflink", (HERE / "job.py").read_text()))
    return copy


def run(command: List[str], env: Dict[str, str]) -> tuple:
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=3600)
    seconds = time.perf_counter() - started
    if done.returncode:
        causes = re.findall(r"^Caused by: (.*)$", done.stderr, re.M)
        last = causes[-1] if causes else (done.stderr.strip().splitlines() or ["failed"])[-1]
        return None, last[:160]
    return seconds, done.stdout


def systems(args, pyflink: Optional[Path]) -> Dict[str, tuple]:
    python = sys.executable
    own = dict(os.environ, TZ="UTC", PYSTREAM_SERVER="off")
    found = {"pystream": ([python, str(HERE / "job.py")], own)}
    if args.server:
        found["pystream + server"] = ([python, str(HERE / "job.py")],
                                      dict(os.environ, TZ="UTC"))
    if pyflink is not None:
        env = dict(os.environ, TZ="UTC")
        env["PATH"] = str(Path(args.pyflink).parent) + os.pathsep + env.get("PATH", "")
        found["pyflink"] = ([args.pyflink, str(pyflink)], env)
    found["pyspark"] = ([python, str(HERE / "pyspark_job.py")],
                        dict(own, PYSPARK_PYTHON=python))
    return found


def check(args, queries: List[str], pyflink: Path) -> None:
    events = events_file(args.check)
    for query in queries:
        results = {}
        for name, (command, env) in systems(args, pyflink).items():
            if name in ("pyflink", "pystream"):
                flags = ["--print"] + (["--quote-datetime"] if query == "q23" and
                                       name == "pyflink" else [])
                _, out = run(command + [query, str(events)] + flags, env)
                results[name] = result_rows(out or "", 1 if query == "q9" else 0)
        same = results["pystream"] == results["pyflink"]
        print("check %s over %d events: %s (%d rows)" % (
            query, args.check, "same rows" if same else "DIFFERENT", sum(
                results["pyflink"].values())), flush=True)


def measure(args, queries: List[str], pyflink: Optional[Path]) -> None:
    events = events_file(args.events)
    found = systems(args, pyflink)
    names = list(found)
    print("Nexmark, %s events, STREAMING, blackhole sinks, whole fresh processes, 2 cores; "
          "seconds (best of %d)" % ("{:,}".format(args.events), args.repeat))
    print("| query | %s | pystream events/s | speed vs PyFlink |" % " | ".join(names))
    print("|---|%s---|---|" % ("---|" * len(names)))
    ratios = []
    for query in queries:
        best: Dict[str, Optional[float]] = {}
        notes: Dict[str, str] = {}
        for _ in range(args.repeat):
            for name, (command, env) in found.items():
                if name == "pyspark" and query not in PYSPARK:
                    continue
                flags = ["--quote-datetime"] if query == "q23" and name == "pyflink" else []
                seconds, out = run(command + [query, str(events)] + flags, env)
                if seconds is None:
                    notes[name] = out
                elif best.get(name) is None or seconds < best[name]:
                    best[name] = seconds
        cells = []
        for name in names:
            if name in best:
                cells.append("%.1f" % best[name])
            else:
                cells.append("failed: %s" % notes[name] if name in notes else "")
        own = best.get("pystream")
        rate = "{:,.0f}".format(args.events / own) if own else ""
        ratio = ""
        if own and best.get("pyflink"):
            ratios.append(best["pyflink"] / own)
            ratio = "%.2fx" % ratios[-1]
        print("| %s | %s | %s | %s |" % (query, " | ".join(cells), rate, ratio), flush=True)
    if ratios:
        mean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print("geometric mean of pystream's speed over PyFlink's: %.2fx (%d queries)"
              % (mean, len(ratios)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1000000)
    parser.add_argument("--queries", default=",".join(QUERIES))
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--pyflink", help="the python of a venv with apache-flink installed")
    parser.add_argument("--server", action="store_true",
                        help="also pystream on a warm `pystream server` (started here)")
    parser.add_argument("--check", type=int, default=0, metavar="EVENTS",
                        help="first compare pystream's and PyFlink's rows over EVENTS")
    args = parser.parse_args()
    queries = args.queries.split(",")
    pyflink = pyflink_job() if args.pyflink else None
    started = None
    try:
        if args.server:
            from pystream import server

            started = server.start() if server.running() is None else None
        if args.check and pyflink is not None:
            check(args, queries, pyflink)
        measure(args, queries, pyflink)
    finally:
        if pyflink is not None:
            pyflink.unlink()
        if started is not None:
            from pystream import server

            server.stop()


if __name__ == "__main__":
    main()
