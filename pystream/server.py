"""``pystream server``: a warm local Spark Connect server that jobs of this machine use.

    pystream server start [--port 15002] [--master local[*]] [--conf KEY=VALUE ...]
    pystream server status
    pystream server stop

A fresh process pays seconds to start a JVM and Spark before its first record. With the
server up, ``pystream run`` and plain ``python job.py`` connect to it instead (when they name
no master or remote themselves, and PYSTREAM_SERVER is not ``off``) and say so on stderr:
the JVM, Spark's classes and its Python workers are already running.

The server runs in a process session of its own; ``stop`` ends every process of that session
(the JVM and its Python workers), so nothing is left running. Its state (``server.json``),
token and log live in ``$PYSTREAM_SERVER_DIR``, by default ``~/.cache/pystream/server``.

Only its owner can use it: it binds the loopback address and accepts only clients that bring
its token (Spark's ``spark.connect.authenticate.token``, a new random one per start, given to
the server through its environment, never on a command line). The token is kept in a file
only the owner can read (0600, in a 0700 directory); pystream's own clients read it from
there, other clients use ``sc://localhost:PORT/;token=...``. A server bound to another
address than loopback always has a token.
"""
from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import subprocess
import sys
import time
from dataclasses import asdict
from typing import Dict, List, Optional, Sequence

from pystream import jvm_archive
from pystream.server_state import (
    LOOPBACK,
    ServerInfo,
    alive,
    port_open,
    private_dir,
    recorded,
    running,
    state_file,
    token_file,
    with_token,
    write_private,
)
from pystream.session import SPARK_DEFAULTS, find_java, jvm_spark_home

DEFAULT_PORT = 15002
START_TIMEOUT = 120.0
STOP_TIMEOUT = 30.0


def start(port: int = DEFAULT_PORT, master: str = "local[*]",
          conf: Optional[Dict[str, str]] = None, warm_up: bool = True,
          host: str = "127.0.0.1", authenticate: bool = True) -> ServerInfo:
    """Start the server (or return the running one) and, with ``warm_up``, run small jobs on
    it: once this returns, a job's first query finds Spark's classes loaded. It listens on
    ``host`` (loopback by default) and, with ``authenticate``, takes only clients that bring
    its token; a server reachable from other machines must have one."""
    info = running()
    if info is not None:
        return info

    settings = dict(SPARK_DEFAULTS)
    settings.update({
        "spark.connect.grpc.binding.address": host,
        "spark.connect.grpc.binding.port": str(port),
        "spark.ui.enabled": "false",
        "spark.python.worker.reuse": "true",
    })
    settings.update(conf or {})
    if settings.pop("spark.connect.authenticate.token", None) is not None:
        raise RuntimeError("the server makes its own token: leave out "
                           "spark.connect.authenticate.token")
    binding = settings["spark.connect.grpc.binding.address"]
    if not authenticate and binding not in LOOPBACK:
        raise RuntimeError("a server on %s could be used by anyone who reaches that address: "
                           "it needs its token (leave out --no-token)" % binding)
    directory = private_dir()
    os.makedirs(os.path.join(directory, "conf"), exist_ok=True)  # no user spark-defaults
    if port_open("127.0.0.1", port):
        raise RuntimeError("port %d is in use; choose another with --port" % port)
    secret = secrets.token_hex(32) if authenticate else ""
    write_private(token_file(), secret)
    java_home, spark_home = find_java(), jvm_spark_home()
    args = [os.path.join(spark_home, "sbin", "start-connect-server.sh"), "--wait",
            "--master", master]
    for key, value in settings.items():
        args += ["--conf", "%s=%s" % (key, value)]
    env = dict(jvm_archive.driver_environment(os.environ, java_home, spark_home),
               SPARK_HOME=spark_home, JAVA_HOME=java_home,
               SPARK_LOCAL_IP="127.0.0.1", SPARK_CONF_DIR=os.path.join(directory, "conf"),
               SPARK_LOG_DIR=directory, SPARK_PID_DIR=directory,
               PYSPARK_PYTHON=sys.executable)
    env.pop("SPARK_CONNECT_AUTHENTICATE_TOKEN", None)
    if secret:  # the server reads it from its environment: not in `ps`
        env["SPARK_CONNECT_AUTHENTICATE_TOKEN"] = secret
    log = os.path.join(directory, "server.log")
    with open(log, "ab") as out:
        os.chmod(log, 0o600)
        proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                                env=env, start_new_session=True)
    # a token's client speaks plaintext gRPC only to "localhost" (else it wants TLS)
    info = ServerInfo(url="sc://localhost:%d" % port, pid=proc.pid, master=master, log=log)
    deadline = time.monotonic() + START_TIMEOUT
    while not port_open("127.0.0.1", port):
        if proc.poll() is not None or time.monotonic() > deadline:
            _end_session(proc.pid)
            raise RuntimeError("the Spark Connect server did not start; see %s" % log)
        time.sleep(0.2)
    write_private(state_file(), json.dumps(asdict(info)))
    if warm_up:
        _warm_up(with_token(info.url, secret))
    return info


def stop() -> Optional[ServerInfo]:
    """Stop the recorded server and every process it started; the stopped server, if any."""
    info = recorded()
    if info is not None:
        _end_session(info.pid)
    for path in (state_file(), token_file()):
        try:
            os.remove(path)
        except OSError:
            pass
    return info


def leftovers(info: ServerInfo) -> List[int]:
    """The processes of a server's session still alive (none after ``stop``)."""
    return session_members(info.pid)


