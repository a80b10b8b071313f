"""Whole-job benchmark: each job runs as a fresh process, as users run jobs.

    python -m bench.whole_job                       # the table of the whole-job issue
    python -m bench.whole_job --sizes 3,3000000 --modes streaming --repeat 5
    python -m bench.whole_job --pyflink /tmp/flinkvenv/bin/python   # real PyFlink beside
    python -m bench.whole_job --via-run             # pystream's job through `pystream run -py`
    python -m bench.whole_job --server              # also pystream on `pystream server`

For every size and mode it runs ``bench/whole_jobs/map_filter.py N MODE`` on pystream, the
same job hand-written in PySpark (``map_filter_pyspark.py``) and, with ``--pyflink``, the
pystream job with its package renamed to ``pyflink`` on real PyFlink, alternating the
systems ``--repeat`` times. It checks that all print the same result and prints the wall
time of each (min and median) and pystream's median over PySpark's. A size of 10 or less
reads a collection and prints the elements (Flink's small examples); larger sizes read a
``NumberSequenceSource`` and collect.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional

ROOT = Path(__file__).resolve().parent.parent
JOBS = ROOT / "bench" / "whole_jobs"
DEFAULT_SIZES = "3,1000000,3000000,10000000"


def pyflink_copy(directory: str) -> Path:
    """``map_filter.py`` with the top-level package ``pystream`` renamed to ``pyflink``."""
    text = (JOBS / "map_filter.py").read_text()
    path = Path(directory) / "map_filter_pyflink.py"
    path.write_text(re.sub(r"\bpystream\b", "pyflink", text))
    return path


def commands(args, pyflink_job: Optional[Path]) -> Dict[str, List[str]]:
    python = sys.executable
    job = [python, str(JOBS / "map_filter.py")]
    if args.via_run:
        job = [str(Path(python).parent / "pystream"), "run", "-py", str(JOBS / "map_filter.py")]
    systems = {"pystream": job, "pyspark": [python, str(JOBS / "map_filter_pyspark.py")]}
    if pyflink_job is not None:
        systems["pyflink"] = [args.pyflink, str(pyflink_job)]
    if args.server:
        systems["pystream + server"] = job
    return systems


def run_once(command: List[str], env: dict) -> tuple:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=1800)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit("%s failed:\n%s" % (" ".join(command), done.stderr[-3000:]))
    return seconds, result_of(done.stdout)


def result_of(stdout: str) -> str:
    """What a run printed, comparable across systems: the sorted lines without the subtask
    prefix (``2> 5``), or the ``count sum`` line of a collected job."""
    lines = [re.sub(r"^\d+> ", "", line) for line in stdout.splitlines() if line.strip()]
    return " ".join(sorted(lines))


def environment(system: str, args) -> dict:
    env = dict(os.environ)
    if system == "pyflink":  # PyFlink starts its workers with the `python` on PATH
        env["PATH"] = str(Path(args.pyflink).parent) + os.pathsep + env.get("PATH", "")
    elif system == "pyspark":  # a hand-written PySpark job names its workers' Python
        env["PYSPARK_PYTHON"] = sys.executable
        env.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    elif system == "pystream":  # a fresh process with its own Spark
        env["PYSTREAM_SERVER"] = "off"
    return env


def measure(args) -> None:
    from pystream import server

    started = server.start() if args.server and server.running() is None else None
    try:
        _measure(args)
    finally:
        if started is not None:
            server.stop()


def _measure(args) -> None:
    sizes = [int(s) for s in args.sizes.split(",")]
    modes = args.modes.split(",")
    with tempfile.TemporaryDirectory() as directory:
        pyflink_job = pyflink_copy(directory) if args.pyflink else None
        systems = commands(args, pyflink_job)
        print("whole fresh processes, %d runs each, alternating; seconds min [median]"
              % args.repeat)
        header = "| records | mode | " + " | ".join(systems) + " | pystream / pyspark |"
        print(header)
        print("|" + "---|" * (header.count("|") - 1))
        for size in sizes:
            for mode in modes:
                times: Dict[str, List[float]] = {name: [] for name in systems}
                results = set()
                for _ in range(args.repeat):
                    for name, command in systems.items():
                        seconds, result = run_once(command + [str(size), mode],
                                                   environment(name, args))
                        times[name].append(seconds)
                        results.add(result)
                if len(results) != 1:
                    raise SystemExit("the systems printed different results for %d %s: %s"
                                     % (size, mode, sorted(results)))
                cells = ["%.1f [%.1f]" % (min(t), statistics.median(t)) for t in times.values()]
                ratio = statistics.median(times["pystream"]) / statistics.median(times["pyspark"])
                print("| %s | %s | %s | %.2fx |" % ("{:,}".format(size), mode.upper(),
                                                   " | ".join(cells), ratio), flush=True)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default=DEFAULT_SIZES)
    parser.add_argument("--modes", default="streaming,batch")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pyflink", help="the python of a venv with apache-flink installed")
    parser.add_argument("--server", action="store_true",
                        help="also run pystream on its warm local server (started and "
                             "stopped here unless one runs)")
    parser.add_argument("--via-run", action="store_true",
                        help="run pystream's job with `pystream run -py job.py`")
    args = parser.parse_args(argv)
    if args.pyflink and not shutil.which(args.pyflink):
        raise SystemExit("no python at %s" % args.pyflink)
    measure(args)



def side_by_side(job: Path, pyspark_job: Path, rows: int, repeat: int,
                 pyflink: Optional[str], warm_server: bool = False) -> Dict[str, List[float]]:
    """Seconds of each run of ``job`` (pystream), ``pyspark_job`` and, with ``pyflink`` (the
    python of a venv with apache-flink), ``job`` with ``pystream`` renamed to ``pyflink``,
    as whole fresh processes given ``rows``; with ``warm_server``, also ``job`` as a fresh
    process on the running ``pystream server``. The systems take turns, ``repeat`` times.
    What the runs print (``result=...``) must agree."""
    import argparse
    import tempfile

    with tempfile.TemporaryDirectory() as directory:
        systems = {"pystream": [sys.executable, str(job)],
                   "pyspark": [sys.executable, str(pyspark_job)]}
        if pyflink:
            copy = Path(directory) / ("%s_pyflink.py" % job.stem)
            copy.write_text(re.sub(r"\bpystream\b", "pyflink", job.read_text()))
            systems["pyflink"] = [pyflink, str(copy)]
        if warm_server:
            systems["pystream + server"] = [sys.executable, str(job)]
        times: Dict[str, List[float]] = {name: [] for name in systems}
        results: Dict[str, str] = {}
        for _ in range(repeat):
            for name, command in systems.items():
                seconds, printed = run_once(command + [str(rows)],
                                            environment(name, argparse.Namespace(
                                                pyflink=pyflink)))
                times[name].append(seconds)
                results[name] = " ".join(w for w in printed.split()
                                         if w.startswith("result="))
    if len(set(results.values())) > 1:
        raise SystemExit("the systems disagree: %s" % results)
    return times


def print_figures(title: str, rows: int, times: Dict[str, List[float]]) -> None:
    """A markdown table: seconds min [median] and rows/s of the best run per system."""
    import statistics

    print(title)
    print("| system | seconds min [median] | rows/s (best) | vs PySpark |")
    print("|---|---|---|---|")
    for name, runs in times.items():
        print("| %s | %.1f [%.1f] | %s | %.2fx |" % (
            name, min(runs), statistics.median(runs), "{:,.0f}".format(rows / min(runs)),
            min(runs) / min(times["pyspark"])))


if __name__ == "__main__":
    main()
