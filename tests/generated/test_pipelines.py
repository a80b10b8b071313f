"""The generated DataStream pipelines (``pipelines.py``: random stacks of operators over
numbers, strings, typed tuples and rows, and instances of classes the program defines; BATCH
and STREAMING) print on pystream what they printed on PyFlink 2.3
(``expected_pipelines.jsonl``, recorded by ``tests/oracle/record_generated.py --pipelines``):
the same lines in the same order where PyFlink's order is deterministic (parallelism 1,
one source, no windows or timers, STREAMING or a BATCH job without keys), the same lines
otherwise, or a failure with the same exception. Each runs as its users run it: a program
as ``__main__`` after the rename ``pyflink`` -> ``pystream``. Known differences are strict
xfails naming them (``known.json``).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.generated.pipelines import EXPECTED_FILE, pipelines, run_on_pystream, same

ROOT = Path(__file__).resolve().parents[2]
PIPELINES = {p.id: p for p in pipelines()}
KNOWN_FILE = ROOT / "tests" / "generated" / "known.json"
KNOWN: dict = json.loads(KNOWN_FILE.read_text()) if KNOWN_FILE.exists() else {}

# the suite runs every SAMPLE-th pipeline and those of defects fixed since they were
# recorded; PYSTREAM_GENERATED=all runs every one
SAMPLE = 1 if os.environ.get("PYSTREAM_GENERATED") == "all" else 50
FIXED = {
    "p0203": "event-time windows over a window's output in STREAMING mode",
}


def recorded() -> list:
    path = ROOT / EXPECTED_FILE
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def cases():
    for n, case in enumerate(recorded()):
        if n % SAMPLE and case["id"] not in FIXED:
            continue
        marks = [pytest.mark.xfail(strict=True, reason=KNOWN[case["id"]])] \
            if case["id"] in KNOWN else []
        yield pytest.param(case, id=case["id"], marks=marks)


@pytest.mark.parametrize("case", list(cases()))
def test_generated_pipeline_prints_what_pyflink_prints(case):
    pipeline = PIPELINES[case["id"]]
    assert (list(pipeline.body), pipeline.mode, pipeline.parallelism) == (
        case["body"], case["mode"], case["parallelism"]), "the generator changed: record again"
    got = run_on_pystream(pipeline)
    assert same(case, got, pipeline.ordered), "\n%s\n  PyFlink:  %s\n  pystream: %s" % (
        pipeline.function(), case, got)


def test_the_pipelines_are_recorded():
    assert len(recorded()) == len(PIPELINES)
