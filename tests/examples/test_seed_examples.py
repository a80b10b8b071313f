"""The examples of seeds/001 (PyFlink DataStream intro) that fit the core, renamed pyflink ->
pystream. Expected outputs were produced by PyFlink 2.3 on the same programs."""
from collections import Counter

from pystream.common import Row, WatermarkStrategy
from pystream.common.typeinfo import Types
from pystream.datastream.connectors import NumberSequenceSource
from pystream.datastream.functions import MapFunction, RuntimeContext
from pystream.datastream.state import ValueStateDescriptor
from tests.conftest import is_batch
from tests.helpers import collect, collect_sorted


class MyMapFunction(MapFunction):

    def open(self, runtime_context: RuntimeContext):
        state_desc = ValueStateDescriptor('cnt', Types.LONG())
        self.cnt_state = runtime_context.get_state(state_desc)

    def map(self, value):
        cnt = self.cnt_state.value()
        if cnt is None or cnt < 2:
            self.cnt_state.update(1 if cnt is None else cnt + 1)
            return value[0], value[1] + 1
        else:
            return value[0], value[1]


def test_state_access_demo(env):
    seq_num_source = NumberSequenceSource(1, 10000)
    ds = env.from_source(
        source=seq_num_source,
        watermark_strategy=WatermarkStrategy.for_monotonous_timestamps(),
        source_name='seq_num_source',
        type_info=Types.LONG())
    ds = ds.map(lambda a: Row(a % 4, 1), output_type=Types.ROW([Types.LONG(), Types.LONG()])) \
           .key_by(lambda a: a[0]) \
           .map(MyMapFunction(), output_type=Types.ROW([Types.LONG(), Types.LONG()]))
    expected = Counter()
    for key in range(4):
        expected[Row(f0=key, f1=2)] = 2
        expected[Row(f0=key, f1=1)] = 2498
    assert Counter(collect(ds)) == expected


def split_rows(s):
    splits = s[1].split("|")
    for sp in splits:
        yield Row(s[0], sp)


def split_tuples(s):
    splits = s[1].split("|")
    for sp in splits:
        yield s[0], sp


def test_word_sums_as_rows_and_as_tuples(env):
    env.set_parallelism(1)  # rolling values depend on arrival order; PyFlink ran with 1 too
    ds = env.from_collection(
        collection=[(1, 'aaa|bb'), (2, 'bb|a'), (3, 'aaa|a')],
        type_info=Types.ROW([Types.INT(), Types.STRING()]))
    rows = ds.map(lambda i: (i[0] + 1, i[1])) \
        .flat_map(split_rows, Types.ROW([Types.INT(), Types.STRING()])) \
        .key_by(lambda i: i[1]) \
        .reduce(lambda i, j: Row(i[0] + j[0], i[1]))
    tuples = ds.map(lambda i: (i[0] + 1, i[1])) \
        .flat_map(split_tuples, Types.TUPLE([Types.INT(), Types.STRING()])) \
        .key_by(lambda i: i[1]) \
        .reduce(lambda i, j: (i[0] + j[0], i[1]))
    final = [(5, 'bb'), (6, 'aaa'), (7, 'a')]
    rolling = [(2, 'aaa'), (2, 'bb'), (3, 'a')] + final
    want = final if is_batch(env) else rolling
    assert (collect_sorted(rows), collect_sorted(tuples)) == (
        sorted([Row(f0=n, f1=w) for n, w in want], key=repr), sorted(want, key=repr))
