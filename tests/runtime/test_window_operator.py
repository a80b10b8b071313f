"""The window operator driven directly (no Spark): elements and watermarks in, output out.

This is where lateness is visible: in a Spark job, elements of one micro-batch all see the
same watermark (as PyFlink's elements do between two periodic watermarks).
"""
from pystream.common import Time, Types
from pystream.datastream import OutputTag, StreamExecutionEnvironment
from pystream.datastream.functions import ProcessWindowFunction
from pystream.datastream.window import TumblingEventTimeWindows
from pystream.runtime.context import TaskInfo
from pystream.runtime.keyed import KeyedHost, thaw
from pystream.runtime.state import DictBackend

LATE = OutputTag("late", Types.PICKLED_BYTE_ARRAY())


class WindowSum(ProcessWindowFunction):
    def process(self, key, context, elements):
        yield context.window().start, sum(e[1] for e in elements)


def window_operator(allowed_lateness_ms: int):
    env = StreamExecutionEnvironment.get_execution_environment()
    ds = env.from_collection([("a", 0)]).key_by(lambda e: e[0]) \
        .window(TumblingEventTimeWindows.of(Time.seconds(5))) \
        .allowed_lateness(allowed_lateness_ms).side_output_late_data(LATE).process(WindowSum())
    return ds._node.function


def run(function, events) -> list:
    """Feed ("element", value, timestamp) and ("watermark", ms) events to one key."""
    host = KeyedHost(function, TaskInfo("window", 1, 128), "Window(Process)")
    host.open()
    host.set_key("a", DictBackend())
    for event in events:
        if event[0] == "watermark":
            host.fire_due(event[1])
        else:
            host.process_run([event[1]], [event[2]])
    return [("late", thaw(v)) if tag else thaw(v) for tag, v, _ in host.drain()]


EVENTS = [("element", ("a", 1), 1000), ("element", ("a", 2), 7000), ("watermark", 6999),
          ("element", ("a", 3), 2000), ("watermark", 20000), ("element", ("a", 5), 3000)]


def test_late_elements_go_to_the_side_output():
    assert run(window_operator(0), EVENTS) == [
        (0, 1), ("late", ("a", 3)), (5000, 2), ("late", ("a", 5))]


def test_allowed_lateness_fires_the_window_again():
    assert run(window_operator(6000), EVENTS) == [
        (0, 1), (0, 4), (5000, 2), ("late", ("a", 5))]
