from pystream.common import Row, Types
from tests.helpers import collect


def test_word_sum_reduce(env):
    ds = env.from_collection([(1, 'aaa|bb'), (2, 'bb|a'), (3, 'aaa|a')],
                             type_info=Types.ROW([Types.INT(), Types.STRING()]))

    def split(s):
        for w in s[1].split('|'):
            yield Row(s[0], w)

    ds = ds.flat_map(split, Types.ROW([Types.INT(), Types.STRING()])) \
        .key_by(lambda r: r[1]).reduce(lambda a, b: Row(a[0] + b[0], a[1]))
    got = sorted((r[1], r[0]) for r in collect(ds))
    print(got)
