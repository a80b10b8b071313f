"""DataStream.cache() in BATCH mode: a cached stream reused by later jobs, then invalidate()."""
from pyflink.common import Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.set_runtime_mode(RuntimeExecutionMode.BATCH)
TYPE = Types.TUPLE([Types.STRING(), Types.INT()])
source = env.from_collection([('a', 1), ('b', 2), ('a', 3), ('c', 4)], type_info=TYPE)
cached = source.map(lambda t: (t[0], t[1] * 10), output_type=TYPE).cache()
print('type', type(cached).__name__)
# (PyFlink 2.3: execute_and_collect() directly on the CachedDataStream makes a later
# invalidate() fail, so the jobs below collect streams derived from it)
with cached.map(lambda t: t, output_type=TYPE).execute_and_collect() as results:
    print('first', sorted(results))
with cached.map(lambda t: t, output_type=TYPE).execute_and_collect() as results:
    print('second', sorted(results))
with cached.key_by(lambda t: t[0]).sum(1).execute_and_collect() as results:
    print('summed', sorted(results))
with cached.filter(lambda t: t[1] > 15).map(lambda t: t[0], output_type=Types.STRING()) \
        .execute_and_collect() as results:
    print('filtered', sorted(results))
cached.map(lambda t: '%s=%d' % t, output_type=Types.STRING()).print('print')
env.execute()
cached.invalidate()
# used again after invalidate(): recomputed
with cached.map(lambda t: t[1], output_type=Types.INT()).execute_and_collect() as results:
    print('after invalidate', sorted(results))
# a cached stream of pickled values, collected directly
pickled = source.map(lambda t: {t[0]: t[1]}).cache()
with pickled.execute_and_collect() as results:
    print('pickled', [r for r in results])
print('pickled limit', pickled.execute_and_collect(limit=2))
union = cached.union(cached.map(lambda t: (t[0] + '!', t[1] + 1), output_type=TYPE))
with union.execute_and_collect() as results:
    print('union', sorted(results))
