"""The table of Flink's built-in scalar functions and their status on pystream, written to
``docs/functions.md`` from what PyFlink 2.3 answered to each function's probes
(``expected.jsonl``) and what pystream answers differently (``known.json``, written by
``python -m tests.generated.triage --write-known``).

    python -m tests.generated.coverage
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Dict, List, Optional

from tests.generated.generator import EXPECTED_FILE, function_queries, reference_functions

ROOT = Path(__file__).resolve().parents[2]
KNOWN_FILE = ROOT / "tests" / "generated" / "known.json"
DOC = ROOT / "docs" / "functions.md"

HEADER = """\
# Built-in functions: Flink's reference, probed on PyFlink 2.3 and pystream

Every function and operator of Flink's function reference (`docs/data/sql_functions.yml` of
apache/flink) with one to four probe expressions over a table of every common type with NULLs
and edge values (`tests/generated/functions.json`): scalar and OVER window functions row by
row, aggregate functions per group in BATCH mode and as a STREAMING changelog, the grouping
functions per grouping set. Each
entry's probes were answered by real PyFlink 2.3 (`tests/oracle/record_generated.py`) and are
asked of pystream by the suite (`tests/generated/test_generated.py`; all of them with
`PYSTREAM_GENERATED=all`). This page is written by `python -m tests.generated.coverage`.

Status: **as PyFlink** (every probe gives PyFlink 2.3's values, or fails where it fails);
**not in PyFlink 2.3** (PyFlink refuses every probe: a function of a later Flink; pystream
refuses it too unless it says otherwise); **differs** (what differs, from the triage); **not
probed** (why: functions of the current time or randomness have no fixed answer).

"""


def status(entry: dict, cases: List[Optional[dict]], known: Dict[str, str]) -> str:
    """An entry's status from its queries' recordings (BATCH, and STREAMING if it has one)."""
    if not entry["probes"]:
        return "not probed: %s" % entry.get("skip", "")
    if not cases or None in cases:
        return "not recorded yet"
    differing = list(dict.fromkeys(known[c["id"]] for c in cases if c["id"] in known))
    if differing:
        return "differs: %s" % "; ".join(differing)
    answers: List[dict] = [a for c in cases for a in (c.get("alone") or [c])]
    if all("error" in a for a in answers):
        return "not in PyFlink 2.3 (%s)" % answers[0]["error"][:80].replace("|", "/")
    return "as PyFlink"


def main() -> None:
    recorded = {}
    for line in (ROOT / EXPECTED_FILE).read_text().splitlines():
        case = json.loads(line)
        recorded[case["id"]] = case
    known = json.loads(KNOWN_FILE.read_text()) if KNOWN_FILE.exists() else {}
    queries = [q.id for q in function_queries()]
    rows, counts = [], Counter()
    for n, entry in enumerate(reference_functions()):
        ids = [i for i in queries if i.split("-")[1] == "%03d" % n]
        said = status(entry, [recorded.get(i) for i in ids], known)
        counts[said.split(":")[0].split(" (")[0]] += 1
        rows.append("| %s | `%s` | %s |" % (entry["category"], entry["syntax"].replace(
            "\n", " ").replace("|", "\\|")[:70], said.replace("|", "/")))
    summary = ", ".join("%s: %d" % kv for kv in counts.most_common())
    DOC.write_text(HEADER + "%d entries (%s).\n\n| category | function | status |\n|---|---|---|\n"
                   % (len(rows), summary) + "\n".join(rows) + "\n")
    print("wrote %s: %s" % (DOC.relative_to(ROOT), summary))


if __name__ == "__main__":
    main()
