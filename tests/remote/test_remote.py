"""The same pystream program, with shipped dependencies, on a Spark standalone cluster and a
Spark Connect server (started here on 127.0.0.1), compared with local mode."""
from __future__ import annotations

import pytest

from tests.remote.materials import (
    EXPECTED_BATCH,
    EXPECTED_STREAMING,
    materials,
    pystream_run,
    result_of,
)
from tests.servers import connect_url, standalone_master  # noqa: F401 - fixtures


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    return materials(tmp_path_factory.mktemp("materials"))


@pytest.fixture(scope="module")
def cache_env(tmp_path_factory):
    return {"PYSTREAM_CACHE_DIR": str(tmp_path_factory.mktemp("cache"))}


@pytest.fixture(scope="module")
def local_result(shipped, cache_env):
    return result_of(pystream_run(["--master", "local[2]", *shipped.run_options()], cache_env))


def test_local(local_result):
    assert local_result == {"STREAMING": EXPECTED_STREAMING, "BATCH": EXPECTED_BATCH,
                            "python": ["wrapper"]}


def test_standalone_cluster_matches_local(standalone_master, shipped, cache_env, local_result):
    done = pystream_run(["--master", standalone_master, *shipped.run_options("absolute")],
                        cache_env)
    assert result_of(done) == local_result


def test_spark_connect_matches_local(connect_url, shipped, cache_env, local_result):
    done = pystream_run(["--remote", connect_url, *shipped.run_options("session")],
                        cache_env)
    assert result_of(done) == dict(local_result, python=["-"])


def test_spark_connect_refuses_a_python_executable(connect_url, shipped, cache_env):
    done = pystream_run(["--remote", connect_url, *shipped.run_options()], cache_env)
    assert (done.returncode, done.stderr.splitlines()[-1:]) == (1, [
        "pystream: UnsupportedFeatureError: set_python_executable (-pyexec) is not available "
        "over Spark Connect: the server runs user functions with its own Python; start the "
        "server with PYSPARK_PYTHON=pyenv/bin/python instead"])
