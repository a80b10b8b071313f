"""One plan: ``pystream.plan.plan`` decides, the compiler follows, the shell renders.

- planning needs no Spark (a fresh process plans a graph of every node type without
  importing pyspark);
- for every operator and option, the Python stages the compiler builds are the plan's
  stages: each ``mapInArrow`` runs operators of one plan stage, and a plan stage's operators
  are not split over several (except after a side output: the compiler selects a side output
  with a filter, and its readers' functions run in a Python stage of their own, or, for a
  union, together with the union's other branches);
- what ``%explain`` prints is rendered from that plan, and what runs is compiled from it.
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from pystream import graph
from pystream.common import Types, WatermarkStrategy
from pystream.common.time import Duration
from pystream.compiler.sinks import plan_sink
from pystream.compiler.translate import Compiler
from pystream.datastream import (
    OutputTag,
    ProcessFunction,
    RuntimeExecutionMode,
    StreamExecutionEnvironment,
)
from pystream.datastream.connectors import NumberSequenceSource
from pystream.datastream.connectors.datagen import DataGeneratorSource
from pystream.datastream.planning import plan_of
from pystream.datastream.window import TumblingEventTimeWindows
from pystream.errors import InvalidProgramError
from pystream.plan import CHAIN, CHAIN_BREAK, HASH, REBALANCE

EVERY_NODE_TYPE = textwrap.dedent("""
    import sys
    from pystream import graph
    from pystream.common import Types, WatermarkStrategy
    from pystream.datastream import (OutputTag, ProcessFunction, RuntimeExecutionMode,
                                     StreamExecutionEnvironment)

    class Split(ProcessFunction):
        def process_element(self, value, ctx):
            yield OutputTag("odd", Types.INT()), value

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(RuntimeExecutionMode.BATCH)
    ds = env.from_collection([1, 2, 3], Types.INT())
    split = ds.process(Split(), Types.INT())
    timed = split.assign_timestamps_and_watermarks(WatermarkStrategy.for_monotonous_timestamps())
    keyed = timed.key_by(lambda x: x % 2).reduce(lambda a, b: a + b)
    both = keyed.union(split.get_side_output(OutputTag("odd", Types.INT())).rebalance())
    both.cache().map(str).print()
    plan = env.plan()
    kinds = {type(n).__name__ for n in plan.nodes()}
    print(sorted(kinds), [s.kind for s in plan.stages])
    print(sorted(m for m in ("pyspark", "py4j", "pyarrow") if m in sys.modules))
