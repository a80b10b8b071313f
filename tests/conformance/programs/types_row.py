"""Types.ROW / ROW_NAMED (flat and nested, with None fields) through from_collection and maps:
printed with their row kind, collected as Rows with field names."""
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
plain = Types.ROW([Types.INT(), Types.STRING(), Types.DOUBLE()])
named = Types.ROW_NAMED(['id', 'name', 'score'], [Types.INT(), Types.STRING(), Types.DOUBLE()])
nested = Types.ROW_NAMED(['key', 'inner'],
                         [Types.STRING(),
                          Types.ROW_NAMED(['a', 'b'], [Types.LONG(), Types.BOOLEAN()])])
rows = [Row(1, 'one', 1.5), Row(2, None, -0.25), Row(3, 'three', None)]

env.from_collection(rows, type_info=plain).print('plain')
env.from_collection(rows, type_info=named).print('named')
env.from_collection([Row('x', Row(10, True)), Row('y', Row(None, False)), Row('z', None)],
                    type_info=nested).print('nested')
# a map turning the plain rows into named rows by field access
env.from_collection(rows, type_info=named) \
    .map(lambda r: Row(r.id * 10, (r.name or '?').upper(), r['score']), output_type=named) \
    .print('mapped')
# tuples given where rows are declared
env.from_collection([(7, 'seven', 7.0)], type_info=plain).print('from tuple')
env.execute()

with env.from_collection(rows, type_info=named).execute_and_collect() as results:
    for r in results:
        print('collected named', repr(r), r.as_dict(), r.get_row_kind())
with env.from_collection(rows, type_info=plain).execute_and_collect() as results:
    for r in results:
        print('collected plain', repr(r), list(r), len(r))
with env.from_collection([Row('x', Row(10, True))], type_info=nested) \
        .map(lambda r: r, output_type=nested).execute_and_collect() as results:
    for r in results:
        print('collected nested', repr(r), r.inner.a, r.as_dict(recursive=True))
with env.from_collection(rows, type_info=named) \
        .map(lambda r: '%r %s %s' % (r, r.as_dict(), 'name' in r), output_type=Types.STRING()) \
        .execute_and_collect() as results:
    for r in results:
        print('seen', r)
