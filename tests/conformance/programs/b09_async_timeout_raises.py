"""Async timeout without a timeout() override: the default timeout() raises TimeoutError
("Async function call has timed out for input: ..."), the job fails and execute() raises."""
import asyncio

from pyflink.common import Time, Types
from pyflink.datastream import AsyncDataStream, RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import AsyncFunction


class TooSlow(AsyncFunction):
    async def async_invoke(self, value):
        await asyncio.sleep(4 if value == 3 else 0)
        return [value]


env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)
ds = env.from_collection([1, 2, 3, 4], Types.INT())
AsyncDataStream.unordered_wait(ds, TooSlow(), Time.milliseconds(300),
                               output_type=Types.INT()).map(lambda v: v * 100).print()
try:
    env.execute()
    print('job finished')
except Exception as e:  # noqa: BLE001 - any job failure
    print('job failed')
    print('TimeoutError' in str(e), 'Async function call has timed out for input: 3' in str(e))
