"""Basic Types (BOOLEAN, BYTE, SHORT, INT, LONG, FLOAT, DOUBLE, STRING) round-trip through
from_collection(type_info) and a map with output_type; printed and collected. BIG_INT (beyond
64 bits) printed and collected straight from the source."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

CASES = [
    ('BOOLEAN', Types.BOOLEAN(), [True, False]),
    ('BYTE', Types.BYTE(), [-128, 127]),
    ('SHORT', Types.SHORT(), [-32768, 32767]),
    ('INT', Types.INT(), [-2147483648, 2147483647]),
    ('LONG', Types.LONG(), [-9223372036854775808, 9223372036854775807]),
    ('FLOAT', Types.FLOAT(), [1.25, -0.0]),
    ('DOUBLE', Types.DOUBLE(), [0.1, 1e300]),
    ('STRING', Types.STRING(), ['', 'héllo wörld']),
]

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
for name, type_info, values in CASES:
    ds = env.from_collection(values, type_info=type_info)
    ds.map(lambda v: v, output_type=type_info).print(name)
# BIG_INT: from_collection holds only values beyond 64 bits, and a Python map cannot output it
huge = env.from_collection([2 ** 70, -(2 ** 65)], type_info=Types.BIG_INT())
huge.print('BIG_INT source')
env.execute()
for name, type_info, values in CASES:
    ds = env.from_collection(values, type_info=type_info).map(lambda v: v, output_type=type_info)
    with ds.execute_and_collect() as results:
        print(name, [(type(v).__name__, v) for v in results])
for name, ds in [('BIG_INT source', huge)]:
    with ds.execute_and_collect() as results:
        print(name, [(type(v).__name__, v) for v in results])
