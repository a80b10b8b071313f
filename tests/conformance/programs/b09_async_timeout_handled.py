"""Async timeouts handled by overriding AsyncFunction.timeout(): inputs whose call outlives the
timeout give timeout()'s list instead (ordered_wait, so the fallback keeps its place in the
order), the others their normal result. Output order is checked."""
# oracle: ordered
import asyncio

from pyflink.common import Time, Types
from pyflink.datastream import AsyncDataStream, RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import AsyncFunction


class SometimesSlow(AsyncFunction):
    async def async_invoke(self, value):
        await asyncio.sleep(4 if value in (2, 5) else 0)
        return ['ok %d' % value]

    def timeout(self, value):
        return ['timed out %d' % value, 'fallback %d' % -value]


env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)
ds = env.from_collection([1, 2, 3, 4, 5, 6], Types.INT())
result = AsyncDataStream.ordered_wait(ds, SometimesSlow(), Time.milliseconds(500),
                                      output_type=Types.STRING())
for line in result.execute_and_collect():
    print(line)