""")


def test_planning_needs_no_spark(tmp_path):
    """A fresh process plans a graph of every node type without importing Spark."""
    script = tmp_path / "plan_only.py"
    script.write_text(EVERY_NODE_TYPE)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=os.getcwd()), timeout=120)
    assert out.returncode == 0, out.stderr
    kinds_line, imported = out.stdout.strip().splitlines()
    node_types = sorted(c.__name__ for c in graph.Node.__subclasses__())
    assert kinds_line.startswith(str(node_types))
    assert imported == "[]"


# ---------------------------------------------------------------------------------------------
# the compiler builds the plan's stages


class Split(ProcessFunction):
    def process_element(self, value, ctx):
        if value % 2:
            yield OutputTag("odd", Types.LONG()), value
        else:
            yield value


def numbers(env):
    return env.from_source(NumberSequenceSource(1, 20), WatermarkStrategy.no_watermarks(),
                           "numbers")


def chained(env):
    numbers(env).map(lambda x: x + 1).filter(lambda x: x > 2) \
        .flat_map(lambda x: [x, x]).print()


def chaining_off(env):
    env.disable_operator_chaining()
    chained(env)


def new_chain_and_disabled(env):
    ds = numbers(env).map(lambda x: x + 1).filter(lambda x: x > 2).start_new_chain()
    ds.map(lambda x: x * 2).disable_chaining().map(str).print()


def parallelism_changes(env):
    numbers(env).map(lambda x: x + 1).set_parallelism(1).map(str).set_parallelism(3) \
        .slot_sharing_group("other").print()


def keyed(env):
    numbers(env).map(lambda x: (x % 3, x)).key_by(lambda t: t[0]) \
        .reduce(lambda a, b: (a[0], a[1] + b[1])).map(str).print()


def windows(env):
    strategy = WatermarkStrategy.for_monotonous_timestamps() \
        .with_timestamp_assigner(_Millis())
    numbers(env).assign_timestamps_and_watermarks(strategy).map(lambda x: (x % 2, x)) \
        .key_by(lambda t: t[0]).window(TumblingEventTimeWindows.of(Duration.of_millis(5))) \
        .reduce(lambda a, b: (a[0], a[1] + b[1])).print()


def side_outputs(env):
    split = numbers(env).process(Split(), Types.LONG())
    split.map(lambda x: x * 10).print()
    split.get_side_output(OutputTag("odd", Types.LONG())).map(str).print()


def union_of_branches(env):
    split = numbers(env).process(Split(), Types.LONG())
    odd = split.get_side_output(OutputTag("odd", Types.LONG())).map(lambda x: -x)
    split.map(lambda x: x * 10).union(odd).map(str).print()


def partitions(env, strategy):
    ds = numbers(env).map(lambda x: x + 1)
    getattr(ds, "global_" if strategy == "global" else strategy)().map(str).print()


def custom_partition(env):
    numbers(env).map(lambda x: x + 1).partition_custom(lambda k, n: k % n, lambda x: x) \
        .map(str).print()


def connected(env):
    other = numbers(env).map(lambda x: -x)
    numbers(env).connect(other).key_by(lambda x: abs(x) % 2, lambda x: abs(x) % 2) \
        .map(_CoMap()).map(str).print()


def unbounded(env):
    env.from_source(DataGeneratorSource(lambda i: i, rows_per_second=10),
                    WatermarkStrategy.no_watermarks(), "gen", Types.LONG()) \
        .map(lambda x: x + 1).filter(lambda x: x > 2).print()


def files(env, tmp_path):
    from pystream.common.serialization import Encoder
    from pystream.datastream.connectors.file_system import FileSink, FileSource, StreamFormat

    path = tmp_path / "in.txt"
    path.write_text("a\nb\nc\n")
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(),
                                                 str(path)).build()
    env.from_source(source, WatermarkStrategy.no_watermarks(), "lines").map(str.upper) \
        .sink_to(FileSink.for_row_format(str(tmp_path / "out"),
                                         Encoder.simple_string_encoder()).build())


class _Millis:
    def extract_timestamp(self, value, record_timestamp):
        return value


from pystream.datastream.functions import CoMapFunction  # noqa: E402


class _CoMap(CoMapFunction):
    def map1(self, value):
        return value

    def map2(self, value):
        return value


STRATEGIES = ["rebalance", "rescale", "shuffle", "forward", "global", "broadcast"]
JOBS = [chained, chaining_off, new_chain_and_disabled, parallelism_changes, keyed, windows,
        side_outputs, union_of_branches, custom_partition, connected, files] + \
    [lambda env, s=s: partitions(env, s) for s in STRATEGIES]
NAMES = [j.__name__ for j in JOBS[:11]] + ["partition_%s" % s for s in STRATEGIES]


def built_stages(env):
    """The plan of ``env``'s job and the node groups of the Python stages the compiler
    builds for it (DataFrames only: nothing runs)."""
    from pystream.session import get_session

    plan = env.plan()
    compiler = Compiler(get_session(), plan)
    for sink in plan.roots:
        plan_sink(compiler, sink)
    return plan, compiler.fused


def assert_compiled_as_planned(plan, fused):
    stage_of = {op.node_id: stage.number for stage in plan.stages for op in stage.operators}
    nodes = {n.id: n for n in plan.nodes()}
    groups = [tuple(i for i in group if not isinstance(nodes[i], graph.Partition))
              for group in fused]  # a partitioner runs where records are sent from
    for group in groups:
        assert len({stage_of[i] for i in group}) <= 1, \
            "a Python stage runs operators of several plan stages: %s" % (
                [nodes[i].meta.name for i in group],)
    selected = {n.id for n in nodes.values() if isinstance(n, graph.SideOutput)
                or n.id in plan.side_tags}
    for stage in plan.stages:
        if any(op.node_id in selected for op in stage.operators):
            continue
        ids = {op.node_id for op in stage.operators
               if isinstance(nodes[op.node_id], graph.Stateless)}
        holding = {g for g, group in enumerate(groups) if ids & set(group)}
        assert len(holding) <= 1, "plan stage %d is split over %d Python stages" % (
            stage.number, len(holding))


@pytest.mark.parametrize("mode", ["STREAMING", "BATCH"])
@pytest.mark.parametrize("job", JOBS, ids=NAMES)
def test_the_compiler_builds_the_planned_stages(job, mode, tmp_path):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(RuntimeExecutionMode[mode])
    if job is files:
        job(env, tmp_path)
    else:
        job(env)
    assert_compiled_as_planned(*built_stages(env))


def test_an_unbounded_job_is_planned_streaming_and_compiled_as_planned():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(RuntimeExecutionMode.AUTOMATIC)
    unbounded(env)
    plan, fused = built_stages(env)
    assert (plan.mode, plan.batch, plan.bounded) == ("STREAMING", False, False)
    assert plan.trigger == {"processingTime": "0 milliseconds"}
    assert_compiled_as_planned(plan, fused)


def test_entries_follow_the_options():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    base = numbers(env).map(lambda x: x + 1)
    a = base.map(lambda x: x).filter(lambda x: True)
    b = a.start_new_chain().map(lambda x: x).set_parallelism(3)
    c = b.key_by(lambda x: x).map(lambda x: x)
    plan = plan_of(c)
    entries = [plan.entry(n) for n in plan.nodes() if isinstance(n, graph.Stateless)]
    assert entries == [CHAIN, CHAIN, CHAIN_BREAK, REBALANCE, HASH]


def test_forward_partitioning_refuses_a_change_of_parallelism():
    """As Flink's job graph does: ``forward()`` from a one-subtask source into an operator
    of parallelism 2 is refused when the job is planned, in Flink's words."""
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    stream = env.from_collection([1, 2, 3]).forward().map(lambda x: x)
    with pytest.raises(InvalidProgramError, match=r"Forward partitioning does not allow change "
                       r"of parallelism\. Upstream operation: .* parallelism: 1, downstream "
                       r"operation: .* parallelism: 2"):
        plan_of(stream)
    with pytest.raises(InvalidProgramError, match="downstream operation: Sink: Data stream "
                       "collect sink parallelism: 1"):  # the collect sink is one subtask
        with env.from_collection([1, 2]).map(lambda x: x).forward() \
                .execute_and_collect() as results:
            list(results)
    env.set_parallelism(1)
    assert plan_of(env.from_collection([1]).forward().map(lambda x: x)) is not None


def test_explain_and_the_job_come_from_one_plan(capfd):
    """``%explain`` renders the plan the job executes: same mode, engine and stages."""
    from pyshell.explain import graph_text
    from pystream.compiler.job import Job

    env = StreamExecutionEnvironment.get_execution_environment()
    env.disable_operator_chaining()
    numbers(env).map(lambda x: x + 1).filter(lambda x: x > 18).print()
    plan = env.plan("one plan")
    text = graph_text(plan)
    job = Job.prepare(plan)
    assert job.plan is plan and job.settings.spark_batch == plan.batch
    job.run()
    assert "Spark batch DataFrames · 3 stages" in text
    printed = capfd.readouterr().out.split()
    assert sorted(v for v in printed if not v.endswith(">")) == ["19", "20", "21"]
