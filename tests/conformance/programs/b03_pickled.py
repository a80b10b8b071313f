"""Pickled records (no output type / PICKLED_BYTE_ARRAY) in every chain position: before a sink,
before key_by, after reduce, ending with a map declaring a pickled output."""
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
pickled = Types.PICKLED_BYTE_ARRAY()
src = env.from_collection([('a', 1), ('b', 2), ('a', 3), ('c', 4), ('b', 5)])
# map without output type -> print
src.map(lambda t: {'k': t[0], 'v': t[1]}).print('dict')
# explicit pickled output -> print
src.map(lambda t: [t[0]] * t[1], output_type=pickled).print('list')
# pickled -> key_by -> reduce -> map with pickled output -> print
src.map(lambda t: (t[0], t[1], {t[1]})) \
    .key_by(lambda t: t[0]) \
    .reduce(lambda a, b: (a[0], a[1] + b[1], a[2] | b[2])) \
    .map(lambda t: (t[0], t[1], sorted(t[2])), output_type=pickled) \
    .print('reduced')
# pickled -> typed map -> pickled map -> print
src.map(lambda t: t[1] * 10) \
    .map(lambda v: v + 1, output_type=Types.INT()) \
    .map(lambda v: Row(v=v), output_type=pickled) \
    .print('row')
# pickled values of several Python types, including None and a custom object
src.map(lambda t: {'a': None, 'b': 1.5, 'c': frozenset([t[1]])}[t[0]]).print('mixed')
# pickled str values are printed as they are (no quotes)
src.map(lambda t: {'a': 'text', 'b': 'two words', 'c': ''}[t[0]], output_type=pickled).print('strs')
env.execute()

# pickled streams collected: keyed reduce with no output type, then filter
keyed = src.map(lambda t: [t[0], t[1]], output_type=pickled).key_by(lambda t: t[0])
with keyed.reduce(lambda a, b: [a[0], a[1] * b[1]]).filter(lambda t: t[1] > 1) \
        .execute_and_collect() as results:
    for r in results:
        print('collected', type(r).__name__, r)
with src.flat_map(lambda t: [t] * (t[1] % 2)).map(lambda t: t[::-1], output_type=pickled) \
        .execute_and_collect() as results:
    for r in results:
        print('flat', type(r).__name__, r)
