"""Types.LIST and Types.MAP (nested, None map values, inside ROW and TUPLE) as a map's output
type (from_collection cannot hold a LIST): printed and collected."""
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment

CASES = [
    ('LIST(INT)', Types.LIST(Types.INT()), [[1, 2, 3], [], [-5]]),
    ('LIST(STRING)', Types.LIST(Types.STRING()), [['a', 'b'], ['']]),
    ('LIST(LIST(LONG))', Types.LIST(Types.LIST(Types.LONG())), [[[1], [2, 3]], [[]]]),
    ('MAP(STRING,INT)', Types.MAP(Types.STRING(), Types.INT()),
     [{'b': 1, 'a': 2}, {}, {'k': None}]),
    ('MAP(INT,LIST(STRING))', Types.MAP(Types.INT(), Types.LIST(Types.STRING())),
     [{3: ['x'], 1: []}]),
]

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
for name, type_info, values in CASES:
    ds = env.from_collection(values).map(lambda v: v, output_type=type_info)
    ds.print(name)
    ds.map(lambda v: Row(len(v), v), output_type=Types.ROW([Types.INT(), type_info])) \
        .print(name + ' in row')
    ds.map(lambda v: (len(v), v), output_type=Types.TUPLE([Types.INT(), type_info])) \
        .print(name + ' in tuple')
    ds.map(lambda v: '%s %r' % (type(v).__name__, v), output_type=Types.STRING()) \
        .print(name + ' seen')
env.execute()
for name, type_info, values in CASES:
    ds = env.from_collection(values).map(lambda v: v, output_type=type_info)
    with ds.execute_and_collect() as results:
        print(name, 'collected', [repr(v) for v in results])
