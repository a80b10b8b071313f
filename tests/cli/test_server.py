"""``pystream server``: a warm local Spark Connect server that plain ``python job.py`` uses,
and that leaves nothing running once stopped."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.servers import free_port

PYSTREAM = str(Path(sys.executable).parent / "pystream")

JOB = """
from pystream.common import Types
from pystream.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.from_collection([1, 2, 3], Types.INT()).map(lambda x: x * 10, Types.INT()).print()
env.execute("on the server")
"""


def run(args, env, **kwargs):
    return subprocess.run(args, capture_output=True, text=True, env=env, timeout=300, **kwargs)


def test_jobs_use_the_running_server_and_stop_leaves_nothing_running(tmp_path):
    from pystream import server

    env = dict(os.environ, PYSTREAM_SERVER_DIR=str(tmp_path / "server"))
    for name in ("PYSTREAM_SERVER", "PYSTREAM_MASTER", "PYSTREAM_REMOTE", "SPARK_REMOTE"):
        env.pop(name, None)
    port = free_port()
    (tmp_path / "job.py").write_text(JOB)
    started = run([PYSTREAM, "server", "start", "--port", str(port), "--master", "local[2]",
                   "--no-warm-up"], env)
    try:
        assert started.returncode == 0, started.stderr
        assert "server running at sc://127.0.0.1:%d" % port in started.stderr
        status = run([PYSTREAM, "server", "status"], env)
        assert "running at sc://127.0.0.1:%d" % port in status.stdout

        job = run([sys.executable, str(tmp_path / "job.py")], env, cwd=str(tmp_path))
        assert job.returncode == 0, job.stderr
        assert job.stdout.splitlines() == ["10", "20", "30"]
        assert "running on the local server at sc://127.0.0.1:%d" % port in job.stderr

        env_off = dict(env, PYSTREAM_SERVER="off", PYSTREAM_MASTER="local[1]")
        job = run([sys.executable, str(tmp_path / "job.py")], env_off, cwd=str(tmp_path))
        assert job.returncode == 0, job.stderr
        assert "local server" not in job.stderr
    finally:
        os.environ["PYSTREAM_SERVER_DIR"] = str(tmp_path / "server")
        try:
            info = server.recorded()
        finally:
            del os.environ["PYSTREAM_SERVER_DIR"]
        stopped = run([PYSTREAM, "server", "stop"], env)
    assert stopped.returncode == 0, stopped.stderr
    assert "nothing left running" in stopped.stderr
    assert info is not None and server.leftovers(info) == []
    assert "not running" in run([PYSTREAM, "server", "status"], env).stdout
