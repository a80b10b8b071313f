"""Small helpers for tests: list in, list out."""
from __future__ import annotations

# Tests run thousands of queries over a few rows: Spark's interpreted operators answer those
# sooner than generated code compiles (the suite's session and the generated corpus's triage;
# programs the tests start keep Spark's defaults, so both paths stay covered).
INTERPRETED_SPARK = {"spark.sql.codegen.wholeStage": "false",
                     "spark.sql.codegen.factoryMode": "NO_CODEGEN"}


def collect(ds) -> list:
    """All elements of ``ds`` (runs the job)."""
    with ds.execute_and_collect() as results:
        return list(results)


def collect_sorted(ds, key=repr) -> list:
    return sorted(collect(ds), key=key)
