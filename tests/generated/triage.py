"""Which generated queries pystream answers differently from PyFlink, and why: for a query
of expressions, each differing expression asked alone beside PyFlink's column; each
difference put in a category. ``--write-known`` writes the categories of every differing
query to ``known.json`` (the strict xfails of test_generated.py and test_pipelines.py),
keeping the deliberate deviations written there by hand ("deviation: ...").

    python -m tests.generated.triage [--write-known] [ID ...]
    python -m tests.generated.triage --pipelines [--write-known] [ID ...]
"""
from __future__ import annotations

import argparse
import fcntl
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Dict, List, Optional

from tests.generated import pipelines
from tests.generated.generator import (
    EXPECTED_FILE,
    answer,
    corpus,
    environments,
    same,
)
from tests.helpers import INTERPRETED_SPARK

ROOT = Path(__file__).resolve().parents[2]
KNOWN_FILE = ROOT / "tests" / "generated" / "known.json"

# (pattern of pystream's error or of the expression, the category)
CATEGORIES = [
    (r"ARITHMETIC_OVERFLOW|CAST_OVERFLOW", "deliberate: integer overflow and out-of-range "
     "casts fail (Spark's ANSI mode), as the SQL standard says, where Flink wraps as Java does"),
    (r"NUMERIC_VALUE_OUT_OF_RANGE", "a DECIMAL result wider than pystream's result type fails "
     "(Flink's ROUND/arithmetic result types are wider)"),
    (r"DIVIDE_BY_ZERO", "division by zero"),
    (r"NULL_MAP_KEY", "a MAP with a NULL key fails: Spark's maps cannot hold one (Flink's can)"),
]


# PyFlink's failures on valid SQL, checked by hand: (its error, the query, the deviation)
PYFLINK_FAILS_WRONGLY = [
    (r"unexpected correlate variable", r"EXISTS|IN \(SELECT|\(SELECT",
     "deviation: PyFlink 2.3's planner fails on a correlated scalar sub-query in WHERE "
     "(unexpected correlate variable), where pystream answers"),
    (r"CompileException", r"RANGE BETWEEN INTERVAL",
     "deviation: PyFlink 2.3 fails at run time (its generated range-bound comparator does not "
     "compile) for a RANGE BETWEEN INTERVAL ... PRECEDING frame over a TIMESTAMP in BATCH mode, "
     "where pystream answers (checked by hand on shape-0101)"),
]
NULL_ELEMENT_AS_MINUS_ONE = (
    "deviation: PyFlink 2.3 gives -1 for a NULL INT taken out of an array or a map (at a NULL "
    "index, ELEMENT of an empty array, a key the map does not have); pystream gives NULL")
AVG_OF_BIGINT_WRAPS = (
    "deviation: PyFlink 2.3's AVG of a BIGINT sums in a Java long, which wraps (an average "
    "of three values near 2^62 comes out negative); pystream averages without overflow")


def _differing_cells(want: Optional[list], got: Optional[list]) -> list:
    """The (PyFlink, pystream) values of the cells that differ between rows of the same
    shape; empty when they agree or their shapes differ."""
    if not want or not got or len(want) != len(got) or any(
            len(w) != len(g) for w, g in zip(want, got)):
        return []
    return [(a, b) for w, g in zip(want, got) for a, b in zip(w, g) if a != b]


def _wrapped_long_sums(want: Optional[list], got: Optional[list]) -> bool:
    """Whether the rows differ only in integers beyond 2^53 (where PyFlink's long sum of an
    AVG wrapped)."""
    cells = _differing_cells(want, got)
    return bool(cells) and all(isinstance(a, int) and isinstance(b, int)
                               and max(abs(a), abs(b)) > 1 << 53 for a, b in cells)


def _null_as_minus_one(want: Optional[list], got: Optional[list]) -> bool:
    """Whether the rows differ only where PyFlink has -1 and pystream NULL."""
    cells = _differing_cells(want, got)
    return bool(cells) and all(a == -1 and b is None for a, b in cells)


