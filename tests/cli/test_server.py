"""``pystream server``: a warm local Spark Connect server that plain ``python job.py`` uses,
that only its owner can use (a client without its token is refused), and that leaves nothing
running once stopped."""
from __future__ import annotations

import os
import stat
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


# A plain Spark Connect client, as another user's program would be: no pystream, no token
# unless the URL has one.
PLAIN_CLIENT = """
import sys
from pyspark.sql import SparkSession
try:
    spark = SparkSession.builder.remote(sys.argv[1]).getOrCreate()
    print(spark.range(3).count())
except Exception as e:
    print(type(e).__name__, str(e)[:300].replace("\\n", " "))
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
        assert "server running at sc://localhost:%d" % port in started.stderr
        status = run([PYSTREAM, "server", "status"], env)
        assert "running at sc://localhost:%d" % port in status.stdout
        token_file = tmp_path / "server" / "token"
        secret = token_file.read_text().strip()
        assert (stat.S_IMODE((tmp_path / "server").stat().st_mode),
                stat.S_IMODE(token_file.stat().st_mode), len(secret)) == (0o700, 0o600, 64)
        assert secret not in started.stderr + status.stdout
        clean = {"PATH": env["PATH"], "HOME": str(tmp_path)}
        stranger = run([sys.executable, "-c", PLAIN_CLIENT, "sc://localhost:%d" % port], clean)
        assert stranger.stdout.split()[0] == "SparkConnectGrpcException", stranger.stdout
        assert "UNAUTHENTICATED" in stranger.stdout or "nvalid" in stranger.stdout, \
            stranger.stdout
        owner = run([sys.executable, "-c", PLAIN_CLIENT,
                     "sc://localhost:%d/;token=%s" % (port, secret)], clean)
        assert owner.stdout.strip() == "3", owner.stdout + owner.stderr

        job = run([sys.executable, str(tmp_path / "job.py")], env, cwd=str(tmp_path))
        assert job.returncode == 0, job.stderr
        assert job.stdout.splitlines() == ["10", "20", "30"]
        assert "running on the local server at sc://localhost:%d" % port in job.stderr

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


def test_a_server_reachable_from_other_machines_needs_its_token(tmp_path):
    env = dict(os.environ, PYSTREAM_SERVER_DIR=str(tmp_path / "server"))
    refused = run([PYSTREAM, "server", "start", "--host", "0.0.0.0", "--no-token",
                   "--port", str(free_port())], env)
    assert (refused.returncode, refused.stderr.splitlines()[-1]) == (
        1, "pystream: a server on 0.0.0.0 could be used by anyone who reaches that address: "
           "it needs its token (leave out --no-token)")
    assert not (tmp_path / "server" / "server.json").exists()
