"""shuffle / rebalance / rescale / broadcast / forward at parallelism 2 after a parallelism-1
source: the records each downstream subtask receives, reduced to what PyFlink makes
deterministic (per-subtask counts, sorted records); forward after a parallelism-2 map."""
# oracle: ordered
from pyflink.common import Types
from pyflink.datastream import MapFunction, RuntimeContext, StreamExecutionEnvironment


class Tag(MapFunction):
    def open(self, runtime_context: RuntimeContext):
        self.index = runtime_context.get_index_of_this_subtask()

    def map(self, value):
        return self.index, value


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
source = env.from_collection(list(range(8)), type_info=Types.INT())
TAGGED = Types.TUPLE([Types.INT(), Types.INT()])
for name, ds in [('shuffle', source.shuffle()), ('rebalance', source.rebalance()),
                 ('rescale', source.rescale()), ('broadcast', source.broadcast()),
                 ('forward', source.rescale().map(lambda v: v * 10, output_type=Types.INT())
                  .forward())]:
    with ds.map(Tag(), output_type=TAGGED).execute_and_collect() as results:
        pairs = list(results)
    counts = {}
    for index, _ in pairs:
        counts[index] = counts.get(index, 0) + 1
    values = sorted(v for _, v in pairs)
    if name == 'shuffle':
        print(name, 'records', values)
    elif name in ('forward', 'rescale'):
        print(name, 'per subtask', sorted(counts.items()), 'records', values)
        for i in sorted(counts):
            print(name, 'subtask', i, sorted(v for j, v in pairs if j == i))
    elif name == 'broadcast':
        print(name, 'per subtask', sorted(counts.items()),
              'subtask 1', sorted(v for i, v in pairs if i == 1))
    else:
        print(name, 'counts', sorted(counts.values()), 'records', values)
