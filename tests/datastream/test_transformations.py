"""Stateless transformations, in STREAMING and BATCH mode (expected outputs as PyFlink gives)."""
from pystream.common import Row, Types
from pystream.datastream.functions import (
    FilterFunction,
    FlatMapFunction,
    MapFunction,
    ProcessFunction,
)
from tests.helpers import collect, collect_sorted


def test_map_filter_flat_map_chain_on_typed_stream(env):
    ds = env.from_collection([1, 2, 3, 4], type_info=Types.INT()) \
        .map(lambda x: x * 10, Types.INT()) \
        .filter(lambda x: x != 20) \
        .flat_map(lambda x: [x, x + 1], Types.LONG())
    assert collect(ds) == [10, 11, 30, 31, 40, 41]


def test_untyped_values_travel_pickled(env):
    env.set_parallelism(1)  # in order
    ds = env.from_collection([{"a": 1}, (2, "b"), None, Row(1, "x")]).map(lambda v: [v])
    assert collect(ds) == [[{"a": 1}], [(2, "b")], [None], [Row(1, "x")]]


def test_function_classes(env):
    class Double(MapFunction):
        def map(self, value):
            return value * 2

    class Odd(FilterFunction):
        def filter(self, value):
            return value % 2 == 1

    class Spread(FlatMapFunction):
        def flat_map(self, value):
            yield from range(value)

    ds = env.from_collection([1, 2, 3]).filter(Odd()).map(Double()).flat_map(Spread())
    assert collect(ds) == [0, 1, 0, 1, 2, 3, 4, 5]


def test_rows_in_and_out(env):
    ds = env.from_collection([(1, "aaa|bb"), (2, "bb|a")],
                             type_info=Types.ROW_NAMED(["id", "words"],
                                                       [Types.INT(), Types.STRING()]))
    out = ds.flat_map(lambda r: (Row(r.id, w) for w in r.words.split("|")),
                      Types.ROW_NAMED(["id", "word"], [Types.INT(), Types.STRING()]))
    assert collect(out) == [Row(id=1, word="aaa"), Row(id=1, word="bb"), Row(id=2, word="bb"),
                            Row(id=2, word="a")]


def test_union(env):
    a = env.from_collection([1, 2], type_info=Types.INT())
    b = env.from_collection([3], type_info=Types.INT())
    c = env.from_collection([4], type_info=Types.INT()).map(lambda x: x * 10, Types.INT())
    assert collect_sorted(a.union(b, c), key=int) == [1, 2, 3, 40]


def test_project_keeps_tuple_fields_in_given_order(env):
    ds = env.from_collection([(1, 2, "a"), (3, 4, "b")],
                             type_info=Types.TUPLE([Types.INT(), Types.INT(), Types.STRING()]))
    assert collect(ds.project(2, 0)) == [("a", 1), ("b", 3)]


def test_process_function_sees_each_element(env):
    class Tag(ProcessFunction):
        def process_element(self, value, ctx):
            yield "%s@%s" % (value, ctx.timestamp())

    ds = env.from_collection(["a", "b"], type_info=Types.STRING()).process(Tag(), Types.STRING())
    # no timestamp: Long.MIN_VALUE, as PyFlink 2.3 reports (tests/conformance b04)
    assert collect(ds) == ["a@-9223372036854775808", "b@-9223372036854775808"]


def test_key_by_then_stateless_map_keeps_every_record(env):
    ds = env.from_collection([("a", 1), ("b", 2), ("a", 3)]).key_by(lambda r: r[0]) \
        .map(lambda r: (r[0], r[1] * 2))
    assert collect_sorted(ds) == [("a", 2), ("a", 6), ("b", 4)]


def test_empty_collection(env):
    assert collect(env.from_collection([], type_info=Types.INT()).map(lambda x: x)) == []
