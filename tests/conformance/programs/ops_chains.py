"""Long chains mixing typed and untyped (pickled) steps: key_by twice, reduce feeding a
map/filter/flat_map, a stream used by two branches, and a typed stream consumed untyped;
both modes."""
from pyflink.common import Row, Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
for mode in [RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH]:
    env.set_runtime_mode(mode)
    tag = 'S ' if mode == RuntimeExecutionMode.STREAMING else 'B '
    lines = env.from_collection(['to be or', 'not to be', 'be quick'], type_info=Types.STRING())
    counts = lines.flat_map(lambda line: [(w, 1) for w in line.split()]) \
        .key_by(lambda t: t[0]).reduce(lambda a, b: (a[0], a[1] + b[1]))
    counts.filter(lambda t: t[1] > 1).map(lambda t: '%s=%d' % t, output_type=Types.STRING()) \
        .print(tag + 'repeated')
    # re-key the word counts by their count, and count words per count
    counts.map(lambda t: Row(t[1], 1), output_type=Types.ROW([Types.INT(), Types.INT()])) \
        .key_by(lambda r: r[0], key_type=Types.INT()).sum(1).print(tag + 'per count')
    # the same stream in two branches, one typed, one untyped
    lengths = lines.map(lambda line: len(line), output_type=Types.INT())
    lengths.map(lambda n: n * 2).print(tag + 'untyped branch')
    lengths.filter(lambda n: n > 8).map(lambda n: (n, str(n)),
                                        output_type=Types.TUPLE([Types.INT(), Types.STRING()])) \
        .print(tag + 'typed branch')
    env.execute()
