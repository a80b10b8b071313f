"""Flink's own example programs print on pystream what they print on real PyFlink 2.3.

The programs come from the apache-flink 2.3.0 wheel (``pip download`` into a cache reused
across runs, then ``pyflink/examples/**`` out of the zip), renamed ``pyflink`` -> ``pystream``
as a user would; nothing of them is copied into this repository. What PyFlink printed for
each was recorded by ``tests/examples/flink/record.py``; the list of examples, with their
arguments and how their output is compared, is ``tests/examples/flink/examples.py``.

An example runs in this process (sharing the test run's Spark session, with its argv set;
an example that sends logging to stdout with ``logging.basicConfig`` gets the process's
logging to itself while it runs, so whatever logs at INFO is part of what it prints). One
of them also runs as a fresh ``python`` process, as its user would run it, where starting
Spark is part of the run and must not log into the user's handlers. Examples pystream does
not match yet are strict xfails naming what differs: when one starts to pass, the xfail
fails and is removed.
"""
from __future__ import annotations

import contextlib
import difflib
import io
import logging
import os
import subprocess
import sys
import time
import traceback
from pathlib import Path
from typing import Optional, Tuple

import pytest

from pystream import session
from tests.examples.flink.examples import (
    EXAMPLES,
    LEFT_OUT,
    RECORDED_PARALLELISM,
    Example,
    comparable,
    extract_examples,
    fetch_wheel,
    logs_to_stdout,
    strip_pyflink_noise,
)
from tests.oracle.runner import pystream_source

ROOT = Path(__file__).resolve().parents[2]

# examples that also run as a fresh process (start-up included); the others run in this one
FRESH_PROCESS = ("datastream__word_count",)

# example name -> what pystream is missing to print PyFlink's lines
NOT_YET: dict = {}


@pytest.fixture(scope="module")
def examples_root(tmp_path_factory) -> Path:
    """The wheel's examples, renamed pyflink -> pystream, in a temporary directory."""
    try:
        wheel, problem = fetch_wheel(), None
    except RuntimeError as e:
        wheel, problem = None, str(e)
    if problem:  # CI must be able to download it: a failure, not a skip
        pytest.fail("Flink's example programs come from the apache-flink wheel: " + problem,
                    pytrace=False)
    assert session.default_parallelism() == RECORDED_PARALLELISM, (
        "PyFlink ran the examples at parallelism %d; this session has %d" % (
            RECORDED_PARALLELISM, session.default_parallelism()))
    root = extract_examples(wheel, tmp_path_factory.mktemp("flink-examples"))
    for path in root.rglob("*.py"):
        path.write_text(pystream_source(path))
    return root


@contextlib.contextmanager
def utc():
    """TZ=UTC for this process while an example runs, as when it was recorded."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    try:
        yield
    finally:
        if before is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = before
        time.tzset()


@contextlib.contextmanager
def own_logging():
    """The root logger without handlers (and at WARNING) while an example runs, so that its
    ``logging.basicConfig`` takes effect as in a process of its own; restored after."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    root.handlers[:] = []
    root.setLevel(logging.WARNING)
    try:
        yield
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)


def run_in_process(path: Path, args) -> Tuple[str, Optional[str]]:
    """What the example prints here, as ``__main__`` with ``sys.argv`` set, and the
    traceback of the error it ends with (None when it ends normally)."""
    printed = io.StringIO()
    argv = sys.argv
    sys.argv = [str(path), *args]
    try:
        with utc(), contextlib.redirect_stdout(printed), own_logging():
            exec(compile(path.read_text(), str(path), "exec"),
                 {"__name__": "__main__", "__file__": str(path)})
    except Exception:  # noqa: BLE001 - an example's error is compared, not raised
        return printed.getvalue(), traceback.format_exc()
    finally:
        sys.argv = argv
    return printed.getvalue(), None


def run_in_fresh_process(path: Path, args, cwd: Path) -> Tuple[str, Optional[str]]:
    """What the example prints run as ``python <example>``, and its stderr if it fails."""
    env = dict(os.environ)
    env["TZ"] = "UTC"
    # the default parallelism PyFlink had when recording (that of the test run's session)
    env["PYSTREAM_MASTER"] = "local[%d]" % RECORDED_PARALLELISM
    for name in ("PYSTREAM_REMOTE", "SPARK_REMOTE"):  # a local session, like the recording's
        env.pop(name, None)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    done = subprocess.run([sys.executable, str(path), *args], capture_output=True, text=True,
                          env=env, cwd=str(cwd), timeout=240)
    return done.stdout, (done.stderr or "exit %d" % done.returncode) if done.returncode else None


def cases(fresh: bool = False):
    for example in EXAMPLES:
        if fresh and example.name not in FRESH_PROCESS:
            continue
        marks = []
        if example.name in NOT_YET:
            marks.append(pytest.mark.xfail(strict=True, reason=NOT_YET[example.name]))
        yield pytest.param(example, id=example.name, marks=marks)


@pytest.mark.parametrize("example", list(cases()))
def test_example_prints_what_pyflink_prints(example: Example, examples_root):
    path = examples_root / example.path
    printed, error = run_in_process(path, example.args)
    compare(example, printed, error)


@pytest.mark.parametrize("example", list(cases(fresh=True)))
def test_example_run_as_a_fresh_process_prints_what_pyflink_prints(example: Example,
                                                                   examples_root, tmp_path):
    path = examples_root / example.path
    assert logs_to_stdout(path.read_text())  # so Spark's start-up chatter would show
    printed, error = run_in_fresh_process(path, example.args, tmp_path)
    compare(example, printed, error)


def compare(example: Example, printed: str, error: Optional[str]) -> None:
    if example.fails is None:
        assert error is None, "it failed on pystream, not on PyFlink:\n%s\n%s" % (
            error[-3000:], printed[-2000:])
    else:
        assert error is not None and example.fails in error, (
            "on PyFlink it fails with %r; on pystream %s\n%s" % (
                example.fails, "it does not fail" if error is None else
                "with another error:\n" + error[-3000:], printed[-2000:]))
    want = comparable(example, strip_pyflink_noise(example.out.read_text()))
    got = comparable(example, printed)
    assert got == want, "\n" + "\n".join(difflib.unified_diff(
        want, got, "PyFlink", "pystream", lineterm=""))


def test_every_example_of_the_wheel_is_run_or_left_out_for_a_reason(examples_root):
    in_wheel = {p.relative_to(examples_root).as_posix() for p in examples_root.rglob("*.py")}
    chosen = {e.path for e in EXAMPLES}
    assert not chosen & set(LEFT_OUT)
    assert in_wheel == chosen | set(LEFT_OUT)


def test_every_example_has_its_recorded_output_and_no_other():
    recorded = {p.name for p in (ROOT / "tests" / "examples" / "flink").glob("*.out")}
    assert recorded == {e.out.name for e in EXAMPLES}
