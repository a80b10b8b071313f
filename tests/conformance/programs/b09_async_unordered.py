"""AsyncDataStream.unordered_wait with the default capacity and no output_type: every input's
results arrive (in completion order, compared sorted here); an empty list emits nothing; the
async function's open() runs before the first call."""
import asyncio

from pyflink.common import Time, Types
from pyflink.datastream import AsyncDataStream, RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import AsyncFunction


class Enrich(AsyncFunction):
    def open(self, runtime_context):
        self.prefix = 'enriched'

    async def async_invoke(self, value):
        await asyncio.sleep(0.01 * (value[1] % 3))
        if value[1] < 0:
            return []
        return [(self.prefix, value[0], value[1] * 10), (self.prefix, value[0], -value[1])]


env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)
ds = env.from_collection([('a', 1), ('b', 2), ('c', -3), ('d', 4), ('e', 5), ('f', 6)],
                         Types.TUPLE([Types.STRING(), Types.INT()]))
AsyncDataStream.unordered_wait(ds, Enrich(), Time.seconds(20)).print()
env.execute()
