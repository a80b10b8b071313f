"""Row kinds set in a map survive into print ('-D[...]', '+U[...]') and collect; Row equality,
hashing and repr as seen inside a map and after collecting."""
from pyflink.common import Row, Types
from pyflink.common.types import RowKind
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
row_type = Types.ROW_NAMED(['k', 'v'], [Types.STRING(), Types.INT()])
KINDS = [RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.DELETE]


def with_kind(value):
    return Row.of_kind(KINDS[value % 4], 'k%d' % value, value)


source = env.from_collection([0, 1, 2, 3, 5], type_info=Types.INT())
kinds = source.map(with_kind, output_type=row_type)
kinds.print('kinds')
kinds.map(lambda r: r, output_type=Types.ROW([Types.STRING(), Types.INT()])).print('unnamed')
# a keyed reduce over rows keeps the kind of the row it returns
kinds.key_by(lambda r: r.v % 2, key_type=Types.INT()) \
    .reduce(lambda a, b: Row.of_kind(b.get_row_kind(), a[0] + b[0], a[1] + b[1])).print('reduced')
env.execute()
with kinds.execute_and_collect() as results:
    for r in results:
        print('collected', repr(r), str(r.get_row_kind()), r.get_row_kind().name)
with source.map(lambda v: '%s %s %s %s' % (
        Row(a=v, b=2) == Row(a=v, b=2), Row(a=1, b=v) == Row(b=v, a=1),
        Row(v, 2) == Row(a=v, b=2), Row.of_kind(RowKind.DELETE, v) == Row(v)),
        output_type=Types.STRING()).execute_and_collect() as results:
    for r in results:
        print('equal', r)
with kinds.map(lambda r: '%s|%s|%s' % (r.get_row_kind(), hash(r) == hash(('k%d' % r[1], r[1])),
                                       r[::-1]),
               output_type=Types.STRING()).execute_and_collect() as results:
    for r in results:
        print('seen', r)
