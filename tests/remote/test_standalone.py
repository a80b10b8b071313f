"""pystream programs on a Spark standalone cluster (master and worker started here on
127.0.0.1): the results are local mode's (the program's local run is
tests/cli/test_cli.py::test_run_a_program_with_dependencies). The cluster lives for this
module only, so it is gone before the run's Spark Connect server starts."""
from __future__ import annotations

from tests.remote.connectors import check_connectors_job
from tests.remote.materials import pystream_run, result_of


def test_standalone_cluster(standalone_master, shipped, cache_env):
    done = pystream_run(["--master", standalone_master, *shipped.run_options("absolute")],
                        cache_env)
    assert result_of(done) == shipped.expected(python="wrapper")


def test_connectors_on_a_standalone_cluster(standalone_master, kafka_servers, postgres,
                                            tmp_path):
    check_connectors_job("--master", standalone_master, kafka_servers, postgres, tmp_path)
