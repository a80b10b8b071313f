"""Broadcast state in BATCH mode, where the broadcast input is processed before the other
input: BroadcastProcessFunction and KeyedBroadcastProcessFunction see every rule (the last
value per rule key) in process_element; process_broadcast_element updates the
MapStateDescriptor state and emits the state after each update."""
from pyflink.common import Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import BroadcastProcessFunction, KeyedBroadcastProcessFunction
from pyflink.datastream.state import MapStateDescriptor

RATES = MapStateDescriptor('rates', Types.STRING(), Types.INT())


class Convert(BroadcastProcessFunction):
    def process_element(self, value, ctx):
        rates = ctx.get_broadcast_state(RATES)
        if rates.contains(value[0]):
            yield 'convert %s %d -> %d' % (value[0], value[1], value[1] * rates.get(value[0]))
        else:
            yield 'convert %s %d -> no rate' % value

    def process_broadcast_element(self, value, ctx):
        state = ctx.get_broadcast_state(RATES)
        state.put(value[0], value[1])
        if value[1] == 0:
            state.remove(value[0])
        yield 'rates now %s' % sorted(state.items())


class KeyedConvert(KeyedBroadcastProcessFunction):
    def process_element(self, value, ctx):
        rates = ctx.get_broadcast_state(RATES)
        yield 'keyed key=%s rates=%s is_empty=%s' % (ctx.get_current_key(),
                                                    sorted(rates.keys()), rates.is_empty())

    def process_broadcast_element(self, value, ctx):
        ctx.get_broadcast_state(RATES).put(value[0], value[1])


env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.BATCH)
env.set_parallelism(1)
amounts = env.from_collection([('usd', 10), ('eur', 20), ('gbp', 30), ('usd', 5)],
                              Types.TUPLE([Types.STRING(), Types.INT()]))
rates = env.from_collection([('usd', 2), ('eur', 3), ('usd', 4), ('chf', 7), ('chf', 0)],
                            Types.TUPLE([Types.STRING(), Types.INT()]))
amounts.connect(rates.broadcast(RATES)).process(Convert(), Types.STRING()).print()
amounts.key_by(lambda r: r[0]).connect(rates.broadcast(RATES)) \
    .process(KeyedConvert(), Types.STRING()).print()
env.execute()
