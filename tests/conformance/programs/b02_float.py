"""Types.FLOAT(): values are 32-bit floats when collected, mapped, summed, reduced, inside ROW."""
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment

VALUES = [0.1, 1 / 3, 1e10 + 1, 3.14159265358979, 16777217.0, 1e-7]

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
ds = env.from_collection(VALUES, type_info=Types.FLOAT())
with ds.execute_and_collect() as results:
    for v in results:
        print('collect', type(v).__name__, repr(v))
mapped = env.from_collection(VALUES, type_info=Types.DOUBLE()) \
    .map(lambda x: x, output_type=Types.FLOAT())
with mapped.execute_and_collect() as results:
    for v in results:
        print('double->float', repr(v))
# the map sees the 32-bit value and computes in Python doubles
seen = ds.map(lambda x: repr(x), output_type=Types.STRING())
with seen.execute_and_collect() as results:
    for v in results:
        print('seen', v)
keyed = env.from_collection([('a', 0.1), ('a', 0.2), ('a', 0.3), ('b', 1e10), ('b', 1.0)],
                            type_info=Types.TUPLE([Types.STRING(), Types.FLOAT()])) \
    .key_by(lambda t: t[0])
with keyed.sum(1).execute_and_collect() as results:
    for v in results:
        print('sum', repr(v))
with keyed.reduce(lambda a, b: (a[0], a[1] * 3 + b[1])).execute_and_collect() as results:
    for v in results:
        print('reduce', repr(v))
rows = ds.map(lambda x: Row(x, x * 2), output_type=Types.ROW([Types.FLOAT(), Types.DOUBLE()]))
with rows.execute_and_collect() as results:
    for v in results:
        print('row', repr(v))
ds.print('print')
env.execute()
