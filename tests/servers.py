"""Real Spark servers for tests, on 127.0.0.1 with free ports, from the installed pyspark.

``standalone_cluster()`` runs a Spark standalone master and one worker; ``connect_server()``
runs a Spark Connect server. Both are context managers that stop every process they started
(the whole process session, executors and Python workers included), also when the test
fails. The fixture ``standalone`` (a ``StandaloneCluster``; ``standalone_master`` is its
``spark://`` URL) starts a cluster once per test module; make them available to a test
directory in its conftest.py::

    from tests.servers import standalone, standalone_master  # noqa: F401 - fixtures

    def test_something(standalone_master):   # in a test module of that directory
        ...

``connect_url`` (an ``sc://`` URL) is one Spark Connect server for the whole run, provided by
the root conftest.py to every test that names it.

The Connect server's Python workers import this checkout's pystream (PYTHONPATH) with this
Python; the standalone worker sets no PYTHONPATH (jobs say which Python their executors run,
and pystream ships itself to them).
"""
from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional

import pytest

import pystream
from pystream.server import session_members
from pystream.session import find_java, jvm_spark_home

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(pystream.__file__)))
START_TIMEOUT = 180  # seconds; the machine may be busy


def spark_home() -> str:
    """SPARK_HOME of the installed pyspark (it ships bin/spark-class and sbin/), as pystream's
    own JVMs see it."""
    return jvm_spark_home()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_env(base_dir: str) -> Dict[str, str]:
    """The environment of a server process: this Python and checkout, logs under base_dir."""
    conf_dir = os.path.join(base_dir, "conf")  # empty: no user spark-defaults.conf
    os.makedirs(conf_dir, exist_ok=True)
    python_path = os.pathsep.join(p for p in (REPO_ROOT, os.environ.get("PYTHONPATH")) if p)
    return dict(os.environ, SPARK_HOME=spark_home(), JAVA_HOME=find_java(),
                SPARK_LOCAL_IP="127.0.0.1", SPARK_CONF_DIR=conf_dir,
                SPARK_LOG_DIR=os.path.join(base_dir, "logs"),
                SPARK_PID_DIR=os.path.join(base_dir, "pids"),
                PYSPARK_PYTHON=sys.executable, PYTHONPATH=python_path)


class ServerProcess:
    """A server started in its own process session; ``stop()`` ends the whole session."""

    def __init__(self, name: str, args: List[str], env: Dict[str, str], log_path: str):
        self.name = name
        self.log_path = log_path
        self._log = open(log_path, "ab")
        self.proc = subprocess.Popen(args, env=env, stdout=self._log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True)

    def log(self) -> str:
        with open(self.log_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def wait_for(self, ready, what: str, timeout: float = START_TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if ready():
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.5)
        tail = "\n".join(self.log().splitlines()[-30:])
        self.stop()
        raise RuntimeError("%s did not %s (log %s):\n%s" % (self.name, what, self.log_path, tail))

    def stop(self) -> None:
        sid = self.proc.pid  # the session (and process group) leader started above
        for sig, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 5)):
            members = session_members(sid)
            if not members:
                break
            for pid in members:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, sig)
            deadline = time.monotonic() + wait
            while time.monotonic() < deadline and session_members(sid):
                with contextlib.suppress(ChildProcessError):
                    self.proc.poll()
                time.sleep(0.2)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
        self._log.close()


def _port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


@dataclass(frozen=True)
class StandaloneCluster:
    """A running standalone master and worker: the master's URL, the web UIs' JSON state,
    and the worker's directories (its work directory holds the executors' and cluster-mode
    drivers' output)."""

    url: str
    master_ui: str
    worker_ui: str
    work_dir: str

    def master_state(self) -> dict:
        return _json(self.master_ui + "/json/")

    def worker_state(self) -> dict:
        return _json(self.worker_ui + "/json/")


