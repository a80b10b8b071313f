"""sum/min/max/min_by/max_by by field name on ROW_NAMED streams (and by position); printed, and
collected as Rows keeping their field names (sorted); both modes."""
from pyflink.common import Row, Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment

DATA = [Row('a', 3, 1.5), Row('a', 1, 2.5), Row('b', 5, 0.5), Row('a', 2, 9.0), Row('b', 8, 0.25)]
NAMED = Types.ROW_NAMED(['key', 'count', 'weight'], [Types.STRING(), Types.INT(), Types.DOUBLE()])

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
for mode in [RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH]:
    env.set_runtime_mode(mode)
    tag = 'S' if mode == RuntimeExecutionMode.STREAMING else 'B'
    keyed = env.from_collection(DATA, type_info=NAMED).key_by(lambda r: r[0])
    keyed.sum('weight').print(tag + ' sum weight')
    keyed.min('weight').print(tag + ' min weight')
    keyed.max('count').print(tag + ' max count')
    keyed.min_by('weight').print(tag + ' min_by weight')
    keyed.max_by('count').print(tag + ' max_by count')
    env.execute()
    with keyed.sum('count').execute_and_collect() as results:
        print(tag, 'sum count', sorted(repr(r) for r in results))
    with keyed.max_by(2).execute_and_collect() as results:
        print(tag, 'max_by 2', sorted(repr(r) for r in results))
