"""from_collection without type_info: any Python values (pickled) printed as str(), collected as
themselves, and a map's untyped output; in both runtime modes."""
import datetime
from decimal import Decimal

from pyflink.common import Row
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment

VALUES = [1, 2.5, 'text', None, True, (1, 'a'), [1, [2]], {'k': (1, 2)}, {3, 4},
          Decimal('1.10'), datetime.date(2024, 1, 2), Row(a=1, b='x'), b'raw', 2 ** 80]

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
for mode in [RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH]:
    env.set_runtime_mode(mode)
    name = 'STREAMING' if mode == RuntimeExecutionMode.STREAMING else 'BATCH'
    ds = env.from_collection(VALUES[:-2])
    ds.print(name)
    env.execute()
with env.from_collection(VALUES).execute_and_collect() as results:
    for v in results:
        print('collected', type(v).__name__, repr(v))
with env.from_collection(VALUES).map(lambda v: (type(v).__name__, v)).execute_and_collect() \
        as results:
    print('mapped', list(results))
