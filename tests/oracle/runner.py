"""Running an oracle program on pystream, in this process, and comparing its output.

A program is written for PyFlink; it runs here after the rename its users would make
(``pyflink`` -> ``pystream``), as ``__main__``, with its standard output captured. Programs
whose lines may come in another order say ``# oracle: unordered`` and are compared as
sorted lines.
"""
from __future__ import annotations

import contextlib
import difflib
import io
import re
import sys
import types
from pathlib import Path
from typing import List, Optional

UNORDERED = "# oracle: unordered"


def programs(directory: Path) -> List[Path]:
    """The programs of ``directory`` that have a recorded output."""
    return sorted(p for p in directory.glob("*.py") if p.with_suffix(".out").exists())


def pystream_source(path: Path) -> str:
    return re.sub(r"\bpyflink\b", "pystream", path.read_text())


def run_program(path: Path) -> str:
    """What the program prints on pystream, run as Python runs a script: the module
    ``__main__`` (classes it defines are ``__main__.Name``, found in ``sys.modules``)."""
    return run_source(pystream_source(path), str(path))


def run_source(source: str, filename: str) -> str:
    """What the program ``source`` (already written for pystream) prints, run as
    ``__main__``."""
    printed = io.StringIO()
    program = types.ModuleType("__main__")
    program.__file__ = filename
    saved = sys.modules["__main__"]
    sys.modules["__main__"] = program
    try:
        with contextlib.redirect_stdout(printed):
            exec(compile(source, filename, "exec"), program.__dict__)
    finally:
        sys.modules["__main__"] = saved
        _forget_time_zone()
    return printed.getvalue()


def _forget_time_zone() -> None:
    """The Spark session's own time zone again: a program's ``table.local-time-zone`` is
    the session's until another table job runs, and the next test in this process may run
    none."""
    from pystream.session import get_session, session_time_zone

    get_session().conf.set("spark.sql.session.timeZone", session_time_zone())


def compare(expected: str, actual: str, ordered: bool) -> Optional[str]:
    """None when they match, else a unified diff (expected = PyFlink, actual = pystream)."""
    want, got = expected.splitlines(), actual.splitlines()
    if not ordered:
        want, got = sorted(want), sorted(got)
    if want == got:
        return None
    return "\n".join(difflib.unified_diff(want, got, "PyFlink", "pystream", lineterm=""))


def is_ordered(path: Path) -> bool:
    return UNORDERED not in path.read_text()


def recorded_changes(program: Path) -> List[List[tuple]]:
    """The changelog tables PyFlink printed for ``program`` (its ``.out``): per table, its
    rows as (kind, value, ...) of the printed text (``<NULL>`` for NULL)."""
    tables: List[List[tuple]] = []
    rows: List[tuple] = []
    for line in program.with_suffix(".out").read_text().splitlines():
        cells = tuple(c.strip() for c in line.strip("|").split("|"))
        if line.startswith("| ") and cells[0] in ("+I", "-U", "+U", "-D"):
            rows.append(cells)
        elif line.endswith(" in set"):
            tables.append(rows)
            rows = []
    return tables
