"""pystream programs over the run's Spark Connect server (on 127.0.0.1): the results are
local mode's."""
from __future__ import annotations

from pathlib import Path

from tests.remote.connectors import check_connectors_job
from tests.remote.materials import pystream_run, result_of

TABLE_JOB = Path(__file__).with_name("table_job.py")


def test_spark_connect(connect_url, shipped, cache_env):
    done = pystream_run(["--remote", connect_url, *shipped.run_options("session")], cache_env)
    assert result_of(done) == shipped.expected(python="-")


def test_connectors_over_spark_connect(connect_url, kafka_servers, postgres, tmp_path):
    check_connectors_job("--remote", connect_url, kafka_servers, postgres, tmp_path)


def test_table_and_sql_program(connect_url):
    """A Table API / SQL program (SQL aggregate, STREAMING changelog, Python UDF with its
    metrics and table function) over Spark Connect (on the standalone cluster the other jobs
    show executors running pystream's Python; this one ran there too until the suite
    reached its 30-minute budget)."""
    done = pystream_run(["--remote", connect_url, "-py", str(TABLE_JOB)])
    assert result_of(done) == {
        "batch": [[0, 12], [1, 9]],
        "changelog": ["+I['a', '1']", "+I['b', '1']", "-U['a', '1']", "+U['a', '2']"],
        "udf": [[1, "A"], [1, "B"], [2, "C"]],
        "metrics": {"shout.seen": 3},
        "unbounded": ["+I[7, 1]", "-U[7, 1]", "+U[7, 2]"],
    }
