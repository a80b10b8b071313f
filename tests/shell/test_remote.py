"""``pystream-shell --remote``: a preview over a Spark Connect server started for the test."""
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from pyshell.launcher import reachable
from pystream.session import find_java
from tests.shell.driver import ROOT, free_port

ROW = re.compile(r"^\s*(\d+) \|\s*(\d+)$")


@pytest.fixture(scope="module")
def connect_url(tmp_path_factory):
    """A Spark Connect server on 127.0.0.1 (local[2]), stopped afterwards."""
    import pyspark

    home = os.path.dirname(pyspark.__file__)
    port, work = free_port(), str(tmp_path_factory.mktemp("connect"))
    env = dict(os.environ, SPARK_HOME=home, SPARK_LOG_DIR=work, SPARK_PID_DIR=work,
               SPARK_IDENT_STRING="pyshell-test", JAVA_HOME=find_java(), PYTHONPATH=ROOT,
               PYSPARK_PYTHON=sys.executable)
    subprocess.run([os.path.join(home, "sbin", "start-connect-server.sh"), "--master",
                    "local[2]", "--conf", "spark.connect.grpc.binding.address=127.0.0.1",
                    "--conf", "spark.connect.grpc.binding.port=%d" % port,
                    "--conf", "spark.ui.enabled=false"], env=env, check=True,
                   capture_output=True)
    try:
        deadline = time.monotonic() + 180
        while reachable("127.0.0.1", port, timeout=1):
            if time.monotonic() > deadline:
                pytest.fail("the Spark Connect server did not open port %d" % port)
            time.sleep(1)
        yield "sc://127.0.0.1:%d" % port
    finally:
        subprocess.run([os.path.join(home, "sbin", "stop-connect-server.sh")], env=env,
                       capture_output=True)
        for name in os.listdir(work):
            if name.endswith(".pid"):
                pid = int(open(os.path.join(work, name)).read().strip())
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass


def test_preview_over_spark_connect(connect_url, tmp_path):
    code = ("env.set_parallelism(1)\n"
            "ds = env.from_source(DataGeneratorSource(lambda i: (i % 3, i), rows_per_second=20), "
            "WatermarkStrategy.no_watermarks(), 'gen', Types.TUPLE([Types.LONG(), Types.LONG()]))\n"
            "%preview ds -n 3 --timeout 120\n"
            "assert not spark.streams.active")
    done = subprocess.run([sys.executable, "-m", "pyshell", "--remote", connect_url, "-c", code],
                          capture_output=True, text=True, cwd=str(tmp_path), timeout=600,
                          env=dict(os.environ, PYTHONPATH=ROOT, IPYTHONDIR=str(tmp_path)))
    rows = [tuple(map(int, m.groups())) for m in map(ROW.match, done.stdout.splitlines()) if m]
    assert (done.returncode, rows) == (0, [(0, 0), (1, 1), (2, 2)]), done.stdout + done.stderr
