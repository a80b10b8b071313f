"""The magics' pure parts: argument splitting, stop rules, rates, the explained graph."""
import re
import subprocess
import sys

import pytest

from pyshell.explain import graph_text
from pyshell.jobs import RowCounter
from pyshell.magics import parse_setting, split_line
from pyshell.preview import Limits, stop_reason
from pyshell.watch import RateMeter, watermark_of
from pystream.common import Types, WatermarkStrategy
from pystream.datastream import StreamExecutionEnvironment
from pystream.datastream.connectors import DataGeneratorSource
from pystream.datastream.planning import plan_of

ARITY = {"-n": 1, "--rows": 1, "--timeout": 1, "-o": 0}


@pytest.mark.parametrize("line, expected", [
    ("ds", ("ds", [])),
    ("ds -n 5 --timeout=3", ("ds", ["-n", "5", "--timeout=3"])),
    ("-n 5 ds.map(lambda x: x - 1)", ("ds.map(lambda x: x - 1)", ["-n", "5"])),
    ("ds.filter(lambda x: x > -1) -o", ("ds.filter(lambda x: x > -1)", ["-o"])),
    ("ds.map(lambda s: s + ' -n 3')", ("ds.map(lambda s: s + ' -n 3')", [])),
    ('ds.map(lambda s: """ x """)  -n 2', ('ds.map(lambda s: """ x """)', ["-n", "2"])),
    ("a if flag else b", ("a if flag else b", [])),
    ("ds -n5", ("ds", ["-n5"])),
])
def test_split_line(line, expected):
    assert split_line(line, ARITY) == expected


def test_parse_setting():
    got = [parse_setting(t) for t in ("", "spark.x", " spark.x = 4 ", "a=b=c")]
    assert got == [(None, None), ("spark.x", None), ("spark.x", "4"), ("a", "b=c")]


def test_stop_reasons():
    limits = Limits(n=10, timeout=10, idle=5, startup=60)
    got = [stop_reason(limits, 10, 1, 0), stop_reason(limits, 3, 10, 0),
           stop_reason(limits, 3, 8, 5.5), stop_reason(limits, 3, 8, None),
           stop_reason(Limits(idle=None), 3, 8, 99),
           stop_reason(limits, 0, None, None, starting_for=65),
           stop_reason(limits, 0, None, None, starting_for=70)]
    assert got == ["rows", "timeout", "idle", None, None, None, "timeout"]


def test_rate_meter_uses_the_last_seconds():
    meter = RateMeter(window=5)
    rates = [meter.add(t, n) for t, n in [(0, 0), (1, 10), (2, 20), (8, 20), (9, 30)]]
    assert rates == [None, 10.0, 10.0, 0.0, 10 / 7]


def test_row_counter_counts_each_batch_once():
    counter = RowCounter()
    first = counter.update("q", [{"batchId": 0, "numInputRows": 5},
                                 {"batchId": 1, "numInputRows": 7}])
    second = counter.update("q", [{"batchId": 1, "numInputRows": 7},
                                  {"batchId": 2, "numInputRows": 1}])
    assert (first, second) == (12, 13)


def test_watermark_of_progress():
    got = [watermark_of(None), watermark_of({"eventTime": {}}),
           watermark_of({"eventTime": {"watermark": "2024-01-01T00:00:00.000Z"}})]
    assert got == [None, None, "2024-01-01T00:00:00.000Z"]


