"""Flink's own small example programs, each run as a fresh process: real PyFlink 2.3, pystream,
and pystream on its warm local server (``pystream server start``).

    python -m bench.flink_examples --pyflink /tmp/flinkvenv/bin/python
    python -m bench.flink_examples --names datastream__word_count --repeat 3 --no-cold

The examples come from the apache-flink wheel the example tests use (``tests/examples/flink``),
renamed ``pyflink`` -> ``pystream`` for pystream. Each run's output is compared with the one
recorded on PyFlink (``<name>.out``). The benchmark starts the server itself (unless one is
running) and stops it at the end, checking that nothing it started is left running.
Prints seconds per run, min [median], per system.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.examples.flink.examples import (  # noqa: E402
    RECORDED_PARALLELISM,
    Example,
    by_name,
    comparable,
    extract_examples,
    fetch_wheel,
    strip_pyflink_noise,
)
from tests.oracle.runner import pystream_source  # noqa: E402

# what the example tests know pystream prints differently (tests/examples: NOT_YET)
DIFFERENT = {"datastream__basic_operations", "datastream__event_time_timer",
             "datastream__state_access", "table__basic_operations",
             "table__async__async_scalar_function", "table__pandas__pandas_udaf",
             "table__windowing__sliding_window"}


def run(command: List[str], env: dict, cwd: str) -> tuple:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=900)
    return time.perf_counter() - start, done


def pyflink_env(python: str) -> dict:
    env = dict(os.environ, TZ="UTC")
    env["PATH"] = os.path.dirname(python) + os.pathsep + env.get("PATH", "")
    env["JAVA_TOOL_OPTIONS"] = ("%s -XX:ActiveProcessorCount=%d" % (
        env.get("JAVA_TOOL_OPTIONS", ""), RECORDED_PARALLELISM)).strip()
    return env


def pystream_env(on_server: bool) -> dict:
    env = dict(os.environ, TZ="UTC")
    for name in ("PYSTREAM_REMOTE", "SPARK_REMOTE", "PYSTREAM_MASTER"):
        env.pop(name, None)
    if not on_server:
        env["PYSTREAM_SERVER"] = "off"
        env["PYSTREAM_MASTER"] = "local[%d]" % RECORDED_PARALLELISM
    return env


def verdict(example: Example, stdout: str) -> str:
    want = comparable(example, example.out.read_text())
    return "same" if comparable(example, strip_pyflink_noise(stdout)) == want else "DIFFERS"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--names", default="", help="comma-separated example names")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--pyflink", help="the python of a venv with apache-flink 2.3")
    parser.add_argument("--no-cold", action="store_true", help="skip pystream without server")
    parser.add_argument("--all", action="store_true",
                        help="also the examples pystream prints differently")
    args = parser.parse_args(argv)
    from pystream import server

    examples = [e for e in by_name([n for n in args.names.split(",") if n]).values()
                if args.all or e.name not in DIFFERENT]
    systems: Dict[str, Optional[dict]] = {}
    if args.pyflink:
        systems["PyFlink 2.3"] = pyflink_env(args.pyflink)
    if not args.no_cold:
        systems["pystream"] = pystream_env(on_server=False)
    systems["pystream + server"] = pystream_env(on_server=True)

    started_server = None
    if server.running() is None:
        began = time.perf_counter()
        started_server = server.start()
        print("server started and warmed up in %.1f s" % (time.perf_counter() - began))
    try:
        with tempfile.TemporaryDirectory(prefix="flink-examples-") as directory:
            wheel = fetch_wheel()
            flink_root = extract_examples(wheel, Path(directory) / "pyflink")
            ours = extract_examples(wheel, Path(directory) / "pystream")
            for path in ours.rglob("*.py"):
                path.write_text(pystream_source(path))
            header = "| example | " + " | ".join(systems) + " |"
            print(header)
            print("|" + "---|" * (header.count("|") - 1))
            for example in examples:
                cells = []
                for name, env in systems.items():
                    root, python = (flink_root, args.pyflink) if name.startswith("PyFlink") \
                        else (ours, sys.executable)
                    times, outcome = [], "same"
                    for _ in range(args.repeat):
                        with tempfile.TemporaryDirectory() as cwd:
                            seconds, done = run([python, str(root / example.path),
                                                 *example.args], env, cwd)
                        times.append(seconds)
                        if example.fails is None and done.returncode:
                            outcome = "FAILED"
                        elif verdict(example, done.stdout) != "same":
                            outcome = "DIFFERS"
                    cells.append("%.1f [%.1f]%s" % (min(times), statistics.median(times),
                                                    "" if outcome == "same" else " " + outcome))
                print("| %s | %s |" % (example.name, " | ".join(cells)), flush=True)
    finally:
        if started_server is not None:
            server.stop()
            left = server.leftovers(started_server)
            print("server stopped; %s" % ("nothing left running" if not left
                                          else "STILL RUNNING: %s" % left))


if __name__ == "__main__":
    main()
