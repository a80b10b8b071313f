"""union of three streams (typed, with a mapped and a filtered branch), union of a stream with
itself, and union feeding key_by + reduce; both modes."""
from pyflink.common import Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
for mode in [RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH]:
    env.set_runtime_mode(mode)
    tag = 'S ' if mode == RuntimeExecutionMode.STREAMING else 'B '
    one = env.from_collection(['a', 'b'], type_info=Types.STRING())
    two = env.from_collection(['c', 'd', 'e'], type_info=Types.STRING()).filter(lambda s: s != 'd')
    three = env.from_collection([1, 2], type_info=Types.INT()).map(lambda i: 'n%d' % i,
                                                                     output_type=Types.STRING())
    one.union(two, three).print(tag + 'three')
    one.union(one).map(str.upper, output_type=Types.STRING()).print(tag + 'self')
    # counts per key: the same whatever order the three sources interleave in
    one.union(two).union(three).map(lambda s: (len(s), 1)) \
        .key_by(lambda t: t[0]).reduce(lambda a, b: (a[0], a[1] + b[1])).print(tag + 'counted')
    env.execute()
