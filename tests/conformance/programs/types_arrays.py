"""PRIMITIVE_ARRAY, BASIC_ARRAY and OBJECT_ARRAY through from_collection and maps: collected as
Python lists, printed inside a TUPLE and a ROW (a bare Java array prints as an address)."""
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment

CASES = [  # from_collection can hold these
    ('PRIMITIVE_ARRAY(INT)', Types.PRIMITIVE_ARRAY(Types.INT()), [[1, 2, 3], []]),
    ('PRIMITIVE_ARRAY(LONG)', Types.PRIMITIVE_ARRAY(Types.LONG()), [[2 ** 40, -1]]),
    ('PRIMITIVE_ARRAY(DOUBLE)', Types.PRIMITIVE_ARRAY(Types.DOUBLE()), [[0.5, -1.25]]),
    ('PRIMITIVE_ARRAY(BOOLEAN)', Types.PRIMITIVE_ARRAY(Types.BOOLEAN()), [[True, False]]),
    ('BASIC_ARRAY(STRING)', Types.BASIC_ARRAY(Types.STRING()), [['x', None, 'z'], ['']]),
    ('BASIC_ARRAY(INT)', Types.BASIC_ARRAY(Types.INT()), [[7, None]]),
]

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
for name, type_info, values in CASES:
    ds = env.from_collection(values, type_info=type_info).map(lambda v: v, output_type=type_info)
    ds.map(lambda v: (len(v), v), output_type=Types.TUPLE([Types.INT(), type_info])) \
        .print(name + ' in tuple')
    ds.map(lambda v: Row(v), output_type=Types.ROW([type_info])).print(name + ' in row')
    ds.map(lambda v: '%s %r' % (type(v).__name__, v), output_type=Types.STRING()) \
        .print(name + ' seen')
# byte arrays come from a map (from_collection cannot hold them)
byte_array = Types.PRIMITIVE_ARRAY(Types.BYTE())
data = env.from_collection(['ab', '', 'é'], type_info=Types.STRING())
byte_arrays = data.map(lambda s: s.encode(), output_type=byte_array)
byte_arrays.map(lambda v: (len(v), v), output_type=Types.TUPLE([Types.INT(), byte_array])) \
    .print('PRIMITIVE_ARRAY(BYTE) in tuple')
byte_arrays.map(lambda v: Row(v), output_type=Types.ROW([byte_array])) \
    .print('PRIMITIVE_ARRAY(BYTE) in row')
byte_arrays.map(lambda v: '%s %r' % (type(v).__name__, v), output_type=Types.STRING()) \
    .print('PRIMITIVE_ARRAY(BYTE) seen')
# object arrays of rows come from a map too
object_array = Types.OBJECT_ARRAY(Types.ROW([Types.INT(), Types.STRING()]))
object_arrays = data.map(lambda s: [Row(len(s), s), Row(-1, None)], output_type=object_array)
object_arrays.map(lambda v: (len(v), v), output_type=Types.TUPLE([Types.INT(), object_array])) \
    .print('OBJECT_ARRAY(ROW) in tuple')
object_arrays.map(lambda v: Row(v), output_type=Types.ROW([object_array])) \
    .print('OBJECT_ARRAY(ROW) in row')
env.execute()
with object_arrays.execute_and_collect() as results:
    print('OBJECT_ARRAY(ROW) collected', [repr(v) for v in results])
with byte_arrays.execute_and_collect() as results:
    print('PRIMITIVE_ARRAY(BYTE) collected', [repr(v) for v in results])
for name, type_info, values in CASES:
    ds = env.from_collection(values, type_info=type_info)
    with ds.map(lambda v: v, output_type=type_info).execute_and_collect() as results:
        print(name, 'collected', [repr(v) for v in results])
