"""Record PyFlink 2.3's answers to the generated SQL corpus (``tests/generated/generator.py``)
into ``tests/generated/expected.jsonl``: every query in one PyFlink process (one JVM), BATCH
mode, parallelism 1. A query of expressions that fails is asked again one expression at a
time, so that one failing expression does not hide the answers of the others.

    PATH=/tmp/flinkvenv/bin:$PATH python tests/oracle/record_generated.py [--seed 1]

A run keeps the answers already recorded for the same SQL and records the rest. Each line:
{"id", "sql", "rows"} or {"id", "sql", "error"} or, for a failed query of
expressions, {"id", "sql", "alone": [{"rows"} or {"error"}, ...]}.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.generated.generator import (  # noqa: E402 - the checkout's tests, on PyFlink's Python
    EXPECTED_FILE,
    answer,
    corpus,
    table_sql,
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    from pyflink.table import EnvironmentSettings, TableEnvironment

    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t_env.get_config().set("parallelism.default", "1")
    t_env.execute_sql(table_sql())
    started = time.monotonic()
    path = ROOT / EXPECTED_FILE
    queries = {q.id: q for q in corpus(args.seed)}
    kept = [line for line in (path.read_text().splitlines() if path.exists() else [])
            if json.loads(line)["id"] in queries
            and json.loads(line)["sql"] == queries[json.loads(line)["id"]].sql]
    done = {json.loads(line)["id"] for line in kept}
    path.write_text("".join(line + "\n" for line in kept))
    with open(path, "a") as out:  # what is recorded already is kept: a run resumes
        for query in queries.values():
            if query.id in done:
                continue
            result = {"id": query.id, "sql": query.sql, **answer(t_env, query.sql)}
            if "error" in result and query.expressions:
                del result["error"]
                result["alone"] = [answer(t_env, query.alone(n))
                                   for n in range(len(query.expressions))]
            out.write(json.dumps(result, ensure_ascii=False) + "\n")
            out.flush()
    print("recorded %s in %.0f s" % (EXPECTED_FILE, time.monotonic() - started))


if __name__ == "__main__":
    main()
