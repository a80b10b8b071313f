"""SQL_DATE, SQL_TIME, SQL_TIMESTAMP and INSTANT round-trip through from_collection(type_info) and
a map with output_type; printed, collected, and seen as Python values inside a map."""
import datetime

from pyflink.common import Types
from pyflink.common.time import Instant
from pyflink.datastream import StreamExecutionEnvironment

CASES = [
    ('SQL_DATE', Types.SQL_DATE(), [datetime.date(2024, 2, 29), datetime.date(1969, 12, 31)]),
    ('SQL_TIME', Types.SQL_TIME(), [datetime.time(0, 0), datetime.time(23, 59, 59, 123000)]),
    ('SQL_TIMESTAMP', Types.SQL_TIMESTAMP(),
     [datetime.datetime(2024, 2, 29, 12, 30, 15, 123000), datetime.datetime(1970, 1, 1)]),
    ('INSTANT', Types.INSTANT(), [Instant.of_epoch_milli(1700000000123), Instant(0, 0)]),
]

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
for name, type_info, values in CASES:
    ds = env.from_collection(values, type_info=type_info)
    ds.print(name + ' source')
    ds.map(lambda v: v, output_type=type_info).print(name + ' mapped')
env.execute()
for name, type_info, values in CASES:
    ds = env.from_collection(values, type_info=type_info)
    if name in ('SQL_DATE', 'SQL_TIME'):  # PyFlink 2.3 fails collecting the other two
        with ds.map(lambda v: v, output_type=type_info).execute_and_collect() as results:
            print(name, 'collected', [repr(v) for v in results])
    with ds.map(lambda v: '%s %r' % (type(v).__name__, v), output_type=Types.STRING()) \
            .execute_and_collect() as results:
        print(name, 'seen', list(results))
