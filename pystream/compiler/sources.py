"""Sources -> the first DataFrame of a stream: the translation of the source's class, from the
table ``compiler.connectors.SOURCES``."""
from __future__ import annotations

from pystream import graph
from pystream.compiler.connectors import SOURCES, lookup
from pystream.compiler.flow import Flow
from pystream.errors import PystreamError, UnsupportedFeatureError
from pystream.runtime.layout import ARRIVAL


def source_flow(compiler, node: graph.Source) -> Flow:
    """The Flow of a Source node."""
    if compiler.settings.batch and not node.bounded:
        raise PystreamError(
            "Detected an UNBOUNDED source (%s) with the execution mode set to BATCH: this "
            "combination is not allowed, use STREAMING or AUTOMATIC" % node.meta.label())
    translate = lookup(SOURCES, node.source)
    if translate is None:
        raise UnsupportedFeatureError("source %r is not supported by pystream" % (node.source,))
    flow = translate(node.source, compiler, node)
    if compiler.replays_watermarks and node.bounded and (flow.parallelism or 1) == 1:
        flow = with_arrivals(flow)
    return flow


def with_arrivals(flow: Flow) -> Flow:
    """``flow`` with the ``__arrival`` column its first Python stage fills in: a bounded
    input of a STREAMING job replays Flink's periodic watermarks (``runtime.arrivals``)."""
    from pyspark.sql import functions as F


    df = flow.df.withColumn(ARRIVAL, F.lit(None).cast("double"))
    return flow.but(df=df, layout=flow.layout.but(arrival=True))
