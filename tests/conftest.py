"""One real local Spark session for the whole test run, and the runtime-mode fixture."""
from __future__ import annotations

import os
import shutil
import tempfile
import time

import pytest

from pystream import jvm_archive, session
from pystream.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from tests.helpers import INTERPRETED_SPARK
from tests.servers import connect_url  # noqa: F401 - the shared Spark Connect server

TEST_CONF = {
    "spark.ui.enabled": "false",
    "spark.sql.shuffle.partitions": "2",
    "spark.default.parallelism": "2",
    "spark.driver.memory": "2g",
    **INTERPRETED_SPARK,
}


# Every JVM of the run (the run's session, the servers, the programs tests start) compiles
# with C1 only, collects garbage in one thread and does not verify Spark's bytecode: tests run
# many short jobs over small data, where these cut the CPU of a fresh job by about 40%
# (C1 alone gets the small code cache of a JVM without tiers unless told; a full one prints a
# warning to stdout).
TEST_JAVA_OPTIONS = ("-XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=240m -XX:+UseSerialGC "
                     "-XX:+UnlockDiagnosticVMOptions -XX:-BytecodeVerificationRemote")
SERVER_FIXTURES = ("connect_url", "standalone", "standalone_master")
JVM_TEMP_DIR = pytest.StashKey[str]()
BUDGET_SECONDS = 12 * 60  # the whole suite on 2 cores; printed beside the run's wall time
SLOWEST = 30


@pytest.hookimpl(optionalhook=True)  # an xdist hook; pytest -p no:xdist runs without it
def pytest_xdist_auto_num_workers(config) -> int:
    """``-n auto``: a worker per core and one more, at most 4 (each worker has its own
    local[2] Spark). Tests spend much of their time waiting (on the JVMs and servers they
    start, on files a source monitors): on 2 cores two workers left 45% of the CPU idle, and
    three took the suite from 14 min 06 s to 12 min 46 s."""
    return max(1, min((os.cpu_count() or 1) + 1, 4))


def pytest_configure(config) -> None:
    if "JAVA_TOOL_OPTIONS" not in os.environ:
        os.environ["JAVA_TOOL_OPTIONS"] = " ".join(filter(None, (
            TEST_JAVA_OPTIONS, _class_archive_options(config), _java_temp_dir_option(config))))


def _java_temp_dir_option(config) -> str:
    """Every JVM of the run keeps its temporary files (Spark's local directories, Spark
    Connect's artifacts, native libraries it unpacks) in one directory of the run, removed
    at its end (``pytest_unconfigure``): a JVM that a test kills leaves nothing in /tmp."""
    if hasattr(config, "workerinput"):  # xdist's workers inherit the options
        return ""
    config.stash[JVM_TEMP_DIR] = tempfile.mkdtemp(prefix="pystream-tests-jvm-")
    return "-Djava.io.tmpdir=%s" % config.stash[JVM_TEMP_DIR]


def pytest_unconfigure(config) -> None:
    directory = config.stash.get(JVM_TEMP_DIR, None)
    if directory is not None:
        shutil.rmtree(directory, ignore_errors=True)


def _class_archive_options(config) -> str:
    """Every JVM of the run starts from this machine's archive of Spark's classes (made
    first if missing: about 45 s, which the run's hundred-odd JVMs repay several times)."""
    java_home, spark_home = session.find_java(), session.jvm_spark_home()
    if (jvm_archive.usable_archive(java_home, spark_home) is None
            and not hasattr(config, "workerinput")):  # xdist's workers inherit the options
        try:
            jvm_archive.build_archive(java_home, spark_home)
        except RuntimeError as e:
            print("tests: JVMs start without a class archive: %s" % e)
    return jvm_archive.java_options(java_home, spark_home)


@pytest.hookimpl(tryfirst=True)  # before xdist's, which reads the group marks
def pytest_collection_modifyitems(session, config, items) -> None:
    """The modules whose tests use a Spark server of their own (the run's Spark Connect
    server, a module's standalone cluster) form one group, ``servers``, run in order by one
    worker when the run is spread over several (``-n``): each server then starts once, and
    the standalone cluster stops before the Connect server starts."""
    uses = {}  # module path -> the server fixtures its tests use
    for item in items:
        named = set(SERVER_FIXTURES) & set(getattr(item, "fixturenames", ()))
        if named:
            uses.setdefault(item.path, set()).update(named)
    in_group = sorted((i for i in items if i.path in uses),
                      key=lambda i: "connect_url" in uses[i.path])
    items[:] = in_group + [i for i in items if i.path not in uses]
    for item in in_group:
        item.add_marker(pytest.mark.xdist_group("servers"))


@pytest.fixture(scope="session", autouse=True)
def spark():
    """The test run's Spark session (local[2], UI off), stopped at the end. Programs the tests
    start do not use a local server a developer may have running (``pystream server``)."""
    os.environ["PYSTREAM_SERVER"] = "off"
    session.configure(master="local[2]", conf=dict(TEST_CONF))
    yield session.get_session()
    session.stop_session()


@pytest.fixture(params=["streaming", "batch"])
def env(request) -> StreamExecutionEnvironment:
    """A fresh environment, in STREAMING and in BATCH mode."""
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(RuntimeExecutionMode[request.param.upper()])
    return env


@pytest.fixture
def streaming_env() -> StreamExecutionEnvironment:
    return StreamExecutionEnvironment.get_execution_environment()


@pytest.fixture
def batch_env() -> StreamExecutionEnvironment:
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(RuntimeExecutionMode.BATCH)
    return env


def is_batch(env: StreamExecutionEnvironment) -> bool:
    return env.get_runtime_mode() is RuntimeExecutionMode.BATCH


class _Budget:
    """The run's wall time and each item's time (setup, call and teardown), for the summary."""

    started = time.monotonic()
    seconds: dict = {}


def pytest_sessionstart(session) -> None:
    _Budget.started = time.monotonic()


def pytest_runtest_logreport(report) -> None:
    _Budget.seconds[report.nodeid] = _Budget.seconds.get(report.nodeid, 0.0) + report.duration


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    """The wall time against the budget, and the share of the slowest items, so that the
    suite's growth shows in every run (``--durations`` lists those items)."""
    if os.environ.get("PYTEST_XDIST_WORKER") or not _Budget.seconds:
        return
    wall = time.monotonic() - _Budget.started
    items = sorted(_Budget.seconds.values(), reverse=True)
    total, slowest = sum(items), sum(items[:SLOWEST])
    terminalreporter.write_sep("=", "suite budget")
    terminalreporter.write_line(
        "wall time %d min %02d s (budget %d min%s); %d items took %.0f s in all, the %d "
        "slowest %.0f s (%.0f%%)" % (
            wall // 60, wall % 60, BUDGET_SECONDS // 60,
            ", OVER" if wall > BUDGET_SECONDS else "", len(items), total, SLOWEST, slowest,
            100 * slowest / total if total else 0))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """With PYSTREAM_TEST_TIMELINE=FILE, each test's worker, start and end go to FILE."""
    path = os.environ.get("PYSTREAM_TEST_TIMELINE")
    started = time.time()
    yield
    if path:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        with open(path, "a") as f:
            f.write("%s %.2f %.2f %s\n" % (worker, started, time.time(), item.nodeid))
