"""AsyncDataStream.ordered_wait: results come out in input order although later inputs
finish first (their coroutines sleep less); each input may give several or no results; the
capacity bounds the requests in flight. Output order is checked."""
# oracle: ordered
import asyncio

from pyflink.common import Time, Types
from pyflink.datastream import AsyncDataStream, RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import AsyncFunction


class SlowLookup(AsyncFunction):
    async def async_invoke(self, value):
        await asyncio.sleep((10 - value) * 0.03)
        if value % 4 == 0:
            return []
        return ['%d -> %d' % (value, value * value)] * (1 + value % 2)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)
ds = env.from_collection(list(range(1, 10)), Types.INT())
result = AsyncDataStream.ordered_wait(ds, SlowLookup(), Time.seconds(20), capacity=4,
                                      output_type=Types.STRING())
for line in result.execute_and_collect():
    print(line)
