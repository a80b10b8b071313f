"""Record what real PyFlink 2.3 prints for each Nexmark query over the suite's small event file.

    PATH=/tmp/flinkvenv/bin:$PATH python tests/oracle/record_nexmark.py [q0 q5 ...]

Each query runs as ``bench/nexmark/job.py QUERY EVENTS --print`` with ``pystream`` renamed to
``pyflink``, a fresh PyFlink process per query (about ten seconds each); its output goes to
``tests/nexmark/expected/<query>.out``, compared by ``tests/nexmark/test_nexmark.py``. A query
PyFlink refuses is recorded as ``ERROR: <its last cause's message>``. q23 is recorded with
``--quote-datetime`` (PyFlink's parser refuses ``A.dateTime`` as nexmark writes it). A query
of ``BATCH_ANSWERS``, which PyFlink refuses in STREAMING mode, is recorded in BATCH mode:
its answer, which pystream's STREAMING changelog must leave (its refusal is printed).
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.nexmark.events import QUERIES, small_events  # noqa: E402

EXPECTED = ROOT / "tests" / "nexmark" / "expected"
BATCH_ANSWERS = {"q6_corrected"}
JOB = ROOT / "bench" / "nexmark" / "job.py"


def record(query: str, events: Path, python: str) -> bool:
    if query in BATCH_ANSWERS:
        refused = _run(query, events, python, ["--print"])
        print("%s in STREAMING mode on PyFlink: %s" % (query, _refusal(refused) or "runs"))
        return _write(query, _run(query, events, python, ["--print", "--batch"]))
    flags = ["--print"] + (["--quote-datetime"] if query == "q23" else [])
    return _write(query, _run(query, events, python, flags))


def _run(query: str, events: Path, python: str, flags) -> subprocess.CompletedProcess:
    copy = JOB.with_name("job_pyflink.py")
    copy.write_text(re.sub(r"\bpystream\b", "pyflink", JOB.read_text()))
    env = dict(os.environ, TZ="UTC")
    env["PATH"] = os.path.dirname(python) + os.pathsep + env.get("PATH", "")
    try:
        return subprocess.run([python, str(copy), query, str(events), *flags],
                              capture_output=True, text=True, env=env, timeout=900)
    finally:
        copy.unlink()


def _refusal(done: subprocess.CompletedProcess) -> str:
    """The message of the last cause of a failed run ('' if it did not fail that way)."""
    causes = re.findall(r"^Caused by: [\w.$]+: (.*)$", done.stderr, re.M) or \
        re.findall(r"^[\w.]+\.(?:\w+Exception): [\w.]+Exception: (.*)$", done.stderr, re.M)
    return causes[-1] if done.returncode and causes else ""


def _write(query: str, done: subprocess.CompletedProcess) -> bool:
    EXPECTED.mkdir(parents=True, exist_ok=True)
    if done.returncode:
        cause = _refusal(done)
        if not cause:
            print("FAILED %s:\n%s" % (query, done.stderr[-3000:]))
            return False
        (EXPECTED / ("%s.out" % query)).write_text("ERROR: %s\n" % cause)
        print("recorded %s: PyFlink refuses it: %s" % (query, cause))
        return True
    (EXPECTED / ("%s.out" % query)).write_text(done.stdout)
    print("recorded %s (%d lines)" % (query, done.stdout.count("\n")), flush=True)
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("queries", nargs="*", default=QUERIES)
    parser.add_argument("--python", default="/tmp/flinkvenv/bin/python")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        events = small_events(Path(directory))
        results = [record(q, events, args.python) for q in args.queries]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