def test_explain_shows_fused_stages_and_key_by_boundaries():
    env = StreamExecutionEnvironment.get_execution_environment()
    ds = env.from_source(DataGeneratorSource(lambda i: (i % 3, i), rows_per_second=5),
                         WatermarkStrategy.no_watermarks(), "gen",
                         Types.TUPLE([Types.LONG(), Types.LONG()]))

    def double(t):
        return t[0], t[1] * 2

    ds = ds.map(double).filter(lambda t: t[1] > 0).key_by(lambda t: t[0]) \
        .reduce(lambda a, b: a).map(str).set_parallelism(3)
    lines = [re.sub(r" \(\S+:\d+\)", "", line)
             for line in graph_text(plan_of(ds)).splitlines()]
    assert lines == [
        "pystream plan · STREAMING · unbounded · Spark Structured Streaming · 4 stages",
        "  (runtime mode STREAMING)",
        "  (unbounded input: streaming queries run until cancelled)",
        "Stage 1 · source",
        "    Source: gen · DataGeneratorSource(count=None, rows_per_second=5) · unbounded",
        "Stage 2 · fused Python operators (mapInArrow) · reads stage 1 by rebalance",
        "    Map · double",
        "    Filter · <lambda>",
        "    KeyBy · <lambda>",
        "Stage 3 · keyed state and timers (transformWithState) · reads stage 2 by hash(key)",
        "    Reduce · RollingReduce(<lambda>)",
        "Stage 4 · fused Python operators (mapInArrow) · reads stage 3 by rebalance",
        "    Map · str · parallelism 3",
    ]


def test_the_prompt_needs_no_spark_import():
    """Time to the first prompt: nothing heavy is imported before it (Spark, Arrow, pandas,
    the compiler; the driver-side helpers of ``pystream.runtime`` that load none of them,
    such as its debugger relay and log echo, are plain Python)."""
    code = ("import sys, pyshell.app, pyshell.magics, pyshell.extension, pyshell.namespace; "
            "pyshell.namespace.preload(); from pyshell.app import banner_text; "
            "from pyshell.launcher import parse_options; banner_text(parse_options([])); "
            "print(sorted(m for m in ('pyspark', 'pyarrow', 'pandas', 'py4j', 'numpy', "
            "'pystream.compiler', 'pystream.runtime.records', 'pystream.runtime.stage') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_short_errors_leave_out_the_query_dump():
    from pyshell.errors import short_error
    from pystream.errors import JobExecutionError, UnsupportedFeatureError

    failed = JobExecutionError("Spark failed: boom\n=== Streaming Query ===\nIdentifier: x")
    assert [short_error(failed), short_error(UnsupportedFeatureError("no windows"))] == \
        ["Job failed: Spark failed: boom", "UnsupportedFeatureError: no windows"]


class ListTap:
    """A tap over a list: what ``StreamTap`` gives, for the views' tests."""

    def __init__(self, rows):
        self.all = list(rows)

    def count(self) -> int:
        return len(self.all)

    def rows(self, offset: int, limit: int) -> list:
        return self.all[offset:offset + limit]


def test_watch_table_view_of_a_stream_keeps_each_keys_latest_record():
    from pyshell.watch import LatestPerKey

    tap = ListTap([("a", 1), ("b", 1), ("a", 3)])
    view = LatestPerKey(lambda r: r[0], "the first field")
    first = view.rows(tap, 10)
    tap.all += [("c", 1), ("b", 5)]
    assert (first, view.rows(tap, 2), view.status()) == (
        ([("a", 3), ("b", 1)], 3), ([("a", 3), ("b", 5)], 5), "3 keys (by the first field)")


def test_watch_table_view_of_a_table_applies_its_changes():
    from pyshell.watch import CurrentRows

    tap = ListTap([["+I", "a", 1], ["+I", "b", 1], ["-U", "a", 1], ["+U", "a", 2],
                   ["-D", "b", 1]])
    view = CurrentRows()
    assert (view.columns(["op", "k", "n"]), view.rows(tap, 10), view.status()) == (
        ["k", "n"], ([("a", 2)], 5), "1 current rows")


def test_watch_keys_a_rolling_sum_by_its_key_selector():
    from pystream.datastream import StreamExecutionEnvironment
    from pystream.datastream.planning import record_key

    env = StreamExecutionEnvironment.get_execution_environment()
    ds = env.from_collection([(1, "x"), (2, "y")])
    summed = ds.key_by(lambda t: t[1]).sum(0)
    kinds = [record_key(s) for s in (ds.key_by(lambda t: t[1]), summed, ds)]
    assert [(key((5, "z")), words) for key, words in kinds] == [
        ("z", "the stream's key"), ("z", "the key of Sum"),
        (5, "the first field")]
