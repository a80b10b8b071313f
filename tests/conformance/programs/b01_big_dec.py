"""Types.BIG_DEC(): Decimals of various scales collected, mapped to BIG_DEC, inside ROW/TUPLE,
printed."""
from decimal import Decimal

from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment

VALUES = [Decimal('1.5'), Decimal('2.50'), Decimal('100'), Decimal('0.001'), Decimal('-7.25'),
          Decimal('123456789012345678.987654321'), Decimal('1E+3')]

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
ds = env.from_collection(VALUES, type_info=Types.BIG_DEC())
with ds.execute_and_collect() as results:
    for v in results:
        print('collect', type(v).__name__, repr(v), str(v))
doubled = ds.map(lambda d: d * 2, output_type=Types.BIG_DEC())
with doubled.execute_and_collect() as results:
    for v in results:
        print('doubled', repr(v))
rows = ds.map(lambda d: Row(d, d + Decimal('0.5')),
              output_type=Types.ROW([Types.BIG_DEC(), Types.BIG_DEC()]))
with rows.execute_and_collect() as results:
    for v in results:
        print('row', repr(v))
tuples = ds.map(lambda d: (str(d), d), output_type=Types.TUPLE([Types.STRING(), Types.BIG_DEC()]))
ds.print('source')
tuples.print('tuple')
rows.print('row')
env.execute()
