"""Metrics in functions: a counter, a meter, a distribution and a gauge registered in open()
(nested groups too) and updated per record. What get_count() reads back depends on PyFlink's
bundles (its Beam metrics count per bundle), so only the records are printed."""
from pyflink.common import Types
from pyflink.datastream import MapFunction, RuntimeContext, StreamExecutionEnvironment


class Counted(MapFunction):
    def open(self, runtime_context: RuntimeContext):
        group = runtime_context.get_metrics_group().add_group('pystream').add_group('key', 'v')
        self.seen = group.counter('seen')
        self.events = group.meter('events', time_span_in_seconds=30)
        self.sizes = group.distribution('sizes')
        self.last = 0
        group.gauge('last', lambda: self.last)

    def map(self, value):
        self.seen.inc()
        self.seen.inc(2)
        self.seen.dec()
        self.events.mark_event(value)
        self.sizes.update(value)
        self.last = value
        return '%d counted' % value


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
with env.from_collection([1, 2, 3], Types.INT()).map(Counted(), Types.STRING()) \
        .execute_and_collect() as results:
    for line in results:
        print(line)
