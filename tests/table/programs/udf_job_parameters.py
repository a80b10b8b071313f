"""Job parameters read in a function's ``open``: ``pipeline.global-job-parameters`` are
there, other keys of the table config are not; in a ScalarFunction and an
AsyncScalarFunction (whose result here does not depend on its row: PyFlink 2.3 can pair a
row with another row's result, and in one select with a ScalarFunction swaps their
columns: see tests/table/test_udf.py)."""
# oracle: unordered
import asyncio

from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col
from pyflink.table.udf import AsyncScalarFunction, ScalarFunction, udf


class Parameters(ScalarFunction):
    def open(self, function_context):
        self.value = "/".join(function_context.get_job_parameter(key, "none") for key in
                              ("table.key", "suffix", "other", "not.set"))

    def eval(self, i):
        return "%s:%d" % (self.value, i)


class AsyncParameters(AsyncScalarFunction):
    def open(self, function_context):
        self.value = function_context.get_job_parameter("suffix", "none")

    async def eval(self, i):
        await asyncio.sleep(0.01)
        return self.value


for settings in (EnvironmentSettings.in_streaming_mode(), EnvironmentSettings.in_batch_mode()):
    t_env = TableEnvironment.create(settings)
    config = t_env.get_config()
    config.set("parallelism.default", "1")
    config.set("table.key", "t")
    config.set("pipeline.global-job-parameters", "suffix:s,other:o")
    t = t_env.from_elements([(1,), (2,), (3,)], ['k'])
    t.select(col('k'), udf(Parameters(), result_type=DataTypes.STRING())(col('k')).alias('p')) \
        .execute().print()
    t.select(col('k'), udf(AsyncParameters(), result_type='STRING')(col('k')).alias('a')) \
        .execute().print()
    t_env.create_temporary_function("parameters",
                                    udf(Parameters(), result_type=DataTypes.STRING()))
    t_env.create_temporary_view("keys", t)
    t_env.execute_sql("SELECT k, parameters(k) AS p FROM keys WHERE k > 1").print()
