"""The real shell in a pseudo-terminal: banner, the prompt before Spark (a magic waits for
it, saying so), a preview of an unbounded stream, a progress bar under a slow bounded one,
Ctrl-C on a watch, nothing left running, and no JVM left after exit (user errors:
test_magics.py)."""
import os
import re
import time

from tests.shell.driver import Shell

GENERATOR = ("ds = env.from_source(DataGeneratorSource(lambda i: (i % 3, i), rows_per_second=20),"
             " WatermarkStrategy.no_watermarks(), 'gen', Types.TUPLE([Types.LONG(), "
             "Types.LONG()]))")
ROW = re.compile(r"^[|│]\s*(\d+) [|│]\s*(\d+) [|│]$")  # a terminal gets box lines


def alive(pids) -> list:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and any(os.path.exists("/proc/%d" % p) for p in pids):
        time.sleep(0.5)
    return [p for p in pids if os.path.exists("/proc/%d" % p)]


def test_shell_session(tmp_path):
    shell = Shell("--master", "local[2]", "--conf", "spark.ui.enabled=false",
                  ipython_dir=str(tmp_path))
    try:
        shell.wait_for_prompt()
        first = shell.run("%conf spark.sql.shuffle.partitions")  # right away: Spark is starting
        shell.run("env.set_parallelism(1);")
        shell.run(GENERATOR)
        preview = shell.run("%preview ds -n 5 --timeout 120")
        rows = [tuple(map(int, m.groups())) for m in map(ROW.match, preview.splitlines()) if m]
        slow = shell.run("%preview env.from_collection([1, 2, 3]).map(lambda x: "
                         "__import__('time').sleep(1.5) or x)")
        jvms = shell.java_processes()
        watch = shell.interrupt_when("%watch ds -n 3", r"[1-9]\d* rows · ")
        jobs = shell.run("%jobs")
        queries = shell.run("len(spark.streams.active)")
        status = shell.exit()
    finally:
        shell.kill()
    facts = ("pystream-shell" in shell.banner and "%preview" in shell.banner,
             [re.sub(r"\d+m \d+s|[\d.]+ s", "T", line) for line in first.splitlines()[1:]
              if line.strip()], rows,
             bool(re.search(r"preview .*\d/\d tasks", slow)) and "3 rows shown" in slow,
             "stopped: interrupted (Ctrl-C)" in watch, "No running jobs." in jobs,
             re.search(r"Out\[\d+\]: 0$", queries.strip()) is not None, status, len(jvms) > 0,
             alive(jvms))
    assert facts == (True, ["waiting for Spark… (starting for T)",
                            "Spark 4.3.0 is ready (local[2], T) · Web UI: off",
                            "spark.sql.shuffle.partitions=2"],
                     [(0, 0), (1, 1), (2, 2), (0, 3), (1, 4)], True, True, True, True, 0, True,
                     [])
