"""The sources behind ``from_collection`` and ``socket_text_stream`` (built by the environment)."""
from __future__ import annotations

from typing import List

from pystream.core.connectors.base import Boundedness, Source

__all__ = ["CollectionSource", "SocketSource"]


class CollectionSource(Source):
    """The elements of a Python collection, in order, from one (non-parallel) source."""

    def __init__(self, elements: List):
        self.elements = list(elements)

    def __repr__(self):
        return "Collection(%d elements)" % len(self.elements)


class SocketSource(Source):
    """Lines of text read from a TCP socket (unbounded)."""

    def __init__(self, host: str, port: int, delimiter: str = "\n", max_retry: int = 0):
        self.host = host
        self.port = int(port)
        self.delimiter = delimiter
        self.max_retry = max_retry

    def get_boundedness(self) -> Boundedness:
        return Boundedness.CONTINUOUS_UNBOUNDED

    def __repr__(self):
        return "Socket(%s:%d)" % (self.host, self.port)
