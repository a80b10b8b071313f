"""The same pystream program, with shipped dependencies, on a Spark standalone cluster and a
Spark Connect server started here on 127.0.0.1: the results are local mode's (the program's
local run is tests/cli/test_cli.py::test_run_a_program_with_dependencies)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.connectors.conftest import consume, create_topic, produce
from tests.connectors.test_jdbc import sql
from tests.remote.materials import materials, pystream_run, result_of

CONNECTORS_JOB = Path(__file__).with_name("connectors_job.py")
TABLE_JOB = Path(__file__).with_name("table_job.py")


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


@pytest.mark.parametrize("where", ["--master", "--remote"])
def test_connectors(where, request, kafka_servers, postgres, tmp_path):
    """Kafka in; Kafka (EXACTLY_ONCE), files and PostgreSQL out; on the cluster and over
    Spark Connect."""
    url = request.getfixturevalue("standalone_master" if where == "--master" else "connect_url")
    topic, out = (create_topic(kafka_servers, "%s-%s" % (name, where.strip("-")))
                  for name in ("in", "out"))
    table = "words_" + where.strip("-")
    sql(postgres, "CREATE TABLE %s (word TEXT PRIMARY KEY)" % table)
    produce(kafka_servers, topic, ["a", "b", "c"])
    done = pystream_run([where, url, "-py", str(CONNECTORS_JOB), kafka_servers, topic, out,
                         str(tmp_path / "files"), str(tmp_path / "checkpoints"),
                         postgres["url"], table])
    written = sorted("%s-%s" % (v, mode) for v in "ABC" for mode in ("STREAMING", "BATCH"))
    assert (result_of(done), sorted(consume(kafka_servers, out)),
            sql(postgres, "SELECT word FROM %s ORDER BY word" % table)) == (
        {mode: ["%s-%s" % (v, mode) for v in "ABC"] for mode in ("STREAMING", "BATCH")},
        written, [[w] for w in written])


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
