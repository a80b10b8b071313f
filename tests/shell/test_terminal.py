"""The real shell in a pseudo-terminal, one session for streams, then tables and SQL (one JVM).

Streams: banner, the prompt before Spark (a magic waits for it, saying so), a preview of an
unbounded stream, a progress bar under a slow bounded one, Ctrl-C on a watch, nothing left
running, a live %chart stopped by Ctrl-C (axes, its y field and series drawn), and no JVM
left after exit (user errors: test_magics.py).

Tables and SQL: a table name completed by Tab, a %sql line coloured as SQL, %sql over an
unbounded datagen table in each mode (changelog, tableau with -o, a live table view stopped by
Ctrl-C), a SQL error with its caret, %watch of an updating Table and of a rolling sum in table
mode, and nothing left running.
"""
import os
import re
import time

from tests.shell.driver import Shell, plain

GENERATOR = ("ds = env.from_source(DataGeneratorSource(lambda i: (i % 3, i), rows_per_second=20),"
             " WatermarkStrategy.no_watermarks(), 'gen', Types.TUPLE([Types.LONG(), "
             "Types.LONG()]))")
ROW = re.compile(r"^[|│]\s*(\d+) [|│]\s*(\d+) [|│]$")  # a terminal gets box lines
TICKS = ("%sql CREATE TABLE ticks (n INT) WITH ('connector' = 'datagen', 'rows-per-second' = "
         "'20', 'fields.n.min' = '1', 'fields.n.max' = '3')")
COUNTS = "SELECT n, COUNT(*) AS c FROM ticks GROUP BY n"
COLOURED = r"(?:\x1b\[[0-9;?]*[a-zA-Z])*"  # prompt_toolkit colours what it completes


def alive(pids) -> list:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and any(os.path.exists("/proc/%d" % p) for p in pids):
        time.sleep(0.5)
    return [p for p in pids if os.path.exists("/proc/%d" % p)]


def streams(shell: Shell) -> tuple:
    """What the streams part shows, and the shell's JVMs."""
    first = shell.run("%conf spark.sql.shuffle.partitions")  # right away: Spark is starting
    shell.run("env.set_parallelism(1);")
    shell.run(GENERATOR)
    preview = shell.run("%preview ds -n 5 --timeout 120")
    rows = [tuple(map(int, m.groups())) for m in map(ROW.match, preview.splitlines()) if m]
    slow = shell.run("%preview env.from_collection([1, 2, 3]).map(lambda x: "
                     "__import__('time').sleep(1.5) or x)")
    jvms = shell.java_processes()
    watch = shell.interrupt_when("%watch ds -n 3", r"[1-9]\d* rows · ")
    chart = plain(shell.interrupt_when("%chart ds --by f0", r"[1-9]\d* rows · .*Ctrl-C stops"))
    jobs = shell.run("%jobs")
    queries = shell.run("len(spark.streams.active)")
    facts = ("pystream-shell" in shell.banner and "%preview" in shell.banner,
             [re.sub(r"\d+m \d+s|[\d.]+ s", "T", line) for line in first.splitlines()[1:]
              if line.strip()], rows,
             bool(re.search(r"preview .*\d/\d tasks", slow)) and "3 rows shown" in slow,
             "stopped: interrupted (Ctrl-C)" in watch,
             ("┤" in chart, "f1" in chart, "row" in chart, "stopped: interrupted (Ctrl-C)" in
              chart), "No running jobs." in jobs,
             re.search(r"Out\[\d+\]: 0$", queries.strip()) is not None, len(jvms) > 0)
    return facts, jvms


def tables(shell: Shell) -> tuple:
    """What the tables and SQL part shows (the generator ``ds`` is defined already)."""
    created = shell.run(TICKS)
    shell.child.send("t_env.from_path('tic\t")
    completed = shell.wait_for("tic" + COLOURED + "ks")
    shell.child.send("\x15")  # Ctrl-U: the line is dropped
    shell.child.send("%sql SELECT n FROM ticks")  # pygments' SQL lexer: keywords bold
    highlighted = shell.wait_for(r"\x1b\[[0-9;]*1mFROM") is not None
    shell.child.send("\x15")
    changelog = shell.run("%sql --mode changelog -n 6 " + COUNTS)
    tableau = shell.run("%sql -n 3 -o firsts SELECT n FROM ticks")
    stored = shell.run("type(firsts).__name__, len(firsts)")
    view = shell.interrupt_when("%sql --mode table --timeout 300 " + COUNTS,
                                r"[1-9] rows · \d+ changes")
    error = shell.run("%sql SELEC n FROM ticks")
    shell.run("counts = t_env.sql_query('%s')" % COUNTS)
    table_watch = shell.interrupt_when("%watch counts --mode table", r"[1-9] current rows")
    keyed_watch = shell.interrupt_when("%watch ds.key_by(lambda t: t[0]).sum(1) --mode table",
                                       r"3 keys \(by the key of Sum\)")
    queries = shell.run("len(spark.streams.active)")
    changes = [line.split()[0] for line in changelog.splitlines()
               if re.match(r"[+-][IUD] \d, \d+$", line)]
    facts = ("OK" in created, plain(completed).endswith("from_path('ticks"), highlighted,
             "op | n | c" in changelog, (len(changes), changes[0], "-U" in changes),
             "| op |" in tableau and "3 rows in set" in tableau, "('DataFrame', 3)" in stored,
             bool(re.search(r"│ n │\s+c │", view)),
             "SELEC n FROM ticks\n        ^" in error, "stopped: interrupted (Ctrl-C)" in
             table_watch, "stopped: interrupted (Ctrl-C)" in keyed_watch,
             re.search(r"Out\[\d+\]: 0$", queries.strip()) is not None)
    return facts, "\n".join([changelog, tableau, view, error])


def test_streams_then_tables_and_sql_in_a_terminal(tmp_path):
    shell = Shell("--master", "local[2]", "--conf", "spark.ui.enabled=false",
                  ipython_dir=str(tmp_path))
    try:
        shell.wait_for_prompt()
        stream_facts, jvms = streams(shell)
        table_facts, table_output = tables(shell)
        status = shell.exit()
    finally:
        shell.kill()
    assert stream_facts == (True, ["waiting for Spark… (starting for T)",
                                   "Spark 4.3.0 is ready (local[2], T) · Web UI: off",
                                   "spark.sql.shuffle.partitions=2"],
                            [(0, 0), (1, 1), (2, 2), (0, 3), (1, 4)], True, True,
                            (True, True, True, True), True, True, True)
    assert table_facts == (True, True, True, True, (6, "+I", True), True, True, True, True,
                           True, True, True), table_output
    assert (status, alive(jvms)) == (0, [])
