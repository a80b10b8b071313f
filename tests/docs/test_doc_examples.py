"""The docs' runnable examples print what the docs say they print.

A fenced block opened with ```` ```python runnable ```` runs in this test run's Spark session,
in BATCH mode unless the program sets a mode itself (the docs' programs give the same output
in both modes, and BATCH jobs start fastest); ```` ```python runnable streaming ```` runs as
written. The ```` ```text ```` block after it (a paragraph of prose may come between) holds its
output. Lines are compared in any order: STREAMING jobs emit keys in Spark's order.
"""
import contextlib
import io
import re
from pathlib import Path

import pytest

from pystream.datastream import RuntimeExecutionMode, StreamExecutionEnvironment

ROOT = Path(__file__).resolve().parents[2]
DOCS = ["README.md", "docs/datastream.md", "docs/state-and-time.md", "docs/windows.md",
        "docs/table.md", "docs/sql.md", "docs/udf.md"]
EXAMPLE = re.compile(r"```python runnable( streaming)?\n(.*?)```\n\n"
                     r"(?:(?:(?!```)[^\n]+\n)+\n)?"  # a paragraph of prose
                     r"```text\n(.*?)```", re.S)


def examples():
    for doc in DOCS:
        text = (ROOT / doc).read_text()
        for match in EXAMPLE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            yield pytest.param(bool(match.group(1)), match.group(2), match.group(3),
                               id="%s:%d" % (doc, line))


@pytest.fixture
def batch_by_default(monkeypatch):
    """Environments start in BATCH mode (a program's own set_runtime_mode still wins)."""
    new_environment = StreamExecutionEnvironment.get_execution_environment

    def batch_environment(configuration=None):
        env = new_environment(configuration)
        if configuration is None or not configuration.contains_key("execution.runtime-mode"):
            env.set_runtime_mode(RuntimeExecutionMode.BATCH)
        return env

    return lambda: monkeypatch.setattr(StreamExecutionEnvironment, "get_execution_environment",
                                       staticmethod(batch_environment))


@pytest.mark.parametrize(("streaming", "code", "output"), list(examples()))
def test_example_prints_what_the_doc_shows(streaming, code, output, batch_by_default):
    if not streaming:
        batch_by_default()
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "<doc example>", "exec"), {"__name__": "doc_example"})
    assert sorted(printed.getvalue().splitlines()) == sorted(output.splitlines())
