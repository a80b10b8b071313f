"""pystream-shell figures, next to PySpark's own shell measured in the same run.

    python -m bench.shell_bench [--runs 3] [--master local[2]]

Prints: time to the first prompt (pystream-shell, and the ``pyspark`` shell, which starts its
session before its prompt), time until the session is ready and warmed up, and
``%preview -n 10`` of an unbounded source (the teaching example: a generator at 20 rows/s)
next to the same preview written by hand in PySpark (rate source -> memory sink, polled),
and ``%sql`` over an endless datagen table (the first 10 rows of a SELECT, the first changes
of a GROUP BY; typed line to next prompt).
Targets: prompt <= 1 s; a preview of 10 rows (and the first %sql rows) <= 3 s once the
session is up.
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time

import pexpect

from tests.shell.driver import Shell

GENERATOR = ("ds = env.from_source(DataGeneratorSource(lambda i: (i % 3, i), rows_per_second=20),"
             " WatermarkStrategy.no_watermarks(), 'gen', Types.TUPLE([Types.LONG(), "
             "Types.LONG()]))")
FOOTER = re.compile(r"stopped: 10 rows reached · (\d+\.\d+) s")
KEYED = "ds.key_by(lambda t: t[0]).reduce(lambda a, b: (a[0], a[1] + b[1]))"
CLICKS = ("%sql CREATE TEMPORARY TABLE clicks (user_id INT) WITH ('connector' = 'datagen', "
          "'rows-per-second' = '20', 'fields.user_id.min' = '1', 'fields.user_id.max' = '3')")
SQL_QUERIES = (("sql select", "%sql -n 10 SELECT user_id FROM clicks"),
               ("sql changelog", "%sql -n 4 SELECT user_id, COUNT(*) FROM clicks "
                                 "GROUP BY user_id"))

# the same preview by hand in PySpark: a rate source into a memory sink, polled for 10 rows
PYSPARK_PREVIEW = """
import time
t = time.time()
q = (spark.readStream.format("rate").option("rowsPerSecond", 20).option("numPartitions", 2)
     .load().selectExpr("value % 3 AS f0", "value AS f1")
     .writeStream.format("memory").queryName("bench%d").start())
while spark.table("bench%d").count() < 10: time.sleep(0.1)

rows = spark.table("bench%d").limit(10).collect(); q.stop()
print("PREVIEW %.3f" % (time.time() - t))
"""


def conf_args(master: str) -> list:
    return ["--master", master, "--conf", "spark.ui.enabled=false"]


def shell_figures(master: str, work: str, previews: int) -> dict:
    """One pystream-shell session: prompt, ready, warm, and a few previews."""
    shell = Shell(*conf_args(master), ipython_dir=work)
    try:
        figures = {"prompt": shell.wait_for_prompt()}
        shell.wait_for("is ready")
        figures["ready"] = time.monotonic() - shell.started
        shell.run("import pyshell.background; pyshell.background.starter().warm.wait()")
        figures["warm"] = time.monotonic() - shell.started
        shell.run(GENERATOR)
        for name, stream in (("preview", "ds"), ("keyed", KEYED)):
            figures[name], figures[name + " wall"] = [], []
            for _ in range(previews):
                started = time.monotonic()
                out = shell.run("%%preview %s -n 10 --timeout 60" % stream)
                figures[name + " wall"].append(time.monotonic() - started)
                footer = FOOTER.search(out)
                if not footer:
                    raise RuntimeError("unexpected preview output:\n" + out)
                figures[name].append(float(footer.group(1)))
        shell.run(CLICKS)
        for name, line in SQL_QUERIES:
            figures[name] = []
            for _ in range(previews):
                started = time.monotonic()
                out = shell.run(line)
                if "rows in set" not in out:
                    raise RuntimeError("unexpected %%sql output:\n" + out)
                figures[name].append(time.monotonic() - started)
        shell.exit()
        return figures
    finally:
        shell.kill()


def prompt_only(master: str, work: str) -> float:
    shell = Shell(*conf_args(master), ipython_dir=work)
    try:
        seconds = shell.wait_for_prompt()
        shell.exit()
        return seconds
    finally:
        shell.kill()


def pyspark_figures(master: str, work: str) -> dict:
    """PySpark's shell: time to its prompt, then the hand-written preview (twice)."""
    pyspark = os.path.join(os.path.dirname(sys.executable), "pyspark")
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable)
    started = time.monotonic()
    child = pexpect.spawn(pyspark, conf_args(master), env=env, cwd=work, encoding="utf-8",
                          timeout=300)
    try:
        child.expect(">>> ")
        figures = {"prompt": time.monotonic() - started, "preview": []}
        for i in range(2):
            child.send(PYSPARK_PREVIEW.replace("%d", str(i)).strip() + "\n\n")
            child.expect(r"PREVIEW (\d+\.\d+)")
            figures["preview"].append(float(child.match.group(1)))
        child.sendline("exit()")
        child.expect(pexpect.EOF)
        return figures
    finally:
        if child.isalive():
            child.terminate(force=True)


def seconds(values) -> str:
    if isinstance(values, list):
        return ", ".join("%.2f" % v for v in values) + " s"
    return "%.2f s" % values


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="prompt-time samples (3)")
    parser.add_argument("--previews", type=int, default=3, help="previews of each kind (3)")
    parser.add_argument("--master", default="local[2]")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as work:
        prompts = [prompt_only(args.master, work) for _ in range(args.runs - 1)]
        shell = shell_figures(args.master, work, args.previews)
        prompts.append(shell["prompt"])
        spark = pyspark_figures(args.master, work)
    load = os.getloadavg()[0]
    rows = [
        ("time to first prompt (median of %d)" % len(prompts),
         seconds(statistics.median(prompts)), seconds(spark["prompt"])),
        ("session ready (from start)", seconds(shell["ready"]), "-"),
        ("warm-up done (from start)", seconds(shell["warm"]), "-"),
        ("preview 10 rows, unbounded generator", seconds(shell["preview"]),
         seconds(spark["preview"]) + " (rate -> memory sink by hand)"),
        ("  same, typed line to next prompt", seconds(shell["preview wall"]), "-"),
        ("preview 10 rows, keyed rolling reduce", seconds(shell["keyed"]), "-"),
        ("  same, typed line to next prompt", seconds(shell["keyed wall"]), "-"),
        ("%sql -n 10 SELECT, endless datagen", seconds(shell["sql select"]), "-"),
        ("%sql -n 4 GROUP BY changelog", seconds(shell["sql changelog"]), "-"),
    ]
    print("pystream-shell benchmark · master %s · %d cores · load average %.1f"
          % (args.master, os.cpu_count() or 0, load))
    width = max(len(r[0]) for r in rows)
    print("%s  %-26s %s" % ("".ljust(width), "pystream-shell", "pyspark shell"))
    for name, ours, theirs in rows:
        print("%s  %-26s %s" % (name.ljust(width), ours, theirs))
    print("targets: prompt <= 1 s; preview of 10 rows <= 3 s once the session is up")


if __name__ == "__main__":
    main()
