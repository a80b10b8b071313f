"""``breakpoint()`` in a user function stops in the user's terminal (a real pty): pdb shows
where, answers ``p``, and ``c`` lets the job finish (without a terminal the job goes on:
test_udf_logging.py)."""
import os
import sys

import pexpect

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROGRAM = '''
from pystream.table import DataTypes, EnvironmentSettings, TableEnvironment
from pystream.table.expressions import col
from pystream.table.udf import udf


@udf(result_type=DataTypes.STRING())
def shout(s):
    louder = s.upper()
    breakpoint()
    return louder + "!"


t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.from_elements([("a",)], ["s"]).select(shout(col("s"))).execute().print()
'''


def _env() -> dict:
    return dict(os.environ, PYTHONPATH=ROOT, PYSTREAM_MASTER="local[1]",
                PYSTREAM_CONF="spark.ui.enabled=false", TERM="xterm")


def test_breakpoint_in_a_function_is_a_pdb_session_in_the_terminal(tmp_path):
    (tmp_path / "job.py").write_text(PROGRAM)
    child = pexpect.spawn(sys.executable, ["job.py"], cwd=str(tmp_path), env=_env(),
                          encoding="utf-8", timeout=180)
    try:
        child.expect(r"\(Pdb\) ")
        where = child.before
        child.sendline("p louder")
        child.expect(r"\(Pdb\) ")
        value = child.before
        child.sendline("c")
        child.expect(pexpect.EOF)
        rest = child.before
    finally:
        child.close(force=True)
    assert ("breakpoint() in shout" in where and "-> return louder" in where,
            "'A'" in value, "A!" in rest, child.exitstatus) == (True, True, True, 0)
