"""``pystream-shell --sql``: Flink SQL statements at a ``Flink SQL>`` prompt, ended by ``;``."""
import pexpect

from pyshell.sql_mode import as_sql_cell, is_complete
from tests.shell.driver import Shell


def test_statements_end_with_a_semicolon():
    assert [is_complete(t) for t in ["SELECT 1", "SELECT 1;", "SELECT\n  1 ;  ", "", "%jobs",
                                     "QUIT"]] == [False, True, True, True, True, True]


def test_sql_becomes_a_sql_cell_and_the_rest_stays():
    assert as_sql_cell(["SELECT 1;\n"]) == ["%%sql\n", "SELECT 1;\n"]
    assert as_sql_cell(["%jobs\n"]) == ["%jobs\n"]
    assert as_sql_cell(["QUIT;\n"]) == ["exit\n"]


def test_sql_mode_in_a_terminal(tmp_path):
    shell = Shell("--sql", "--master", "local[2]", "--conf", "spark.ui.enabled=false",
                  ipython_dir=str(tmp_path))
    child = shell.child
    try:
        child.expect("Flink SQL> ")
        child.sendline("CREATE TABLE nums (n INT) WITH ('connector' = 'datagen',")
        child.sendline("  'number-of-rows' = '3', 'fields.n.kind' = 'sequence',")
        child.sendline("  'fields.n.start' = '1', 'fields.n.end' = '3');")
        created = child.expect(["OK", "Error"])
        child.sendline("SELECT SUM(n) AS s FROM nums;")
        summed = child.expect([r"\| \+U \|\s+6 \|", "Error"])
        child.expect("rows in set")
        child.sendline("SELEC 1;")
        failed = child.expect(["SQL parse failed", "Error"])
        child.sendline("QUIT;")
        child.expect(pexpect.EOF)
    finally:
        shell.kill()
    assert (created, summed, failed) == (0, 0, 0)
