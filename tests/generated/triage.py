"""Which generated queries pystream answers differently from PyFlink, and why: for a query
of expressions, each differing expression asked alone beside PyFlink's column; each
difference put in a category. ``--write-known`` writes the categories of every differing
query to ``known.json`` (the strict xfails of test_generated.py).

    python -m tests.generated.triage [--write-known] [ID ...]
"""
from __future__ import annotations

import argparse
import json
import os
import re
from pathlib import Path
from typing import Dict, List, Optional

from tests.generated.generator import EXPECTED_FILE, answer, corpus, table_sql

ROOT = Path(__file__).resolve().parents[2]
KNOWN_FILE = ROOT / "tests" / "generated" / "known.json"

# (pattern of pystream's error or of the expression, the category)
CATEGORIES = [
    (r"ARITHMETIC_OVERFLOW|CAST_OVERFLOW", "integer overflow and out-of-range casts fail "
     "(Spark's ANSI mode) where Flink wraps as Java does"),
    (r"NUMERIC_VALUE_OUT_OF_RANGE", "a DECIMAL result wider than pystream's result type fails "
     "(Flink's ROUND/arithmetic result types are wider)"),
    (r"DIVIDE_BY_ZERO", "division by zero"),
]


def category(want: dict, got: dict, expression: str = "") -> str:
    """Why ``got`` (pystream) is not ``want`` (PyFlink), in words."""
    if "error" in got:
        for pattern, name in CATEGORIES:
            if re.search(pattern, got["error"]):
                return name
        return "pystream fails: %s" % re.sub(r"\s+", " ", got["error"])[:90]
    if "error" in want:
        return "PyFlink fails, pystream answers"
    if "decimal" in json.dumps(want) and re.sub(r"\.0+'", "'", json.dumps(got)) == \
            re.sub(r"\.0+'", "'", json.dumps(want)):
        return "a DECIMAL result's scale differs from Flink's"
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
        got = answer(t_env, query.sql)
        if got.get("rows") == case.get("rows") or ("error" in case and "error" in got):
            return []
        return [category(case, got) if not query.expressions or "error" in got
                else "other values than PyFlink in some of its expressions"]
    if "alone" not in case:
        got = answer(t_env, query.sql)
        if got.get("rows") == case.get("rows") or ("error" in case and "error" in got):
            return []
        if not query.expressions or "error" in case:
            return [category(case, got)]
    found = []
    for n, expression in enumerate(query.expressions):
        want = case["alone"][n] if "alone" in case else {
            "rows": [[row[n]] for row in case["rows"]]}
        got = answer(t_env, query.alone(n))
        if got.get("rows") != want.get("rows") and not ("error" in want and "error" in got):
            found.append(category(want, got, expression))
            print("%s e%d: %s\n  PyFlink:  %s\n  pystream: %s\n" % (
                case["id"], n, expression, want, got))
    return found or ["the query of expressions fails where each expression alone agrees"]


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--write-known", action="store_true")
    parser.add_argument("--quick", action="store_true",
                        help="categorise whole queries only (a query of expressions that "
                             "fails on pystream: by its error)")
    parser.add_argument("ids", nargs="*")
    args = parser.parse_args(argv)
    os.environ.setdefault("PYSTREAM_SERVER", "off")
    from pystream import session
    from pystream.table import EnvironmentSettings, TableEnvironment

    session.configure(master="local[2]", conf={"spark.ui.enabled": "false",
                                                "spark.sql.shuffle.partitions": "2"})
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t_env.get_config().set("parallelism.default", "1")
    t_env.execute_sql(table_sql())
    queries = {q.id: q for q in corpus()}
    known: Dict[str, str] = {}
    for line in (ROOT / EXPECTED_FILE).read_text().splitlines():
        case = json.loads(line)
        if args.ids and case["id"] not in args.ids:
            continue
        found = differences(t_env, case, queries[case["id"]], args.quick)
        if found:
            known[case["id"]] = "; ".join(sorted(set(found)))
            print("%s: %s" % (case["id"], known[case["id"]]))
    if args.write_known:
        KNOWN_FILE.write_text(json.dumps(known, indent=1, sort_keys=True) + "\n")
    counts: Dict[str, int] = {}
    for reason in known.values():
        for part in reason.split("; "):
            counts[part] = counts.get(part, 0) + 1
    for reason, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        print("%4d  %s" % (n, reason))


if __name__ == "__main__":
    main()
