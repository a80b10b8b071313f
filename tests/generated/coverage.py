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
from typing import Dict, List

from tests.generated.generator import EXPECTED_FILE, function_queries, reference_functions

ROOT = Path(__file__).resolve().parents[2]
KNOWN_FILE = ROOT / "tests" / "generated" / "known.json"
DOC = ROOT / "docs" / "functions.md"

HEADER = """\
# Built-in functions: Flink's reference, probed on PyFlink 2.3 and pystream

Every scalar function and operator of Flink's function reference
(`docs/data/sql_functions.yml` of apache/flink) with two to four probe expressions over a table
of every common type with NULLs and edge values (`tests/generated/functions.json`). Each
entry's probes were answered by real PyFlink 2.3 (`tests/oracle/record_generated.py`) and are
asked of pystream by the suite (`tests/generated/test_generated.py`; all of them with
`PYSTREAM_GENERATED=all`). This page is written by `python -m tests.generated.coverage`.

Status: **as PyFlink** (every probe gives PyFlink 2.3's values, or fails where it fails);
**not in PyFlink 2.3** (PyFlink refuses every probe: a function of a later Flink; pystream
refuses it too unless it says otherwise); **differs** (what differs, from the triage); **not
probed** (why: aggregate functions are probed by the generated aggregate queries; functions
of the current time or randomness have no fixed answer).

"""


def status(entry: dict, case: dict, known: Dict[str, str]) -> str:
    if not entry["probes"]:
        return "not probed: %s" % entry.get("skip", "")
    if case is None:
        return "not recorded yet"
    if case["id"] in known:
        return "differs: %s" % known[case["id"]]
    answers: List[dict] = case.get("alone") or [case]
    if all("error" in a for a in answers):
        return "not in PyFlink 2.3 (%s)" % answers[0]["error"][:80].replace("|", "/")
    return "as PyFlink"


def main() -> None:
    recorded = {}
    for line in (ROOT / EXPECTED_FILE).read_text().splitlines():
        case = json.loads(line)
        recorded[case["id"]] = case
    known = json.loads(KNOWN_FILE.read_text()) if KNOWN_FILE.exists() else {}
    ids = iter(q.id for q in function_queries())
    rows, counts = [], Counter()
    for entry in reference_functions():
        case = recorded.get(next(ids)) if entry["probes"] else None
        said = status(entry, case, known)
        counts[said.split(":")[0].split(" (")[0]] += 1
        rows.append("| %s | `%s` | %s |" % (entry["category"], entry["syntax"].replace(
            "\n", " ").replace("|", "\\|")[:70], said.replace("|", "/")))
    summary = ", ".join("%s: %d" % kv for kv in counts.most_common())
    DOC.write_text(HEADER + "%d entries (%s).\n\n| category | function | status |\n|---|---|---|\n"
                   % (len(rows), summary) + "\n".join(rows) + "\n")
    print("wrote %s: %s" % (DOC.relative_to(ROOT), summary))


if __name__ == "__main__":
    main()
