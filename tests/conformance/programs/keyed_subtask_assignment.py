"""Which subtask a key lands on (Flink's key groups): keys pickled (no key type) and typed
(STRING, INT, LONG, a TUPLE), at parallelism 2 and 3, with the default and a set maximum
parallelism; the subtask index as functions see it and as print() prefixes it; both modes
(BATCH with the parallelism set on each operator: Flink's adaptive batch scheduler runs
operators without one at the parallelism the data volume asks for, 1 here)."""
from pyflink.common import Types
from pyflink.datastream import (
    KeyedProcessFunction,
    RuntimeExecutionMode,
    StreamExecutionEnvironment,
)

NAMES = ['Alice', 'Bob', 'Carol', 'Dave', 'Eve', 'Frank', 'Grace', 'Heidi', 'x', 'yy']


class Where(KeyedProcessFunction):
    def __init__(self, tag):
        self.tag = tag

    def open(self, runtime_context):
        self.index = runtime_context.get_index_of_this_subtask()

    def process_element(self, value, ctx):
        yield '%s %s key %r on subtask %d' % (self.mode, self.tag, ctx.get_current_key(),
                                              self.index)


def run(mode, parallelism, max_parallelism=None):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(mode)
    env.set_parallelism(parallelism)
    label = '%s p=%d' % (mode.name, parallelism)
    if max_parallelism:
        env.set_max_parallelism(max_parallelism)
        label += ' max=%d' % max_parallelism
    Where.mode = label
    names = env.from_collection([(n, i) for i, n in enumerate(NAMES)],
                                type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
    numbers = env.from_collection([(i * 7, i) for i in range(12)],
                                  type_info=Types.TUPLE([Types.INT(), Types.INT()]))
    def show(keyed, tag):
        processed = keyed.process(Where(tag), Types.STRING())
        if mode == RuntimeExecutionMode.BATCH:
            processed.set_parallelism(parallelism)
            processed.print().set_parallelism(parallelism)
        else:
            processed.print()

    show(names.key_by(lambda v: v[0]), 'pickled str')
    show(names.key_by(lambda v: v[0], Types.STRING()), 'STRING')
    show(names.key_by(lambda v: (v[0], v[1] % 2), Types.TUPLE([Types.STRING(), Types.INT()])),
         'TUPLE')
    show(names.key_by(lambda v: (v[0], v[1] % 2)), 'pickled tuple')
    show(numbers.key_by(lambda v: v[0]), 'pickled int')
    show(numbers.key_by(lambda v: v[0], Types.INT()), 'INT')
    show(numbers.key_by(lambda v: v[0] * 1000003, Types.LONG()), 'LONG')
    env.execute()


run(RuntimeExecutionMode.STREAMING, 2)
run(RuntimeExecutionMode.BATCH, 3)
run(RuntimeExecutionMode.BATCH, 2, max_parallelism=7)
