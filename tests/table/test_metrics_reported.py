"""The metrics of user functions reach the program: summed over the tasks that ran them,
from ``get_metrics()`` of the job's client while it runs and of its result at its end, and
the shell's ``%jobs`` (``pystream.metrics``, ``pystream.runtime.metric_reports``)."""
import time

from pystream.common import JobStatus
from pystream.common.typeinfo import Types
from pystream.compiler.job import finished_jobs
from pystream.datastream import StreamExecutionEnvironment
from pystream.datastream.functions import MapFunction
from pystream.table import DataTypes
from pystream.table.expressions import col
from pystream.table.udf import AggregateFunction, ScalarFunction, udaf, udf


class Measured(ScalarFunction):
    def open(self, function_context):
        group = function_context.get_metric_group()
        self.rows = group.counter("rows")
        self.sizes = group.add_group("words").distribution("length")
        self.events = group.meter("events")
        group.gauge("constant", lambda: 7)

    def eval(self, s):
        self.rows.inc()
        self.sizes.update(len(s))
        self.events.mark_event()
        return s.upper()


def test_a_scalar_functions_metrics_at_the_end_of_the_statement(t_env):
    t = t_env.from_elements([("a",), ("bb",), ("ccc",)], ["s"])
    result = t.select(udf(Measured(), result_type=DataTypes.STRING())(col("s"))).execute()
    with result.collect() as rows:
        assert sorted(r[0] for r in rows) == ["A", "BB", "CCC"]
    metrics = result.get_job_client().get_metrics()
    assert (metrics["Measured.rows"], metrics["Measured.words.length"],
            metrics["Measured.events"]["count"], metrics["Measured.constant"]) == (
        3, {"count": 3, "sum": 6, "min": 1, "max": 3}, 3, 7)
    assert finished_jobs()[-1].metrics == metrics  # what the shell's %jobs shows


class Total(AggregateFunction):
    def open(self, function_context):
        self.added = function_context.get_metric_group().counter("added")

    def create_accumulator(self):
        return [0]

    def accumulate(self, acc, v):
        self.added.inc()
        acc[0] += v

    def get_value(self, acc):
        return acc[0]


def test_an_aggregate_functions_metrics_are_summed_over_its_tasks(t_env):
    total = udaf(Total(), result_type=DataTypes.BIGINT(), accumulator_type=DataTypes.ARRAY(
        DataTypes.BIGINT()), name="total")
    t = t_env.from_elements([(k % 3, k) for k in range(12)], ["k", "v"])
    result = t.group_by(col("k")).select(col("k"), total(col("v"))).execute()
    with result.collect() as rows:
        list(rows)
    assert result.get_job_client().get_metrics() == {"total.added": 12}


class Seen(MapFunction):
    def open(self, runtime_context):
        self.seen = runtime_context.get_metrics_group().add_group("records").counter("seen")

    def map(self, value):
        self.seen.inc()
        return value


def test_a_datastream_jobs_metrics_in_its_result_summed_over_subtasks():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    env.from_collection(list(range(10)), Types.INT()).map(Seen(), Types.INT()).name("check") \
        .print()
    assert env.execute("metrics").get_metrics() == {"check.records.seen": 10}


def test_a_jobs_metrics_while_it_runs_and_once_it_is_cancelled():
    """Read while the job counts (three growing values), then cancel it: its final count is
    at least the last one read."""
    from pystream.common.watermark_strategy import WatermarkStrategy
    from pystream.datastream.connectors.discarding import DiscardingSink
    from pystream.datastream.connectors.number_seq import NumberSequenceSource

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    source = NumberSequenceSource(0, 10**12)
    env.from_source(source, WatermarkStrategy.no_watermarks(), "numbers") \
        .map(Seen(), Types.LONG()).name("check").sink_to(DiscardingSink())
    client = env.execute_async("counting")
    seen, deadline = [], time.monotonic() + 120
    while len(set(seen)) < 3 and time.monotonic() < deadline:
        value = client.get_metrics().get("check.records.seen")
        if value:
            seen.append(value)
        time.sleep(0.1)
    client.cancel().result()
    assert client.get_job_status().result() == JobStatus.CANCELED
    assert len(set(seen)) == 3 and seen == sorted(seen)  # counted on as it ran
    assert client.get_metrics()["check.records.seen"] >= seen[-1]
