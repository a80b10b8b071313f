"""``DiscardingSink``: consumes every record and keeps none (for benchmarks and dry runs)."""
from __future__ import annotations

from pystream.core.connectors.base import Sink

__all__ = ["DiscardingSink"]


class DiscardingSink(Sink):
    """Runs the job to the end and drops its records (Spark's ``noop`` sink).

    >>> ds.sink_to(DiscardingSink())                                    # doctest: +SKIP
    """

    name = "Discarding Sink"

    def __repr__(self):
        return "DiscardingSink()"
