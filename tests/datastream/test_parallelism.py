"""Parallelism, partitioning and the RuntimeContext are real Spark partitions and tasks."""
from pystream.common import Types
from pystream.datastream.functions import MapFunction, RuntimeContext
from tests.helpers import collect_sorted


class WhereAmI(MapFunction):
    def open(self, runtime_context: RuntimeContext):
        self.index = runtime_context.get_index_of_this_subtask()
        self.parallelism = runtime_context.get_number_of_parallel_subtasks()

    def map(self, value):
        return self.index, self.parallelism


def test_set_parallelism_runs_that_many_tasks(env):
    ds = env.from_collection(list(range(12)), type_info=Types.INT()).map(WhereAmI()) \
        .set_parallelism(3)
    assert sorted(set(collect_sorted(ds))) == [(0, 3), (1, 3), (2, 3)]


def test_number_sequence_source_is_parallel(env):
    env.set_parallelism(2)
    from pystream.common import WatermarkStrategy
    from pystream.datastream.connectors import NumberSequenceSource

    ds = env.from_source(NumberSequenceSource(1, 10), WatermarkStrategy.no_watermarks(), "seq")
    assert sorted(set(collect_sorted(ds.map(WhereAmI())))) == [(0, 2), (1, 2)]


def test_partitionings_keep_every_record(env):
    base = env.from_collection(list(range(6)), type_info=Types.INT())
    streams = [base.rebalance(), base.shuffle(), base.rescale(), base.forward(), base.global_(),
               base.partition_custom(lambda key, n: key % n, lambda x: x)]
    out = streams[0].union(*streams[1:]).map(lambda x: x, Types.INT())
    assert collect_sorted(out, key=int) == sorted(list(range(6)) * 6)


def test_broadcast_sends_every_record_to_every_instance(env):
    ds = env.from_collection([1, 2], type_info=Types.INT()).broadcast() \
        .map(WhereAmI()).set_parallelism(2)
    assert sorted(collect_sorted(ds)) == [(0, 2), (0, 2), (1, 2), (1, 2)]


def test_partition_custom_sends_equal_partitions_to_one_subtask(env):
    class ParityAndIndex(MapFunction):
        def open(self, ctx):
            self.index = ctx.get_index_of_this_subtask()

        def map(self, value):
            return value % 2, self.index

    ds = env.from_collection(list(range(8)), type_info=Types.INT()) \
        .partition_custom(lambda key, n: key % n, lambda x: x % 2) \
        .map(ParityAndIndex()).set_parallelism(2)
    subtasks = {}
    for parity, index in collect_sorted(ds):
        subtasks.setdefault(parity, set()).add(index)
    assert sorted(len(indexes) for indexes in subtasks.values()) == [1, 1]


def test_runtime_context_knows_task_and_job_parameters(env):
    env.get_config().set_global_job_parameters({"threshold": "3"})

    class Info(MapFunction):
        def open(self, ctx):
            self.info = (ctx.get_task_name(), ctx.get_job_parameter("threshold", None),
                         ctx.get_job_parameter("missing", "dflt"),
                         ctx.get_task_name_with_subtasks())

        def map(self, value):
            return self.info

    ds = env.from_collection([1]).map(Info()).name("MyMap").set_parallelism(1)
    assert collect_sorted(ds) == [("MyMap", "3", "dflt", "MyMap (1/1)")]


def test_open_and_close_run_once_per_task(env, tmp_path):
    log = tmp_path / "calls.log"

    class Logged(MapFunction):
        def open(self, ctx):
            with open(log, "a") as f:
                f.write("open %d\n" % ctx.get_index_of_this_subtask())

        def close(self):
            with open(log, "a") as f:
                f.write("close\n")

        def map(self, value):
            return value

    ds = env.from_collection(list(range(100)), type_info=Types.INT()).map(Logged()) \
        .set_parallelism(2)
    collect_sorted(ds)
    assert sorted(log.read_text().split("\n")) == ["", "close", "close", "open 0", "open 1"]
