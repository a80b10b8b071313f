"""A keyed connected stream (connect().key_by(k1, k2)) with a KeyedCoProcessFunction and
state: a symmetric join that buffers both sides per key and emits each matching pair once,
whatever the interleaving of the two inputs; both runtime modes."""
from pyflink.common import Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import KeyedCoProcessFunction
from pyflink.datastream.state import ListStateDescriptor


class SymmetricJoin(KeyedCoProcessFunction):
    def __init__(self, mode):
        self.mode = mode

    def open(self, runtime_context):
        self.users = runtime_context.get_list_state(ListStateDescriptor('users', Types.STRING()))
        self.orders = runtime_context.get_list_state(ListStateDescriptor('orders', Types.INT()))

    def process_element1(self, value, ctx):
        self.users.add(value[1])
        for amount in self.orders.get():
            yield '%s key=%s user=%s amount=%d' % (self.mode, ctx.get_current_key(), value[1],
                                                   amount)

    def process_element2(self, value, ctx):
        self.orders.add(value[1])
        for name in self.users.get():
            yield '%s key=%s user=%s amount=%d' % (self.mode, ctx.get_current_key(), name,
                                                   value[1])


for mode in (RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(mode)
    env.set_parallelism(1)
    users = env.from_collection([(1, 'ann'), (2, 'bob'), (1, 'anna'), (3, 'cy')],
                                Types.TUPLE([Types.INT(), Types.STRING()]))
    orders = env.from_collection([(1, 10), (2, 20), (1, 11), (4, 40), (2, 21)],
                                 Types.TUPLE([Types.INT(), Types.INT()]))
    users.connect(orders) \
        .key_by(lambda u: u[0], lambda o: o[0], key_type=Types.INT()) \
        .process(SymmetricJoin(mode.name), Types.STRING()) \
        .print()
    env.execute()
