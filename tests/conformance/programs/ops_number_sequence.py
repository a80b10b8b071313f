"""env.from_source(NumberSequenceSource(...)) with a watermark strategy: LONG values through
map/filter/key_by+reduce, collected; parallelism 1 in order and parallelism 2 sorted; both modes."""
# oracle: ordered
from pyflink.common import Types, WatermarkStrategy
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.connectors.number_seq import NumberSequenceSource

env = StreamExecutionEnvironment.get_execution_environment()
for mode in [RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH]:
    env.set_runtime_mode(mode)
    tag = 'S' if mode == RuntimeExecutionMode.STREAMING else 'B'
    env.set_parallelism(1)
    seq = env.from_source(NumberSequenceSource(1, 10), WatermarkStrategy.no_watermarks(), 'seq')
    print(tag, 'type', seq.get_type())
    with seq.execute_and_collect() as results:
        print(tag, 'in order', [(type(v).__name__, v) for v in results])
    with seq.filter(lambda v: v % 3 == 0).map(lambda v: v * v, output_type=Types.LONG()) \
            .execute_and_collect() as results:
        print(tag, 'squares of multiples of 3', list(results))
    with seq.key_by(lambda v: v % 2).reduce(lambda a, b: a + b).execute_and_collect() as results:
        print(tag, 'sums by parity', sorted(results))
    env.set_parallelism(2)
    seq = env.from_source(NumberSequenceSource(-3, 4),
                          WatermarkStrategy.for_monotonous_timestamps(), 'seq2')
    with seq.map(lambda v: -v, output_type=Types.LONG()).execute_and_collect() as results:
        print(tag, 'parallel sorted', sorted(results))
