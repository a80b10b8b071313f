"""What a printed changelog leaves: the rows to compare between engines.

Lines ``+I[...]``/``+U[...]`` add a row, ``-U[...]``/``-D[...]`` take one away; other lines
(files a filesystem sink wrote) count as rows. With ``key_fields``, an upsert stream (``+U``
without ``-U``): a row replaces the last one of its key (the leading fields).
"""
from __future__ import annotations

import re
from collections import Counter

CHANGE = re.compile(r"^(\+I|-U|\+U|-D)\[(.*)\]$")


def result_rows(printed: str, key_fields: int = 0) -> Counter:
    rows: Counter = Counter()
    by_key: dict = {}
    for line in printed.splitlines():
        change = CHANGE.match(line)
        if change is None:
            rows[line] += 1
            continue
        kind, row = change.groups()
        if key_fields:
            key = tuple(row.split(", ")[:key_fields])
            if kind in ("+I", "+U"):
                by_key[key] = row
            else:
                by_key.pop(key, None)
        else:
            rows[row] += 1 if kind in ("+I", "+U") else -1
    rows.update(by_key.values())
    return +rows
