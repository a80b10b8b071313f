"""Operations called on a KeyedStream (map, flat_map, filter, process, union with a plain
stream), key_by with a KeySelector class vs a lambda vs key_type, keys of several Python types;
both modes."""
from pyflink.common import Row, Types
from pyflink.datastream import (
    KeyedProcessFunction,
    KeySelector,
    RuntimeExecutionMode,
    StreamExecutionEnvironment,
)


class ByName(KeySelector):
    def get_key(self, value):
        return value.name


class KeyType(KeyedProcessFunction):
    def process_element(self, value, ctx):
        key = ctx.get_current_key()
        yield '%s key=%r (%s)' % (value.name, key, type(key).__name__)


ROW = Types.ROW_NAMED(['name', 'n'], [Types.STRING(), Types.INT()])
DATA = [Row('ann', 1), Row('bob', 2), Row('ann', 3)]

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
for mode in [RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH]:
    env.set_runtime_mode(mode)
    tag = 'S ' if mode == RuntimeExecutionMode.STREAMING else 'B '
    ds = env.from_collection(DATA, type_info=ROW)
    by_class = ds.key_by(ByName())
    by_class.map(lambda r: r.n * 10, output_type=Types.INT()).print(tag + 'keyed map')
    by_class.filter(lambda r: r.n > 1).print(tag + 'keyed filter')
    by_class.flat_map(lambda r: [r.name] * r.n, output_type=Types.STRING()) \
        .print(tag + 'keyed flat_map')
    ds.key_by(lambda r: r.n % 2 == 1, key_type=Types.BOOLEAN()).process(
        KeyType(), output_type=Types.STRING()).print(tag + 'bool key')
    ds.key_by(lambda r: (r.name, r.n > 1)).process(KeyType(), output_type=Types.STRING()) \
        .print(tag + 'tuple key')
    by_class.map(lambda r: r.name, output_type=Types.STRING()) \
        .union(env.from_collection(['zed'], type_info=Types.STRING())).print(tag + 'union')
    env.execute()
