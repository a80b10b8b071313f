"""project(*positions) on TUPLE streams: reordering, repeating and single fields; printed and
collected with their tuple types."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
ds = env.from_collection([('a', 1, 1.5, True), ('b', 2, 2.5, False)],
                         type_info=Types.TUPLE([Types.STRING(), Types.INT(), Types.DOUBLE(),
                                                Types.BOOLEAN()]))
for positions in [(0,), (3, 0), (1, 1, 2), (2, 1, 0, 3)]:
    projected = ds.project(*positions)
    print('type', positions, projected.get_type())
    projected.print('project %s' % (positions,))
ds.project(1, 0).map(lambda t: t[0] * 10, output_type=Types.INT()).print('then map')
ds.project(0, 1).key_by(lambda t: t[0]).sum(1).print('then sum')
env.execute()
with ds.project(2, 0).execute_and_collect() as results:
    print('collected', [repr(r) for r in results])
