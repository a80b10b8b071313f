"""Record PyFlink 2.3's answers to the generated SQL corpus (``tests/generated/generator.py``)
into ``tests/generated/expected.jsonl``: every query in one PyFlink process (one JVM), BATCH
mode, parallelism 1. A query of expressions that fails is asked again one expression at a
time, so that one failing expression does not hide the answers of the others.

    PATH=/tmp/flinkvenv/bin:$PATH python tests/oracle/record_generated.py [--seed 1]
    PATH=/tmp/flinkvenv/bin:$PATH python tests/oracle/record_generated.py --pipelines

With ``--pipelines``, the generated DataStream pipelines (``tests/generated/pipelines.py``)
instead, into ``tests/generated/expected_pipelines.jsonl``: fifty to a program, each program
a fresh PyFlink process run as a user runs a job script; a job that has not ended after 45
seconds is recorded as hanging on PyFlink ({"error": "Hangs"}) and the program's process
ends, the next one going on after it. Each line: {"id", "mode",
"parallelism", "body", "ordered", "lines"} or with "error" (the exception's name) for "lines".

A run keeps the answers already recorded for the same SQL and records the rest. Each line:
{"id", "sql", "rows"} or {"id", "sql", "error"} or, for a failed query of
expressions, {"id", "sql", "alone": [{"rows"} or {"error"}, ...]}. A STREAMING query's rows
are its changelog, each row led by its kind (+I, -U, +U, -D).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.generated import pipelines as generated  # noqa: E402 - the checkout's tests
from tests.generated.generator import (  # noqa: E402 - the checkout's tests, on PyFlink's Python
    EXPECTED_FILE,
    answer,
    corpus,
    environments,
)

PER_PROGRAM = 50
PER_PROCESS = 150


def recorded_as(pipeline: generated.Pipeline, line: dict) -> bool:
    """Whether a recorded line is of this very pipeline."""
    return (tuple(line["body"]), line["mode"], line["parallelism"]) == (
        pipeline.body, pipeline.mode, pipeline.parallelism)


def record_pipelines(seed: int) -> None:
    """Each chunk of pipelines as one program, in a fresh PyFlink process."""
    started = time.monotonic()
    path = ROOT / generated.EXPECTED_FILE
    todo = {p.id: p for p in generated.pipelines(seed)}
    kept = [line for line in (path.read_text().splitlines() if path.exists() else [])
            if json.loads(line)["id"] in todo and recorded_as(todo[json.loads(line)["id"]],
                                                            json.loads(line))]
    for line in kept:
        del todo[json.loads(line)["id"]]
    path.write_text("".join(line + "\n" for line in kept))
    remaining = list(todo.values())
    env = dict(os.environ, TZ="UTC", PIPELINE_TIMEOUT="45")
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    while remaining:
        chunk = remaining[:PER_PROGRAM]
        with tempfile.TemporaryDirectory() as directory:
            script = Path(directory) / "pipelines.py"
            script.write_text(generated.program(chunk))
            done = subprocess.run([sys.executable, str(script)], capture_output=True,
                                  text=True, env=env, cwd=directory, timeout=3600)
        ended = set(generated.finished(done.stdout))
        results = generated.parse(done.stdout, [p.id for p in chunk])
        hung = [p for p in chunk if results[p.id].get("error") == "Hangs"]
        if done.returncode not in (0, 3) or (done.returncode and not hung):
            sys.exit("the program of %s.. failed:\n%s" % (chunk[0].id, done.stderr[-3000:]))
        recorded = [p for p in chunk if p.id in ended or p in hung]
        with open(path, "a") as out:
            for p in recorded:
                out.write(json.dumps({"id": p.id, "mode": p.mode, "parallelism": p.parallelism,
                                      "body": p.body, "ordered": p.ordered, **results[p.id]},
                                     ensure_ascii=False) + "\n")
        remaining = [p for p in remaining if p not in recorded]
        print("recorded %d pipelines%s, %d to go (%.0f s)" % (
            len(recorded), " (%s hangs on PyFlink)" % hung[0].id if hung else "",
            len(remaining), time.monotonic() - started), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pipelines", action="store_true",
                        help="record the DataStream pipelines instead of the SQL corpus")
    parser.add_argument("--limit", type=int, default=0,
                        help="record at most this many queries in this process")
    args = parser.parse_args()
    if args.pipelines:
        return record_pipelines(args.seed)
    if not args.limit:
        # PyFlink's JVM grows with every job it ran (12 GB after ~500 queries, then it
        # spends its time collecting garbage): a fresh process for every 150 queries
        while subprocess.run([sys.executable, __file__, "--seed", str(args.seed),
                              "--limit", str(PER_PROCESS)]).returncode == 3:
            pass
        return None
    from pyflink.table import EnvironmentSettings, TableEnvironment

    made = environments(TableEnvironment, EnvironmentSettings, tempfile.mkdtemp())
    started = time.monotonic()
    path = ROOT / EXPECTED_FILE
    queries = {q.id: q for q in corpus(args.seed)}
    kept = [line for line in (path.read_text().splitlines() if path.exists() else [])
            if json.loads(line)["id"] in queries
            and json.loads(line)["sql"] == queries[json.loads(line)["id"]].sql]
    done = {json.loads(line)["id"] for line in kept}
    path.write_text("".join(line + "\n" for line in kept))
    todo = [q for q in queries.values() if q.id not in done]
    with open(path, "a") as out:  # what is recorded already is kept: a run resumes
        for query in todo[:args.limit]:
            t_env = made[query.streaming]
            result = {"id": query.id, "sql": query.sql,
                      **answer(t_env, query.sql, changelog=query.streaming)}
            if "error" in result and query.expressions:
                del result["error"]
                result["alone"] = [answer(t_env, query.alone(n))
                                   for n in range(len(query.expressions))]
            out.write(json.dumps(result, ensure_ascii=False) + "\n")
            out.flush()
    print("recorded %d queries in %.0f s, %d to go" % (
        min(len(todo), args.limit), time.monotonic() - started, max(0, len(todo) - args.limit)),
        flush=True)
    if len(todo) > args.limit:
        sys.exit(3)  # more to record, in a fresh process


if __name__ == "__main__":
    main()
