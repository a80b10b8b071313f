"""Small helpers for tests: list in, list out."""
from __future__ import annotations


def collect(ds) -> list:
    """All elements of ``ds`` (runs the job)."""
    with ds.execute_and_collect() as results:
        return list(results)


def collect_sorted(ds, key=repr) -> list:
    return sorted(collect(ds), key=key)
