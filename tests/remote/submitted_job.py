"""A pystream program as users submit it to a cluster with Spark's own ``spark-submit``::

    spark-submit --master spark://... submitted_job.py RESULT CHECKPOINTS

A DataStream job (keyed, STREAMING, checkpointed under CHECKPOINTS) and a Table API / SQL job
(an aggregate's changelog, a Python UDF), whose rows say where their Python functions ran;
then the keyed job once more without a checkpoint directory, which must fail with pystream's
error. What it saw goes to RESULT as JSON.
"""
import json
import os
import sys


def java_process(pid: int) -> str:
    """The main class of the nearest Java process above ``pid``: CoarseGrainedExecutorBackend
    (an executor), SparkSubmit (a client-mode driver), DriverWrapper (a cluster-mode one)."""
    while pid > 1:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            command = f.read().decode(errors="replace")
        if os.path.basename(command.split("\0")[0]) == "java":
            for main in ("CoarseGrainedExecutorBackend", "SparkSubmit", "DriverWrapper"):
                if main in command:
                    return main
            return "java"
        with open("/proc/%d/stat" % pid) as f:
            pid = int(f.read().rsplit(")", 1)[1].split()[1])
    return "none"


def where() -> str:
    """Where a Python function runs: its Python, whose pystream, which Java process."""
    import pystream

    code = "shipped zip" if ".zip" in pystream.__file__ else "installed"
    return "%s | %s | %s" % (sys.executable, code, java_process(os.getpid()))


def datastream_job(checkpoints):
    from pystream.common import Configuration, Types
    from pystream.datastream import StreamExecutionEnvironment

    config = Configuration()
    if checkpoints:
        config.set_string("execution.checkpointing.dir", checkpoints)
    else:  # its streaming queries (a bounded job without time may run as a batch job)
        config.set_string("pystream.execution.bounded-as-batch", "false")
    env = StreamExecutionEnvironment.get_execution_environment(config)
    if checkpoints:
        env.enable_checkpointing(1000)
    env.set_parallelism(2)
    pairs = env.from_collection([("a", 1), ("b", 2), ("a", 3)],
                                type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
    sums = pairs.key_by(lambda v: v[0]).reduce(lambda a, b: (a[0], a[1] + b[1])) \
        .map(lambda v: (v[0], v[1], where()))
    with sums.execute_and_collect() as rows:
        return sorted([list(row) for row in rows])


def table_job():
    from pystream.table import DataTypes, EnvironmentSettings, TableEnvironment
    from pystream.table.expressions import col
    from pystream.table.udf import udf

    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.get_config().set("parallelism.default", "1")
    orders = t_env.from_elements([(1, "a"), (2, "b"), (3, "a")], ["n", "k"])
    t_env.create_temporary_view("orders", orders)
    with t_env.execute_sql("SELECT k, SUM(n) AS total FROM orders GROUP BY k") \
            .collect() as rows:
        changelog = [str(row.get_row_kind()) + str(list(row)) for row in rows]
    ran = udf(lambda k: where(), result_type=DataTypes.STRING())
    with orders.select(ran(col("k"))).execute().collect() as rows:
        places = sorted({row[0] for row in rows})
    return changelog, places


def main(result_path: str, checkpoints: str) -> None:
    from pystream import session

    datastream = datastream_job(checkpoints)
    changelog, table_places = table_job()
    try:
        datastream_job(None)
        without_checkpoint = "ran"
    except Exception as e:  # noqa: BLE001 - what the user sees
        without_checkpoint = "%s: %s" % (type(e).__name__, e)
    result = {
        "master": session.get_session().sparkContext.master,
        "driver": java_process(os.getpid()),
        "datastream": [row[:2] for row in datastream],
        "changelog": changelog,
        "places": sorted({row[2] for row in datastream} | set(table_places)),
        "without_checkpoint": without_checkpoint,
    }
    with open(result_path, "w") as f:
        json.dump(result, f)


if __name__ == "__main__":
    main(*sys.argv[1:3])