def _json(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.load(response)


@contextlib.contextmanager
def standalone_cluster(base_dir: str, cores: int = 2,
                       memory: str = "2g") -> Iterator[StandaloneCluster]:
    """A standalone master and one worker on 127.0.0.1. The worker is a machine of its own
    as far as files go: its own work, temporary and local directories, and no PYTHONPATH
    (its executors' Python workers find pystream where the job puts it)."""
    env = server_env(base_dir)
    spark_class = os.path.join(spark_home(), "bin", "spark-class")
    port, master_ui, worker_ui = free_port(), free_port(), free_port()
    url = "spark://127.0.0.1:%d" % port
    master = ServerProcess("Spark master", [
        spark_class, "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
        "--port", str(port), "--webui-port", str(master_ui)],
        env, os.path.join(base_dir, "master.log"))
    worker: Optional[ServerProcess] = None
    try:
        master.wait_for(lambda: "I have been elected leader" in master.log(), "start")
        own = {name: os.path.join(base_dir, "worker", name) for name in ("work", "tmp", "local")}
        for directory in own.values():
            os.makedirs(directory, exist_ok=True)
        worker_env = dict(env, TMPDIR=own["tmp"], SPARK_LOCAL_DIRS=own["local"])
        worker_env.pop("PYTHONPATH", None)
        worker = ServerProcess("Spark worker", [
            spark_class, "org.apache.spark.deploy.worker.Worker", url, "--host", "127.0.0.1",
            "--cores", str(cores), "--memory", memory, "--webui-port", str(worker_ui),
            "--work-dir", own["work"]], worker_env, os.path.join(base_dir, "worker.log"))
        worker.wait_for(lambda: "Successfully registered with master" in worker.log(),
                        "register with the master")
        yield StandaloneCluster(url, "http://127.0.0.1:%d" % master_ui,
                                "http://127.0.0.1:%d" % worker_ui, own["work"])
    finally:
        if worker is not None:
            worker.stop()
        master.stop()


@contextlib.contextmanager
def connect_server(base_dir: str, master: str = "local[2]",
                   conf: Optional[Dict[str, str]] = None) -> Iterator[str]:
    """A Spark Connect server that takes only clients with its token; yields its URL
    ``sc://localhost:port/;token=...``."""
    port = free_port()
    settings = {
        "spark.connect.grpc.binding.address": "127.0.0.1",
        "spark.connect.grpc.binding.port": str(port),
        "spark.ui.enabled": "false",
        "spark.sql.shuffle.partitions": "2",
        "spark.python.authenticate.socketTimeout": "60s",
        "spark.sql.streaming.stateStore.providerClass":
            "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider",
    }
    settings.update(conf or {})
    args = [os.path.join(spark_home(), "sbin", "start-connect-server.sh"), "--wait",
            "--master", master]
    for key, value in settings.items():
        args += ["--conf", "%s=%s" % (key, value)]
    token = secrets.token_hex(16)  # as pystream's own server: only this run's clients
    server = ServerProcess("Spark Connect server", args,
                           dict(server_env(base_dir), SPARK_CONNECT_AUTHENTICATE_TOKEN=token),
                           os.path.join(base_dir, "connect.log"))
    url = "sc://localhost:%d/;token=%s" % (port, token)
    try:
        server.wait_for(lambda: _port_open(port), "open port %d" % port)
        _warm_up(url)
        yield url
    finally:
        server.stop()


# A streaming query reading a Python data source. On a cold server under load, the Python
# process that plans such a source (started per query, from pyspark.zip) may miss Spark's
# fixed 10 s to connect back ("Python worker failed to connect back"); one warm-up query
# makes the tests' first query start like the later ones.
_WARM_UP = """
import sys
from pyspark.sql import SparkSession
from pyspark.sql.datasource import DataSource, DataSourceStreamReader, InputPartition
from pyspark.sql.streaming.datasource import SupportsTriggerAvailableNow

class Source(DataSource):
    @classmethod
    def name(cls):
        return "warm_up"
    def schema(self):
        return "value int"
    def streamReader(self, schema):
        return Reader()

class Reader(DataSourceStreamReader, SupportsTriggerAvailableNow):
    def initialOffset(self):
        return {"n": 0}
    def prepareForTriggerAvailableNow(self):
        pass
    def latestOffset(self, start=None, limit=None):
        return {"n": 1}
    def partitions(self, start, end):
        return [InputPartition(0)] if start["n"] < end["n"] else []
    def read(self, partition):
        yield (1,)
    def commit(self, end):
        pass

spark = SparkSession.builder.remote(sys.argv[1]).getOrCreate()
spark.dataSource.register(Source)
query = (spark.readStream.format("warm_up").load().writeStream.format("memory")
         .queryName("warm_up").trigger(availableNow=True).start())
query.awaitTermination()
"""


def _warm_up(url: str, attempts: int = 3) -> None:
    for _ in range(attempts):
        done = subprocess.run([sys.executable, "-c", _WARM_UP, url], capture_output=True,
                              timeout=START_TIMEOUT)
        if done.returncode == 0:
            return


@pytest.fixture(scope="module")
def standalone(tmp_path_factory) -> Iterator[StandaloneCluster]:
    """A running standalone cluster (master + one worker, 2 cores, 2g) for this module."""
    with standalone_cluster(str(tmp_path_factory.mktemp("standalone"))) as cluster:
        yield cluster


@pytest.fixture(scope="module")
def standalone_master(standalone) -> str:
    """The ``spark://`` URL of the module's standalone cluster."""
    return standalone.url


@pytest.fixture(scope="session")
def connect_url(tmp_path_factory) -> Iterator[str]:
    """A running Spark Connect server (local[2]), started once for the run: the remote tests
    and the shell's share it (the root conftest provides it; a module that imported it would
    get a server of its own)."""
    with connect_server(str(tmp_path_factory.mktemp("connect"))) as url:
        yield url
