"""Record what real PyFlink prints for each oracle program (the expected outputs).

Each program under ``tests/table/programs``, ``tests/sql/programs`` and
``tests/conformance/programs`` is a PyFlink program
(``from pyflink...``); this script runs it on real PyFlink 2.3 in a fresh process and writes
its standard output to ``<program>.out`` beside it. CI never runs PyFlink: it runs the same
programs on pystream (``tests/table/test_programs.py``) and compares with these files.

    python3 -m venv /tmp/flinkvenv && /tmp/flinkvenv/bin/pip install apache-flink==2.3.0
    PATH=/tmp/flinkvenv/bin:$PATH python tests/oracle/record.py [name ...]

PyFlink starts its Python workers with the first ``python`` on PATH, hence the PATH. With
names, only those programs are recorded (``record.py sql_group_by table_types``).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DIRECTORIES = [ROOT / "tests" / "table" / "programs", ROOT / "tests" / "sql" / "programs",
               ROOT / "tests" / "conformance" / "programs"]


def programs(names=()):
    for directory in DIRECTORIES:
        for path in sorted(directory.glob("*.py")):
            if not names or path.stem in names:
                yield path


def record(path: Path, python: str) -> bool:
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(python) + os.pathsep + env.get("PATH", "")
    env["TZ"] = "UTC"
    started = time.monotonic()
    done = subprocess.run([python, str(path)], capture_output=True, text=True, env=env,
                          cwd=str(path.parent), timeout=600)
    seconds = time.monotonic() - started
    if done.returncode:
        print("FAILED %s (%.0f s):\n%s" % (path.name, seconds, done.stderr[-3000:]))
        return False
    path.with_suffix(".out").write_text(done.stdout)
    print("recorded %s (%.0f s, %d lines)" % (path.name, seconds,
                                                 done.stdout.count("\n")))
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="program names (default: all)")
    parser.add_argument("--python", default="/tmp/flinkvenv/bin/python",
                        help="the Python of the PyFlink venv")
    args = parser.parse_args()
    results = [record(p, args.python) for p in programs(set(args.names))]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
