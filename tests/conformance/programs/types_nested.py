"""Nested composite types as a map's output: ROW holding TUPLE/LIST/MAP/ROW, LIST of ROW, MAP of
ROW values, TUPLE of LIST; printed, collected, and read back by a following map."""
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment

inner = Types.ROW_NAMED(['x', 'y'], [Types.INT(), Types.STRING()])
CASES = [
    ('row of all', Types.ROW_NAMED(['t', 'l', 'm', 'r'], [
        Types.TUPLE([Types.INT(), Types.STRING()]), Types.LIST(Types.STRING()),
        Types.MAP(Types.STRING(), Types.INT()), inner]),
     lambda i: Row((i, 's%d' % i), ['a'] * i, {'k': i}, Row(i, 'y%d' % i))),
    ('list of rows', Types.LIST(inner), lambda i: [Row(j, str(j)) for j in range(i)]),
    ('map of rows', Types.MAP(Types.INT(), inner), lambda i: {i: Row(-i, None)}),
    ('tuple of lists', Types.TUPLE([Types.LIST(Types.DOUBLE()), Types.BASIC_ARRAY(Types.LONG())]),
     lambda i: ([i / 2], [i, None])),
]

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
source = env.from_collection([1, 2], type_info=Types.INT())
for name, type_info, make in CASES:
    ds = source.map(make, output_type=type_info)
    ds.print(name)
    ds.map(lambda v: repr(v), output_type=Types.STRING()).print(name + ' seen')
env.execute()
for name, type_info, make in CASES:
    with source.map(make, output_type=type_info).execute_and_collect() as results:
        print(name, 'collected', [repr(v) for v in results])
