"""Rich functions: open(RuntimeContext) reading get_number_of_parallel_subtasks,
get_index_of_this_subtask, get_attempt_number and get_job_parameter (global job parameters);
state kept in open() used by map/filter/flat_map. (get_max_number_of_parallel_subtasks is
left out: Flink gives 1 to operators chained to a non-parallel source, else 128.)"""
from pyflink.common import Types
from pyflink.datastream import (
    FilterFunction,
    FlatMapFunction,
    MapFunction,
    RuntimeContext,
    StreamExecutionEnvironment,
)


class Describe(MapFunction):
    def open(self, runtime_context: RuntimeContext):
        self.info = 'subtasks=%d index=%d attempt=%d answer=%s missing=%s' % (
            runtime_context.get_number_of_parallel_subtasks(),
            runtime_context.get_index_of_this_subtask(),
            runtime_context.get_attempt_number(),
            runtime_context.get_job_parameter('answer', '?'),
            runtime_context.get_job_parameter('missing', 'default'))
        self.seen = 0

    def map(self, value):
        self.seen += 1
        return '%s #%d %s' % (value, self.seen, self.info)


class Threshold(FilterFunction):
    def open(self, runtime_context: RuntimeContext):
        self.limit = int(runtime_context.get_job_parameter('limit', '0'))

    def filter(self, value):
        return value > self.limit


class Explode(FlatMapFunction):
    def open(self, runtime_context: RuntimeContext):
        self.prefix = runtime_context.get_job_parameter('prefix', '')

    def flat_map(self, value):
        yield self.prefix + str(value)
        yield self.prefix + str(-value)

    def close(self):
        self.prefix = None


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.get_config().set_global_job_parameters({'answer': '42', 'limit': '2', 'prefix': 'p'})
ds = env.from_collection([1, 2, 3, 4], type_info=Types.INT())
ds.map(Describe(), output_type=Types.STRING()).print('describe')
ds.filter(Threshold()).flat_map(Explode(), output_type=Types.STRING()).print('explode')
env.execute()
