"""``HybridSource`` (PyFlink's ``pyflink.datastream.connectors.hybrid_source``).

Built as in PyFlink; a job reading it fails when compiled (``UnsupportedFeatureError``): pystream
has no Spark translation that switches from one source to the next.
"""
from __future__ import annotations

from typing import List

from pystream.core.connectors.base import Boundedness, Source, UnsupportedConnector

__all__ = ["HybridSource", "HybridSourceBuilder"]


class HybridSource(UnsupportedConnector, Source):
    """Hybrid source that switches underlying sources based on configured source chain.

    >>> hybrid_source = HybridSource.builder(file_source).add_source(kafka_source).build()
    ...                                                                # doctest: +SKIP
    """

    connector_name = "hybrid source"

    def __init__(self, sources: List[Source]):
        super().__init__()
        self._sources = list(sources)

    @property
    def sources(self) -> List[Source]:
        """The sources, in the order they are read."""
        return list(self._sources)

    def get_boundedness(self) -> Boundedness:
        return self._sources[-1].get_boundedness()

    @staticmethod
    def builder(first_source: Source) -> "HybridSourceBuilder":
        return HybridSourceBuilder(first_source)


class HybridSourceBuilder:
    """Builds a HybridSource: its first source, then ``add_source`` for the next ones."""

    def __init__(self, first_source: Source):
        self._sources = [first_source]

    def add_source(self, source: Source) -> "HybridSourceBuilder":
        self._sources.append(source)
        return self

    def build(self) -> HybridSource:
        return HybridSource(self._sources)
