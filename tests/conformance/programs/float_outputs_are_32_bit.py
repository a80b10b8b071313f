"""A FLOAT declared as a Python function's output type is 32 bits downstream: the next
function sees 1/3 as 0.3333333432674408 (Java's FLOAT serializer between them), alone, in a
tuple and in a row; the print sink shows Java's text of the float."""
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
numbers = env.from_collection([1, 3, 7], type_info=Types.INT())
thirds = numbers.map(lambda n: 1 / n, output_type=Types.FLOAT())
thirds.map(lambda x: 'alone %r' % x, output_type=Types.STRING()).print()
thirds.print()
pairs = numbers.map(lambda n: (n, 1 / n), output_type=Types.TUPLE([Types.INT(), Types.FLOAT()]))
pairs.map(lambda p: 'tuple %r' % (p,), output_type=Types.STRING()).print()
rows = numbers.map(lambda n: Row(n=n, x=n / 10),
                   output_type=Types.ROW_NAMED(['n', 'x'], [Types.INT(), Types.FLOAT()]))
rows.map(lambda r: 'row %r' % r.x, output_type=Types.STRING()).print()
env.execute()
