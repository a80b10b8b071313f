"""Types.TUPLE (flat, nested, single-field, holding ROW/LIST) through from_collection and maps:
Java Tuple toString when printed, Python tuples when collected, lists accepted as tuples."""
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
pair = Types.TUPLE([Types.STRING(), Types.LONG()])
triple = Types.TUPLE([Types.INT(), pair, Types.BOOLEAN()])
mixed = Types.TUPLE([Types.ROW([Types.INT(), Types.STRING()]), Types.LIST(Types.INT()),
                     Types.DOUBLE()])
single = Types.TUPLE([Types.STRING()])

pairs = env.from_collection([('a', 1), ('b', -2), ('', 3), ['d', 4]], type_info=pair)
pairs.print('pair')
pairs.map(lambda t: (len(t), (t[0] or '-', t[1] * 2), t[1] < 0), output_type=triple) \
    .print('triple')
pairs.map(lambda t: (Row(t[1], t[0]), [t[1]] * 2, t[1] / 4), output_type=mixed) \
    .print('mixed')
pairs.map(lambda t: (t[0],), output_type=single).print('single')
env.execute()
for name, ds in [('pair', pairs),
                 ('triple', pairs.map(lambda t: (1, ('x', 2), True), output_type=triple)),
                 ('mixed', pairs.map(lambda t: (Row(1, 'r'), [1, 2], 0.5), output_type=mixed)),
                 ('single', pairs.map(lambda t: (t[0],), output_type=single))]:
    with ds.execute_and_collect() as results:
        print('collected', name, [repr(r) for r in results])
with pairs.map(lambda t: '%s %r' % (type(t).__name__, t), output_type=Types.STRING()) \
        .execute_and_collect() as results:
    print('seen', list(results))
