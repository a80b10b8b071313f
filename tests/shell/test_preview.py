"""Previews on the test run's Spark session: rows, stop reasons, and no query left behind."""
import _thread
import re
import threading

import pytest

from pyshell.preview import Cancellation, Limits, preview, run_interruptible
from pyshell.watch import watch, watch_table
from pystream.common import Duration, Types, WatermarkStrategy
from pystream.datastream.connectors import DataGeneratorSource
from pystream.errors import JobExecutionError

PAIRS = Types.TUPLE([Types.LONG(), Types.LONG()])


def generator(env, rows_per_second=50):
    env.set_parallelism(1)
    return env.from_source(DataGeneratorSource(lambda i: (i % 3, i),
                                               rows_per_second=rows_per_second),
                           WatermarkStrategy.no_watermarks(), "gen", PAIRS)


def preview_queries(spark) -> list:
    return [q.name for q in spark.streams.active if (q.name or "").startswith("pystream_")]


def test_bounded_stream_is_collected(streaming_env):
    streaming_env.set_parallelism(1)  # the leading rows in input order
    ds = streaming_env.from_collection([1, 2, 3, 4], Types.LONG()).map(lambda x: x * 10,
                                                                       Types.LONG())
    result = preview(ds, Limits(n=3, timeout=120))
    assert (result.columns, result.rows, result.reason) == (["value"], [10, 20, 30], "rows")


def test_keyed_bounded_stream_shows_rolling_results_in_streaming_mode(streaming_env):
    ds = streaming_env.from_collection([(1, 2), (1, 3), (2, 5)], PAIRS) \
        .key_by(lambda t: t[0]).reduce(lambda a, b: (a[0], a[1] + b[1]))
    result = preview(ds, Limits(n=10, timeout=120))
    assert (sorted(result.rows), result.reason) == ([(1, 2), (1, 5), (2, 5)], "end")


def test_unbounded_stream_stops_after_n_rows(streaming_env, spark):
    result = preview(generator(streaming_env), Limits(n=4, timeout=120))
    assert (result.columns, result.rows, result.reason, preview_queries(spark)) == \
        (["f0", "f1"], [(0, 0), (1, 1), (2, 2), (0, 3)], "rows", [])


def test_failing_function_is_a_short_error_and_the_query_stops(streaming_env, spark):
    ds = generator(streaming_env).map(lambda t: t[1] // 0)
    with pytest.raises(JobExecutionError) as error:
        preview(ds, Limits(n=4, timeout=120))
    assert (error.value.cause_type, preview_queries(spark)) == ("ZeroDivisionError", [])


def test_ctrl_c_stops_the_query(streaming_env, spark):
    ds = generator(streaming_env, rows_per_second=5)
    ctrl_c = threading.Timer(4, _thread.interrupt_main)  # what Ctrl-C does
    ctrl_c.start()
    try:
        result = run_interruptible(
            lambda cancel: preview(ds, Limits(n=10 ** 6, timeout=300, idle=None), cancel))
    finally:
        ctrl_c.cancel()  # never into a later test
    assert (result.reason, preview_queries(spark)) == ("interrupted", [])


def test_cancelled_bounded_collect_reports_the_timeout(streaming_env):
    def slow(x):
        import time
        time.sleep(1)
        return x

    ds = streaming_env.from_collection(list(range(30)), Types.LONG()).map(slow, Types.LONG())
    result = preview(ds, Limits(n=30, timeout=2, startup=0), Cancellation())
    assert (result.rows, result.reason) == ([], "timeout")


def test_watch_shows_the_watermark_of_an_event_time_stream(streaming_env, spark):
    strategy = WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(2)) \
        .with_timestamp_assigner(lambda t, _: t[1] * 1000)
    ds = generator(streaming_env).assign_timestamps_and_watermarks(strategy)
    cancel, frames = Cancellation(), []

    def show(frame):
        frames.append(frame)
        if re.search(r"watermark 1970-01-01T\d\d:\d\d:\d\d\.999Z", frame):
            cancel.cancel()

    timer = threading.Timer(300, cancel.cancel, args=("timeout",))  # never hang the suite
    timer.start()
    try:
        closing = watch(ds, 3, cancel, show, refresh=0.2)
    finally:
        timer.cancel()  # or the test run waits for it at exit
    assert (closing.split(" · ")[0], preview_queries(spark)) == \
        ("stopped: interrupted (Ctrl-C)", [])


def test_watch_of_a_table_shows_its_latest_changes_until_stopped(spark):
    from pystream.table import EnvironmentSettings, TableEnvironment

    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.execute_sql("CREATE TABLE ticks (n INT) WITH ('connector' = 'datagen', "
                      "'rows-per-second' = '20', 'fields.n.min' = '1', 'fields.n.max' = '2')")
    counts = t_env.sql_query("SELECT n, COUNT(*) AS c FROM ticks GROUP BY n")
    cancel, frames = Cancellation(), []

    def show(frame):
        frames.append(frame)
        if re.search(r"\| \+U \|\s+\d \|\s+\d+ \|", frame):
            cancel.cancel()

    timer = threading.Timer(300, cancel.cancel, args=("timeout",))  # never hang the suite
    timer.start()
    try:
        closing = watch_table(counts, 4, cancel, show, refresh=0.2)
    finally:
        timer.cancel()
    assert closing.startswith("stopped: interrupted (Ctrl-C)")
    assert re.match(r"\| op \| n \|\s+c \|$", frames[-1].splitlines()[1])
    assert not spark.streams.active
