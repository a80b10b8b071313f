"""execute, execute_async, execute_and_collect, print, plans, runtime modes."""
import json
import time

from pystream.common import JobStatus, Row, Types, WatermarkStrategy
from pystream.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pystream.datastream.connectors import DataGeneratorSource
from pystream.errors import JobExecutionError


def test_execute_returns_a_job_execution_result(env):
    env.from_collection([1]).print()
    result = env.execute("my job")
    assert (result.job_name, len(result.get_job_id().to_hex_string()),
            result.get_net_runtime() >= 0) == ("my job", 32, True)


def test_print_shows_records_like_flink(env, capsys):
    env.set_parallelism(1)
    env.from_collection([(1, "aaa")], type_info=Types.ROW([Types.INT(), Types.STRING()])).print()
    env.from_collection([(1, "a")], type_info=Types.TUPLE([Types.INT(), Types.STRING()])) \
        .print("tuples")
    env.from_collection([Row(1, "x"), {"a": 1}]).print()
    env.execute()
    assert sorted(capsys.readouterr().out.splitlines()) == \
        sorted(["+I[1,aaa]", "tuples> (1,a)", "<Row(1, 'x')>", "{'a': 1}"])


def test_print_prefixes_the_subtask_when_parallel(env, capsys):
    env.from_collection([1, 2, 3, 4], type_info=Types.INT()).map(lambda x: x, Types.INT()) \
        .set_parallelism(2).print()
    env.execute()
    lines = capsys.readouterr().out.splitlines()
    assert (sorted(line.split("> ")[1] for line in lines),
            {line.split("> ")[0] for line in lines} <= {"1", "2"}) == (["1", "2", "3", "4"], True)


def test_execute_and_collect_as_iterator_context_manager_and_limited_list(env):
    ds = env.from_collection([1, 2, 3], type_info=Types.INT())
    with ds.execute_and_collect() as results:
        first = list(results)
    assert (first, ds.execute_and_collect(limit=2)) == ([1, 2, 3], [1, 2])


def unbounded(env):
    return env.from_source(DataGeneratorSource(lambda i: i, rows_per_second=50),
                           WatermarkStrategy.no_watermarks(), "gen", Types.LONG())


def test_collect_with_limit_stops_an_unbounded_job(streaming_env):
    assert sorted(unbounded(streaming_env).execute_and_collect(limit=5)) == [0, 1, 2, 3, 4]


def test_closing_the_iterator_cancels_the_job(streaming_env):
    results = unbounded(streaming_env).execute_and_collect()
    first = next(results)
    results.close()
    assert (first, results._job.status()) == (0, JobStatus.CANCELED)


def test_execute_async_gives_status_cancel_and_result(streaming_env):
    unbounded(streaming_env).map(lambda x: x).print()
    client = streaming_env.execute_async("endless")
    time.sleep(1)
    status = client.get_job_status().result()
    client.cancel().result()
    deadline = time.time() + 60
    while not client.get_job_status().result().is_globally_terminal_state() \
            and time.time() < deadline:
        time.sleep(0.2)
    assert (status, client.get_job_status().result()) == (JobStatus.RUNNING, JobStatus.CANCELED)


def test_cancelling_a_running_batch_job_interrupts_its_spark_jobs():
    """A bounded source too long to wait for runs as one Spark batch job: cancel() from
    another thread interrupts it and returns once the job is CANCELED."""
    from pystream.datastream.connectors.discarding import DiscardingSink
    from pystream.datastream.connectors.number_seq import NumberSequenceSource

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.from_source(NumberSequenceSource(0, 10**12), WatermarkStrategy.no_watermarks(),
                    "numbers").map(lambda x: x + 1, Types.LONG()).sink_to(DiscardingSink())
    client = env.execute_async("long")
    time.sleep(3)
    client.cancel().result()
    error = client.get_job_execution_result().exception(timeout=10)
    assert (client.get_job_status().result(), type(error).__name__) \
        == (JobStatus.CANCELED, "JobCancelled")


def test_execute_async_result_of_a_failing_job_is_the_error(streaming_env):
    streaming_env.from_collection([0], type_info=Types.INT()).map(lambda x: 1 // x).print()
    client = streaming_env.execute_async("fails")
    error = client.get_job_execution_result().exception(timeout=120)
    assert (type(error), error.cause_type) == (JobExecutionError, "ZeroDivisionError")


def test_automatic_mode_runs_bounded_jobs_as_batch():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(RuntimeExecutionMode.AUTOMATIC)
    ds = env.from_collection([("a", 1), ("a", 2)]).key_by(lambda r: r[0]).sum(1)
    assert list(ds.execute_and_collect()) == [("a", 3)]


def test_execution_plan_lists_operators_and_edges(env):
    env.from_collection([1]).map(lambda x: x).name("double").key_by(lambda x: x).sum().print()
    plan = json.loads(env.get_execution_plan())
    assert [(n["contents"], [p["ship_strategy"] for p in n["predecessors"]])
            for n in plan["nodes"]] == [("Source: Collection Source", []), ("double", ["FORWARD"]),
                                        ("Sum", ["HASH"]), ("Print to Std. Out", ["FORWARD"])]
