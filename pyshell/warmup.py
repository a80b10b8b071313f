"""The background warm-up: tiny previews that pay Spark's first-query costs (Python workers,
the rate source, transformWithState and its state store, the memory sink, a bounded collect)
before the user's first ``%preview`` does."""
from __future__ import annotations

from pyshell.preview import Cancellation, Limits, preview
from pystream.common import Types, WatermarkStrategy
from pystream.datastream import StreamExecutionEnvironment
from pystream.datastream.connectors import DataGeneratorSource

WARM_UP_TIMEOUT = 120.0


def warm_up_streams(env) -> list:
    """The streams the warm-up previews: a keyed rolling reduce over an unbounded generator,
    and a bounded map."""
    pairs = Types.TUPLE([Types.LONG(), Types.LONG()])
    unbounded = env.from_source(DataGeneratorSource(lambda i: (i % 2, i), rows_per_second=10),
                                WatermarkStrategy.no_watermarks(), "warm-up", pairs)
    keyed = unbounded.key_by(lambda t: t[0]).reduce(lambda a, b: (a[0], a[1] + b[1]))
    bounded = env.from_collection([1, 2, 3], Types.LONG()).map(lambda x: x + 1, Types.LONG())
    return [keyed, bounded]


def warm_up(cancel: Cancellation) -> None:
    """Run the warm-up previews until done or ``cancel`` is set (which stops its query)."""
    for ds in warm_up_streams(StreamExecutionEnvironment.get_execution_environment()):
        if cancel.is_set():
            return
        preview(ds, Limits(n=2, timeout=WARM_UP_TIMEOUT, idle=None), cancel)
