"""One real local Spark session for the whole test run, and the runtime-mode fixture."""
from __future__ import annotations

import os

import pytest

from pystream import session
from pystream.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from tests.servers import connect_url  # noqa: F401 - the shared Spark Connect server

TEST_CONF = {
    "spark.ui.enabled": "false",
    "spark.sql.shuffle.partitions": "2",
    "spark.default.parallelism": "2",
    "spark.driver.memory": "2g",
}


def pytest_collection_modifyitems(session, config, items) -> None:
    """The modules that use the run's Spark Connect server run last: the server (a second
    Spark driver) lives from its first test to the end of the run, and no other test has to
    share the two cores with it."""
    late = {item.path for item in items if "connect_url" in getattr(item, "fixturenames", ())}
    items[:] = [i for i in items if i.path not in late] + [i for i in items if i.path in late]


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