def category(want: dict, got: dict, expression: str = "") -> str:
    """Why ``got`` (pystream) is not ``want`` (PyFlink), in words."""
    if "error" in got:
        for pattern, name in CATEGORIES:
            if re.search(pattern, got["error"]):
                return name
        return "pystream fails: %s" % re.sub(r"\s+", " ", got["error"])[:90]
    if "error" in want:
        for error, sql, deviation in PYFLINK_FAILS_WRONGLY:
            if re.search(error, want["error"]) and re.search(sql, want.get("sql", "")):
                return deviation
        return "PyFlink fails, pystream answers"
    if "decimal" in json.dumps(want) and re.sub(r"\.0+'", "'", json.dumps(got)) == \
            re.sub(r"\.0+'", "'", json.dumps(want)):
        return "a DECIMAL result's scale differs from Flink's"
    if _wrapped_long_sums(want.get("rows"), got.get("rows")):
        return AVG_OF_BIGINT_WRAPS
    if _null_as_minus_one(want.get("rows"), got.get("rows")):
        return NULL_ELEMENT_AS_MINUS_ONE
    return "other values than PyFlink" + (" for %s" % expression[:60] if expression else "")


def differences(t_env, case: dict, query, quick: bool = False) -> List[str]:
    """The categories of what differs in one recorded query (empty: it agrees); ``quick``:
    the whole query's only, without asking its expressions alone."""
    if quick and "alone" in case:
        wrong = [category(want, got, e) for e, want, got in (
            (e, want, answer(t_env, query.alone(n)))
            for n, (e, want) in enumerate(zip(query.expressions, case["alone"])))
            if got.get("rows") != want.get("rows") and not ("error" in want and "error" in got)]
        return wrong
    if quick:
        got = answer(t_env, query.sql, changelog=query.streaming)
        if same(case, got, query.ordered):
            return []
        return [category(case, got) if not query.expressions or "error" in got
                else "other values than PyFlink in some of its expressions"]
    if "alone" not in case:
        got = answer(t_env, query.sql, changelog=query.streaming)
        if same(case, got, query.ordered):
            return []
        if not query.expressions or "error" in case:
            print("%s: %s\n  PyFlink:  %s\n  pystream: %s\n" % (case["id"], query.sql,
                                                              case, got))
            if "rows" in got and "rows" in case and same(case, got, ordered=False):
                return ["the same changes as PyFlink in another order"]
            return [category(case, got)]
    found = []
    # the columns before the expressions: a changelog's kind, the shape's keys (k, t)
    lead = int(query.streaming) + query.shape.split("%s")[0].count(",")
    for n, expression in enumerate(query.expressions):
        want = case["alone"][n] if "alone" in case else {
            "rows": [row[:lead] + [row[lead + n]] for row in case["rows"]]}
        got = answer(t_env, query.alone(n), changelog=query.streaming and "alone" not in case)
        if got.get("rows") != want.get("rows") and not ("error" in want and "error" in got):
            found.append(category(want, got, expression))
            print("%s e%d: %s\n  PyFlink:  %s\n  pystream: %s\n" % (
                case["id"], n, expression, want, got))
    if found or "alone" in case:  # asked one by one, as the test asks them
        return found
    return ["the query of expressions fails where each expression alone agrees"]


def pipeline_differences(case: dict, pipeline: pipelines.Pipeline) -> List[str]:
    """What differs in one recorded DataStream pipeline (empty: it agrees)."""
    got = pipelines.run_on_pystream(pipeline)
    if pipelines.same(case, got, pipeline.ordered):
        return []
    print("%s\n  PyFlink:  %s\n  pystream: %s\n" % (pipeline.function(), case, got))
    body = " ".join(pipeline.body)
    batch = pipeline.mode == "BATCH"
    if "error" in got and "error" not in case:
        return ["pystream fails: %s" % got["error"]]
    if batch and "partition_custom" in body and case.get("error") == "ValueError":
        return [PYFLINK_BATCH_PARTITIONER]
    if "error" in case:
        return ["PyFlink fails (%s), pystream %s" % (
            case["error"], "fails (%s)" % got["error"] if "error" in got else "prints lines")]
    if sorted(case["lines"]) == sorted(got["lines"]):
        return ["the same lines as PyFlink in another order"]
    if batch and "FireLater" in body and set(case["lines"]) == set(got["lines"]):
        return [PYFLINK_BATCH_TIMERS]
    if batch and "window" in body and len(case["lines"]) < len(got["lines"]):
        return [PYFLINK_BATCH_WINDOWS]
    return ["other lines than PyFlink"]


