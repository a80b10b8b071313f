"""pystream programs on a Spark standalone cluster (master and worker started here on
127.0.0.1; the worker has its own directories and, for the spark-submit tests, its own
Python without pystream). The cluster lives for this module only, so it is gone before the
run's Spark Connect server starts.

Submitted with Spark's own ``spark-submit`` the program runs where the submitter says: the
master registers the application and the worker's executors run its Python functions, with
the executors' Python and the pystream the driver shipped. With ``pystream run --master`` it
gives local mode's results (the program's local run is
tests/cli/test_cli.py::test_run_a_program_with_dependencies).
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from tests.remote.connectors import check_connectors_job
from tests.remote.materials import pystream_run, result_of
from tests.remote.submit import MODULE_OPTIONS, spark_core_jar, spark_submit, worker_virtualenv

JOB = Path(__file__).with_name("submitted_job.py")


@pytest.fixture(scope="module")
def worker_python(tmp_path_factory) -> str:
    return worker_virtualenv(str(tmp_path_factory.mktemp("worker-venv")))


def expected(worker_python: str, master: str, driver: str) -> dict:
    return {
        "master": master,
        "driver": driver,
        "datastream": [["a", 1], ["a", 4], ["b", 2]],
        "changelog": ["+I['a', 1]", "+I['b', 2]", "-U['a', 1]", "+U['a', 4]"],
        "places": ["%s | shipped zip | CoarseGrainedExecutorBackend" % worker_python],
        "without_checkpoint": "CheckpointNeeded: job 'Flink Streaming Job' keeps state "
                              "(keyed operators, aggregates, joins, windows) and runs on a "
                              "cluster (%s), so its checkpoint must be on storage every node "
                              "reaches. Set execution.checkpointing.dir (with a checkpointing "
                              "interval: env.enable_checkpointing(ms)) or Spark's "
                              "spark.sql.streaming.checkpointLocation to such a path: "
                              "hdfs://..., s3a://..., abfss://..., gs://..., or a directory "
                              "every node mounts" % master,
    }


def finished_executors(standalone, app_id: str, timeout: float = 30.0) -> list:
    """The app's executors the worker lists as finished: it moves them there shortly after
    the master has the app finished."""
    deadline = time.monotonic() + timeout
    while True:
        found = [e for e in standalone.worker_state()["finishedexecutors"]
                 if e["appid"] == app_id]
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


def app_named(state: dict, name: str) -> dict:
    return next((a for a in state["completedapps"] + state["activeapps"] if a["name"] == name),
                {})


def test_spark_submit_runs_the_program_on_the_cluster(standalone, worker_python, tmp_path):
    """Client deploy mode: the driver here, the functions in the worker's executors."""
    result = tmp_path / "result.json"
    done = spark_submit([
        "--master", standalone.url, "--name", "submitted-client",
        "--conf", "spark.pyspark.python=" + worker_python,
        "--conf", "spark.pyspark.driver.python=" + sys.executable,
        str(JOB), str(result), str(tmp_path / "checkpoints")], cwd=str(tmp_path))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
    app = app_named(standalone.master_state(), "submitted-client")
    executors = finished_executors(standalone, app.get("id"))
    assert (json.loads(result.read_text()), app.get("state"), len(executors) > 0) == (
        expected(worker_python, standalone.url, "SparkSubmit"), "FINISHED", True)


def test_spark_submit_in_cluster_deploy_mode(standalone, worker_python, tmp_path):
    """Cluster deploy mode: the driver too runs in the worker. Spark refuses Python programs
    in that mode on a standalone master (YARN and Kubernetes run them); Spark's PythonRunner,
    the class that runs a Python driver, submitted as the driver's main class, runs the
    program as such a driver: started by Spark, the master and settings in its JVM."""
    result = tmp_path / "result.json"
    done = spark_submit([
        "--master", standalone.url, "--deploy-mode", "cluster", "--name", "submitted-cluster",
        "--driver-memory", "512m", "--executor-memory", "512m",
        "--conf", "spark.standalone.submit.waitAppCompletion=true",
        "--conf", "spark.driver.extraJavaOptions=" + MODULE_OPTIONS,
        "--conf", "spark.pyspark.python=" + worker_python,
        "--conf", "spark.pyspark.driver.python=" + sys.executable,
        "--class", "org.apache.spark.deploy.PythonRunner", spark_core_jar(),
        str(JOB), "", str(result), str(tmp_path / "checkpoints")], cwd=str(tmp_path))
    state = standalone.master_state()
    drivers = [d for d in state["completeddrivers"] if d["mainclass"].endswith("PythonRunner")]
    assert result.exists(), done.stderr[-5000:] + json.dumps(drivers)
    assert (json.loads(result.read_text()), [d["state"] for d in drivers],
            app_named(state, "submitted-cluster").get("state")) == (
        expected(worker_python, standalone.url, "DriverWrapper"), ["FINISHED"], "FINISHED")


def test_pystream_run_on_the_cluster(standalone_master, shipped, cache_env, tmp_path):
    """``pystream run --master``, its keyed jobs' state under Spark's checkpoint location."""
    done = pystream_run(["--master", standalone_master, "--conf",
                         "spark.sql.streaming.checkpointLocation=%s" % (tmp_path / "state"),
                         *shipped.run_options("absolute")], cache_env)
    assert result_of(done) == shipped.expected(python="wrapper")


def test_connectors_on_a_standalone_cluster(standalone_master, kafka_servers, postgres,
                                            tmp_path):
    check_connectors_job("--master", standalone_master, kafka_servers, postgres, tmp_path)
