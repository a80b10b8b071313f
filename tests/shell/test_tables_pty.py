"""The real shell in a pseudo-terminal, for tables and SQL: a table name completed by Tab, a
%sql line coloured as SQL, %sql over an unbounded datagen table in each mode (changelog,
tableau with -o, a live table view stopped by Ctrl-C), a SQL error with its caret, %watch of
an updating Table and of a rolling sum in table mode, and nothing left running."""
import re

from tests.shell.driver import Shell, plain

TICKS = ("%sql CREATE TABLE ticks (n INT) WITH ('connector' = 'datagen', 'rows-per-second' = "
         "'20', 'fields.n.min' = '1', 'fields.n.max' = '3')")
COUNTS = "SELECT n, COUNT(*) AS c FROM ticks GROUP BY n"
GENERATOR = ("ds = env.from_source(DataGeneratorSource(lambda i: (i % 3, i), rows_per_second=20),"
             " WatermarkStrategy.no_watermarks(), 'gen', Types.TUPLE([Types.LONG(), "
             "Types.LONG()]))")
COLOURED = r"(?:\x1b\[[0-9;?]*[a-zA-Z])*"  # prompt_toolkit colours what it completes


def test_tables_and_sql_in_a_terminal(tmp_path):
    shell = Shell("--master", "local[2]", "--conf", "spark.ui.enabled=false",
                  ipython_dir=str(tmp_path))
    try:
        shell.wait_for_prompt()
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
        shell.run(GENERATOR)
        keyed_watch = shell.interrupt_when("%watch ds.key_by(lambda t: t[0]).sum(1) --mode table",
                                           r"3 keys \(by the key of Sum\)")
        queries = shell.run("len(spark.streams.active)")
        status = shell.exit()
    finally:
        shell.kill()
    changes = [line.split()[0] for line in changelog.splitlines()
               if re.match(r"[+-][IUD] \d, \d+$", line)]
    facts = ("OK" in created, plain(completed).endswith("from_path('ticks"), highlighted,
             "op | n | c" in changelog, (len(changes), changes[0], "-U" in changes),
             "| op |" in tableau and "3 rows in set" in tableau, "('DataFrame', 3)" in stored,
             bool(re.search(r"│ n │\s+c │", view)),
             "SELEC n FROM ticks\n        ^" in error, "stopped: interrupted (Ctrl-C)" in
             table_watch, "stopped: interrupted (Ctrl-C)" in keyed_watch,
             re.search(r"Out\[\d+\]: 0$", queries.strip()) is not None, status)
    assert facts == (True, True, True, True, (6, "+I", True), True, True, True, True, True, True,
                     True, 0), "\n".join([changelog, tableau, view, error])