# what PyFlink 2.3 does wrong, checked by hand on the pipelines that show it (docs/datastream.md)
PYFLINK_BATCH_TIMERS = (
    "deviation: PyFlink 2.3 in BATCH mode fires an event-time timer once per registration (a "
    "key that registers the same time twice gets two on_timer calls); Flink's docs and its "
    "STREAMING mode deduplicate timers per key and timestamp, as pystream does in both modes")
PYFLINK_BATCH_WINDOWS = (
    "deviation: PyFlink 2.3 in BATCH mode loses records of Python window functions over event "
    "time (windows missing or with fewer elements, or nothing printed), where pystream gives "
    "every window, as its STREAMING mode does (checked by hand on p0030, p0218)")
PYFLINK_BATCH_PARTITIONER = (
    "deviation: PyFlink 2.3 in BATCH mode calls a custom partitioner with -1 partitions "
    "(ValueError: The partition number should be a positive value); pystream partitions")


def write_known(known: Dict[str, str], asked: set) -> None:
    """``known.json`` with the differences found among the ``asked`` cases: the other cases'
    entries stay, and so do the deliberate deviations (written by hand, "deviation: <why
    PyFlink is wrong>") of cases that still differ. Shards run at once write in turn."""
    with open(KNOWN_FILE.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        before = json.loads(KNOWN_FILE.read_text()) if KNOWN_FILE.exists() else {}
        kept = {k: v for k, v in before.items()
                if k not in asked or (k in known and v.startswith("deviation:"))}
        KNOWN_FILE.write_text(json.dumps({**known, **kept}, indent=1, sort_keys=True,
                                         ensure_ascii=False) + "\n")


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--write-known", action="store_true")
    parser.add_argument("--quick", action="store_true",
                        help="categorise whole queries only (a query of expressions that "
                             "fails on pystream: by its error)")
    parser.add_argument("--pipelines", action="store_true",
                        help="the generated DataStream pipelines instead of the SQL corpus")
    parser.add_argument("--shard", default="0/1",
                        help="K/N: only every N-th recorded case from the K-th (run N at once)")
    parser.add_argument("ids", nargs="*")
    args = parser.parse_args(argv)
    shard, shards = (int(part) for part in args.shard.split("/"))
    os.environ.setdefault("PYSTREAM_SERVER", "off")
    from pystream import session
    from pystream.table import EnvironmentSettings, TableEnvironment

    session.configure(master="local[2]", conf={
        "spark.ui.enabled": "false", "spark.sql.shuffle.partitions": "2", **INTERPRETED_SPARK})
    known: Dict[str, str] = {}
    if args.pipelines:
        recorded = ROOT / pipelines.EXPECTED_FILE
        made = {p.id: p for p in pipelines.pipelines()}
        check = pipeline_differences
    else:
        recorded = ROOT / EXPECTED_FILE
        made = {q.id: q for q in corpus()}
        envs = environments(TableEnvironment, EnvironmentSettings, tempfile.mkdtemp())

        def check(case, query):
            return differences(envs[query.streaming], case, query, args.quick)
    asked = set()
    for n, line in enumerate(recorded.read_text().splitlines()):
        case = json.loads(line)
        if (args.ids and case["id"] not in args.ids) or n % shards != shard:
            continue
        asked.add(case["id"])
        found = check(case, made[case["id"]])
        if found:
            known[case["id"]] = "; ".join(sorted(set(found)))
            print("%s: %s" % (case["id"], known[case["id"]]), flush=True)
    if args.write_known:
        write_known(known, asked)
    counts: Dict[str, int] = {}
    for reason in known.values():
        for part in reason.split("; "):
            counts[part] = counts.get(part, 0) + 1
    for reason, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        print("%4d  %s" % (n, reason))


if __name__ == "__main__":
    main()
