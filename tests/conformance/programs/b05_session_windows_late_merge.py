"""Session windows with allowed lateness (STREAMING): after the watermark has fired two
sessions, a late element bridges them; Flink merges the fired sessions and fires the merged
window at once; an element later than the allowed lateness goes to the late-data side output.

The watermark must pass between elements, so the input pauses for 2 s before the late ones
(one element per Python bundle; the periodic watermark interval is 200 ms)."""
import time

from pyflink.common import Configuration, Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import OutputTag, RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import MapFunction, ProcessWindowFunction
from pyflink.datastream.window import EventTimeSessionWindows


class SecondField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class PauseBeforeLate(MapFunction):
    def map(self, value):
        if value[2] == 'pause':
            time.sleep(2)
        return value


class Describe(ProcessWindowFunction):
    def process(self, key, context, elements):
        w = context.window()
        yield 'key=%s window=[%d, %d) stamps=%s' % (key, w.start, w.end,
                                                    sorted(e[1] for e in elements))


config = Configuration()
config.set_integer('python.fn-execution.bundle.size', 1)
env = StreamExecutionEnvironment.get_execution_environment(config)
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)
row = Types.TUPLE([Types.STRING(), Types.LONG(), Types.STRING()])
# gap 1 s, allowed lateness 5 s. 'z' at 6000 moves the watermark to 5999 during the pause.
data = [('a', 1000, ''), ('a', 3000, ''), ('z', 6000, ''),
        ('a', 2000, 'pause'),   # late, bridges [1000, 2000) and [3000, 4000) -> [1000, 4000)
        ('b', 0, ''),           # its window [0, 1000) is beyond the allowed lateness: side output
        ('b', 5500, ''),        # on time
        ('a', 0, '')]           # late, but [0, 1000) touches [1000, 4000): merges and fires again
# a fresh TypeInformation: PyFlink cannot pickle a tag whose nested types were used
late = OutputTag('late', Types.TUPLE([Types.STRING(), Types.LONG(), Types.STRING()]))
ds = env.from_collection(data, row) \
    .map(PauseBeforeLate(), row).rebalance() \
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(SecondField()))
windows = ds.key_by(lambda r: r[0]) \
    .window(EventTimeSessionWindows.with_gap(Time.seconds(1))) \
    .allowed_lateness(5000) \
    .side_output_late_data(late) \
    .process(Describe(), Types.STRING())
windows.print()
windows.get_side_output(late).map(lambda r: 'late %s %d' % (r[0], r[1])).print()
env.execute()
