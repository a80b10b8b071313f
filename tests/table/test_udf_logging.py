"""``logging`` in user functions reaches the program's stderr, each record with the function
and line that logged it, at the level the program configured (INFO here); ``print`` and
Spark's own output stay in pystream's log; a ``breakpoint()`` without a terminal lets the
job go on. A fresh process (its session's JVM pipes), stdin not a terminal."""
import os
import subprocess
import sys

PROGRAM = '''
import logging, sys
from pystream.datastream import StreamExecutionEnvironment
from pystream.table import DataTypes, EnvironmentSettings, TableEnvironment
from pystream.table.expressions import col
from pystream.table.udf import udf


@udf(result_type=DataTypes.STRING())
def shout(s):
    logging.getLogger("mine").warning("saw %s", s)
    logging.debug("not at INFO %s", s)
    print("printed", s)
    breakpoint()
    return s.upper()


def doubled(x):
    logging.getLogger("stream").info("doubling %d", x)
    return x * 2


logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%(message)s")
t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.from_elements([("a",)], ["s"]).select(shout(col("s"))).execute().print()
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.from_collection([1, 2]).map(doubled).print()
env.execute()
'''


def test_function_logs_reach_stderr_marked_with_the_function(tmp_path):
    (tmp_path / "job.py").write_text(PROGRAM)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=root, PYSTREAM_MASTER="local[1]",
               PYSTREAM_CONF="spark.ui.enabled=false")
    done = subprocess.run([sys.executable, "job.py"], cwd=tmp_path, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600)
    assert (done.returncode, sorted(done.stderr.splitlines()),
            [line for line in done.stdout.splitlines() if "|" not in line and "+" not in line]) \
        == (0, ["INFO stream [doubled (job.py:19)]: doubling 1",
                "INFO stream [doubled (job.py:19)]: doubling 2",
                "WARNING mine [shout (job.py:11)]: saw a",
                "pystream: breakpoint() in shout (job.py:14): continued (no terminal)"],
            ["1 row in set", "2", "4"]), done.stderr
