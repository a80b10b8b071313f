"""PyFlink programs print on pystream what they print on real PyFlink 2.3.

Each program in ``tests/table/programs`` and ``tests/sql/programs`` has its output recorded
on PyFlink (``tests/oracle/record.py``); here it runs on pystream (``pyflink`` renamed to
``pystream``) and prints the same lines. Programs pystream does not match yet are strict
xfails naming what is missing: when one starts to pass, the xfail fails and is removed.
"""
from pathlib import Path

import pytest

from tests.oracle.runner import compare, is_ordered, programs, run_program

ROOT = Path(__file__).resolve().parents[2]
DIRECTORIES = [ROOT / "tests" / "table" / "programs", ROOT / "tests" / "sql" / "programs"]

# program name -> what pystream is missing to print PyFlink's lines
NOT_YET: dict = {}


def cases():
    for directory in DIRECTORIES:
        for path in programs(directory):
            marks = []
            if path.stem in NOT_YET:
                marks.append(pytest.mark.xfail(strict=True, reason=NOT_YET[path.stem]))
            yield pytest.param(path, id="%s/%s" % (directory.parent.name, path.stem),
                               marks=marks)


@pytest.mark.parametrize("path", list(cases()))
def test_program_prints_what_pyflink_prints(path):
    expected = path.with_suffix(".out").read_text()
    difference = compare(expected, run_program(path), is_ordered(path))
    assert difference is None, "\n" + difference