# Jobs that load what pystream's jobs load into the server: Python functions (warm Python
# workers), a batch job, a keyed streaming job with state and event-time timers.
_WARM_UP = """
from pystream.common import Types, WatermarkStrategy
from pystream.common.watermark_strategy import TimestampAssigner
from pystream.datastream import StreamExecutionEnvironment
from pystream.core.window import EventTimeSessionWindows, TumblingEventTimeWindows
from pystream.common.time import Time

class Stamp(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]

env = StreamExecutionEnvironment.get_execution_environment()
env.from_collection([("a", 1), ("b", 2)], Types.TUPLE([Types.STRING(), Types.INT()])) \
    .map(lambda v: v, Types.TUPLE([Types.STRING(), Types.INT()])).execute_and_collect(limit=2)
events = env.from_collection([("a", 1), ("b", 2), ("a", 3)],
                             Types.TUPLE([Types.STRING(), Types.INT()]))
events.assign_timestamps_and_watermarks(
    WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Stamp())) \
    .key_by(lambda v: v[0], Types.STRING()) \
    .window(TumblingEventTimeWindows.of(Time.milliseconds(10))) \
    .reduce(lambda a, b: (a[0], a[1] + b[1])).execute_and_collect(limit=2)
events.key_by(lambda v: v[0], Types.STRING()).reduce(lambda a, b: (a[0], a[1] + b[1])) \
    .execute_and_collect(limit=3)
events.assign_timestamps_and_watermarks(
    WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Stamp())) \
    .key_by(lambda v: v[0], Types.STRING()) \
    .window(EventTimeSessionWindows.with_gap(Time.milliseconds(5))) \
    .reduce(lambda a, b: (a[0], a[1] + b[1])).execute_and_collect(limit=2)
events.key_by(lambda v: v[0], Types.STRING()).count_window(1) \
    .reduce(lambda a, b: (a[0], a[1] + b[1])).execute_and_collect(limit=3)
"""


def _warm_up(url: str) -> None:
    env = dict(os.environ, PYSTREAM_REMOTE=url)
    env.pop("PYSTREAM_MASTER", None)
    subprocess.run([sys.executable, "-c", _WARM_UP], capture_output=True, env=env,
                   timeout=START_TIMEOUT)


def session_members(sid: int) -> List[int]:
    """The live processes of process session ``sid`` (Linux; elsewhere: the leader)."""
    if not os.path.isdir("/proc"):
        return [sid] if alive(sid) else []
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry, "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == sid and fields[0] != b"Z":
            members.append(int(entry))
    return members


def _end_session(sid: int) -> None:
    """SIGTERM every process of the session, SIGKILL what is left after STOP_TIMEOUT."""
    for sig, wait in ((signal.SIGTERM, STOP_TIMEOUT), (signal.SIGKILL, 5.0)):
        members = session_members(sid)
        if not members:
            return
        for pid in members:
            try:
                os.kill(pid, sig)
            except OSError:
                pass
        deadline = time.monotonic() + wait
        while session_members(sid) and time.monotonic() < deadline:
            time.sleep(0.2)
    try:  # reap the leader if this process started it
        os.waitpid(sid, os.WNOHANG)
    except ChildProcessError:
        pass


# ---------------------------------------------------------------------------------------------
# the command


def main(argv: Sequence[str]) -> int:
    """``pystream server start|stop|status``."""
    p = argparse.ArgumentParser(prog="pystream server", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="action", required=True)
    begin = sub.add_parser("start", help="start the local server (or show the running one)")
    begin.add_argument("--port", type=int, default=DEFAULT_PORT)
    begin.add_argument("--host", default="127.0.0.1",
                       help="the address it listens on (default: loopback only)")
    begin.add_argument("--no-token", dest="authenticate", action="store_false",
                       help="accept clients without the token (loopback only)")
    begin.add_argument("--master", default="local[*]", help="default local[*]")
    begin.add_argument("--conf", "-c", metavar="KEY=VALUE", action="append", default=[])
    begin.add_argument("--no-warm-up", dest="warm_up", action="store_false",
                       help="return as soon as the server answers (its first jobs start slower)")
    sub.add_parser("stop", help="stop it and every process it started")
    sub.add_parser("status", help="is it running, and where")
    options = p.parse_args(list(argv))
    if options.action == "start":
        conf = dict(pair.split("=", 1) for pair in options.conf if "=" in pair)
        already = running()
        print("pystream: starting a local Spark Connect server..." if already is None else
              "pystream: the server is already running", file=sys.stderr, flush=True)
        try:
            info = start(options.port, options.master, conf, options.warm_up,
                         options.host, options.authenticate)
        except RuntimeError as e:
            print("pystream: %s" % e, file=sys.stderr)
            return 1
        print("pystream: server running at %s (%s); your jobs on this machine use it until "
              "`pystream server stop`; other clients need its token (in %s)"
              % (info.url, info.master, token_file()), file=sys.stderr)
        return 0
    if options.action == "stop":
        info = stop()
        if info is None:
            print("pystream: no server was running", file=sys.stderr)
            return 0
        left = leftovers(info)
        if left:
            print("pystream: processes still running: %s" % left, file=sys.stderr)
            return 1
        print("pystream: server at %s stopped; nothing left running" % info.url,
              file=sys.stderr)
        return 0
    info = running()
    print("running at %s (%s), log %s" % (info.url, info.master, info.log) if info
          else "not running")
    return 0
