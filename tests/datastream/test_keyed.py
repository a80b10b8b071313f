"""Keyed rolling aggregations: every update in STREAMING mode, the final value per key in BATCH
mode. Expected outputs were checked on PyFlink 2.3 (parallelism 1)."""
import pytest

from pystream.common import Row, Types
from pystream.datastream.functions import MapFunction, ReduceFunction, RuntimeContext
from pystream.datastream.state import ValueStateDescriptor
from tests.conftest import is_batch
from tests.helpers import collect, collect_sorted

T3 = Types.TUPLE([Types.INT(), Types.INT(), Types.STRING()])
DATA = [(1, 2, "a"), (1, 5, "b"), (2, 1, "c"), (1, 3, "d"), (2, 7, "e")]
EXPECTED = {
    "sum": ([(1, 2, "a"), (1, 7, "a"), (2, 1, "c"), (1, 10, "a"), (2, 8, "c")],
            [(1, 10, "a"), (2, 8, "c")]),
    "min": ([(1, 2, "a"), (1, 2, "a"), (2, 1, "c"), (1, 2, "a"), (2, 1, "c")],
            [(1, 2, "a"), (2, 1, "c")]),
    "max": ([(1, 2, "a"), (1, 5, "a"), (2, 1, "c"), (1, 5, "a"), (2, 7, "c")],
            [(1, 5, "a"), (2, 7, "c")]),
    "min_by": ([(1, 2, "a"), (1, 2, "a"), (2, 1, "c"), (1, 2, "a"), (2, 1, "c")],
               [(1, 2, "a"), (2, 1, "c")]),
    "max_by": ([(1, 2, "a"), (1, 5, "b"), (2, 1, "c"), (1, 5, "b"), (2, 7, "e")],
               [(1, 5, "b"), (2, 7, "e")]),
}


def expected(env, streaming, batch):
    """The records PyFlink gives in this mode, in ``collect_sorted`` order."""
    return sorted(batch if is_batch(env) else streaming, key=repr)


@pytest.mark.parametrize("aggregation", sorted(EXPECTED))
def test_rolling_aggregations_on_tuples(env, aggregation):
    ds = getattr(env.from_collection(DATA, type_info=T3).key_by(lambda r: r[0]), aggregation)(1)
    assert collect_sorted(ds) == expected(env, *EXPECTED[aggregation])


def test_sum_by_field_name_on_named_rows(env):
    rows = Types.ROW_NAMED(["k", "v"], [Types.STRING(), Types.INT()])
    ds = env.from_collection([Row(k="a", v=1), Row(k="a", v=4), Row(k="b", v=2)], type_info=rows)
    assert collect_sorted(ds.key_by(lambda r: r.k).sum("v")) == expected(
        env, [Row(k="a", v=1), Row(k="a", v=5), Row(k="b", v=2)],
        [Row(k="a", v=5), Row(k="b", v=2)])


def test_aggregations_on_pickled_and_atomic_values(env):
    pickled = env.from_collection([("a", 1), ("a", 4), ("b", 2)]).key_by(lambda r: r[0]).sum(1)
    atomic = env.from_collection([5, 3, 8, 1], type_info=Types.INT()).key_by(lambda x: x % 2).min()
    assert (collect_sorted(pickled), collect_sorted(atomic, key=int)) == (
        expected(env, [("a", 1), ("a", 5), ("b", 2)], [("a", 5), ("b", 2)]),
        sorted([1, 8] if is_batch(env) else [1, 3, 5, 8]))


def test_reduce_function_class_keeps_input_order_per_key(env):
    class Sum(ReduceFunction):
        def reduce(self, a, b):
            return a[0], a[1] + b[1]

    ds = env.from_collection([("a", 1), ("b", 2), ("a", 3), ("a", 5)]).key_by(lambda r: r[0]) \
        .reduce(Sum())
    streaming = [("a", 1), ("b", 2), ("a", 4), ("a", 9)]
    assert [r for r in collect(ds) if r[0] == "a"] == \
        ([("a", 9)] if is_batch(env) else [r for r in streaming if r[0] == "a"])


def test_average_example_with_value_state(env):
    """The Average example of seeds/004 (PyFlink internals article)."""
    class Average(MapFunction):
        def open(self, runtime_context: RuntimeContext):
            self.sum_state = runtime_context.get_state(ValueStateDescriptor("sum", Types.INT()))
            self.cnt_state = runtime_context.get_state(ValueStateDescriptor("cnt", Types.INT()))

        def map(self, value):
            total = (self.sum_state.value() or 0) + value[1]
            count = (self.cnt_state.value() or 0) + 1
            self.sum_state.update(total)
            self.cnt_state.update(count)
            return value[0], total / count

    ds = env.from_collection([(1, 3), (1, 5), (1, 7), (2, 4), (2, 2)]) \
        .key_by(lambda row: row[0]).map(Average())
    assert collect_sorted(ds) == [(1, 3.0), (1, 4.0), (1, 5.0), (2, 3.0), (2, 4.0)]
