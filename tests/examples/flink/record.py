"""Record what real PyFlink 2.3 prints for Flink's own example programs (run by hand, not CI).

Takes the examples from the apache-flink wheel the way the test does (``examples.py``:
``pip download`` into the test cache, then ``pyflink/examples/**`` out of the zip), runs each
chosen one on PyFlink in a fresh process, twice, from an empty directory, with TZ=UTC, and
writes its standard output, less PyFlink's own log lines (``strip_pyflink_noise``), to
``tests/examples/flink/<path with / as __>.out``. It says when the two runs differ (as
compared: masked, and sorted unless the example is ordered); then nothing is written for it.

    python3 -m venv /tmp/flinkvenv && /tmp/flinkvenv/bin/pip install apache-flink==2.3.0
    .venv/bin/python tests/examples/flink/record.py [name ...]

PyFlink starts its Python workers with the first ``python`` on PATH, hence the PATH given to
each run; its default parallelism is the JVM's processor count, pinned to
``RECORDED_PARALLELISM`` (2) with ``-XX:ActiveProcessorCount``. Names are those of the
.out files (``datastream__windowing__tumbling_time_window``).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parents[3]
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


def run_on_pyflink(example: Example, examples_root: Path, python: str,
                   raw: Optional[Path] = None) -> str:
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(python) + os.pathsep + env.get("PATH", "")
    env["TZ"] = "UTC"
    # PyFlink's default parallelism is the JVM's processor count: the recorded outputs (their
    # "2> " prefixes) are those of RECORDED_PARALLELISM, whatever machine records them
    env["JAVA_TOOL_OPTIONS"] = ("%s -XX:ActiveProcessorCount=%d" % (
        env.get("JAVA_TOOL_OPTIONS", ""), RECORDED_PARALLELISM)).strip()
    with tempfile.TemporaryDirectory(prefix="flink-example-") as cwd:
        done = subprocess.run([python, str(examples_root / example.path), *example.args],
                              capture_output=True, text=True, env=env, cwd=cwd, timeout=900)
    if example.fails is None and done.returncode:
        raise RuntimeError("exit %d:\n%s" % (done.returncode, done.stderr[-3000:]))
    if example.fails is not None and not (done.returncode and example.fails in done.stderr):
        raise RuntimeError("expected to fail with %r, but exit %d:\n%s" % (
            example.fails, done.returncode, done.stderr[-3000:]))
    if raw is not None:
        with open(raw / (example.name + ".raw"), "a") as f:
            f.write(done.stdout + "=" * 20 + "\n")
    return strip_pyflink_noise(done.stdout)


def record(example: Example, examples_root: Path, python: str,
           raw: Optional[Path] = None) -> bool:
    started = time.monotonic()
    try:
        first = run_on_pyflink(example, examples_root, python, raw)
        second = run_on_pyflink(example, examples_root, python, raw)
    except RuntimeError as e:
        print("FAILED %s: %s" % (example.name, e))
        return False
    seconds = (time.monotonic() - started) / 2
    if comparable(example, first) != comparable(example, second):
        print("NOT DETERMINISTIC %s (%s): first run\n%s\nsecond run\n%s" % (
            example.name, "ordered" if example.ordered else "sorted", first, second))
        return False
    note = "" if first == second else ", the runs differ only in what is masked or sorted"
    example.out.write_text(first)
    print("recorded %s (%.0f s a run, %d lines%s)" % (example.name, seconds,
                                                      first.count("\n"), note))
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="example names (default: all)")
    parser.add_argument("--python", default="/tmp/flinkvenv/bin/python",
                        help="the Python of the PyFlink venv")
    parser.add_argument("--raw", type=Path,
                        help="also append both runs' whole stdout to <name>.raw here")
    args = parser.parse_args()
    chosen = by_name(args.names)
    unknown = set(args.names) - set(chosen)
    if unknown:
        parser.error("no such example: %s" % ", ".join(sorted(unknown)))
    with tempfile.TemporaryDirectory(prefix="flink-examples-") as tmp:
        root = extract_examples(fetch_wheel(), Path(tmp))
        results = [record(e, root, args.python, args.raw) for e in chosen.values()]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
