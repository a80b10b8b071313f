"""A Python scalar function with metrics: a counter and a distribution registered in open()
through FunctionContext.get_metric_group() and updated per call (what get_count() reads
depends on PyFlink's bundles: not printed)."""
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col
from pyflink.table.udf import ScalarFunction, udf


class Numbered(ScalarFunction):
    def open(self, function_context):
        group = function_context.get_metric_group().add_group('udf')
        self.calls = group.counter('calls')
        self.lengths = group.distribution('lengths')

    def eval(self, s):
        self.calls.inc()
        self.lengths.update(len(s))
        return s.upper()


t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set('parallelism.default', '1')
numbered = udf(Numbered(), result_type=DataTypes.STRING())
t_env.from_elements([('a',), ('b',), ('c',)], ['s']).select(numbered(col('s'))).execute().print()
