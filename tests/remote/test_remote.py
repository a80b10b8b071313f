"""The same pystream program, with shipped dependencies, on a Spark standalone cluster and a
Spark Connect server started here on 127.0.0.1: the results are local mode's (the program's
local run is tests/cli/test_cli.py::test_run_a_program_with_dependencies)."""
from __future__ import annotations

import pytest

from tests.remote.materials import materials, pystream_run, result_of


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    return materials(tmp_path_factory.mktemp("materials"))


@pytest.fixture(scope="module")
def cache_env(tmp_path_factory):
    return {"PYSTREAM_CACHE_DIR": str(tmp_path_factory.mktemp("cache"))}


def test_standalone_cluster(standalone_master, shipped, cache_env):
    done = pystream_run(["--master", standalone_master, *shipped.run_options("absolute")],
                        cache_env)
    assert result_of(done) == shipped.expected(python="wrapper")


def test_spark_connect(connect_url, shipped, cache_env):
    done = pystream_run(["--remote", connect_url, *shipped.run_options("session")], cache_env)
    assert result_of(done) == shipped.expected(python="-")
