"""Sinks that bring records back to this Python process: ``print()`` and
``execute_and_collect()``."""
from __future__ import annotations

from typing import Optional

from pystream.core.connectors.base import Sink

__all__ = ["PrintSink", "CollectSink"]


class PrintSink(Sink):
    """Prints each record (Flink's toString) to stdout, or stderr with ``to_stderr``."""

    def __init__(self, sink_identifier: Optional[str] = None, to_stderr: bool = False):
        self.sink_identifier = sink_identifier
        self.to_stderr = to_stderr

    def __repr__(self):
        return "Print(%s)" % (self.sink_identifier or "stdout")


class CollectSink(Sink):
    """Hands records to the iterator of ``execute_and_collect``."""

    def __init__(self, limit: Optional[int] = None):
        self.limit = limit
        self.consumer = None  # set by the collecting iterator before the job starts

    def __repr__(self):
        return "Collect(limit=%s)" % self.limit
