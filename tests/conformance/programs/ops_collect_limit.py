"""execute_and_collect: with a job name, with limit (fewer, equal, more than the records; a
list, not an iterator), on typed and untyped streams, next() on the iterator; both modes."""
# oracle: ordered
from pyflink.common import Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
for mode in [RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH]:
    env.set_runtime_mode(mode)
    tag = 'S' if mode == RuntimeExecutionMode.STREAMING else 'B'
    typed = env.from_collection([5, 6, 7, 8], type_info=Types.INT()).map(
        lambda v: v * 2, output_type=Types.INT())
    untyped = env.from_collection([('x', 1), ('y', 2), ('z', 3)])
    for limit in [1, 4, 10]:
        got = typed.execute_and_collect(limit=limit)
        print(tag, 'limit', limit, type(got).__name__, got)
    print(tag, 'untyped limit 2', untyped.execute_and_collect(limit=2))
    print(tag, 'named limit 2', typed.execute_and_collect('named job', limit=2))
    with untyped.execute_and_collect('collect job') as results:
        print(tag, 'iterator', type(results).__name__, next(results), results.next(), list(results))
