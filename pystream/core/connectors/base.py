"""Base classes of sources and sinks."""
from __future__ import annotations

from abc import ABC, abstractmethod
from enum import Enum
from typing import Any, Optional

__all__ = ["Source", "Sink", "Boundedness", "DeliveryGuarantee", "StreamTransformer",
           "SupportsPreprocessing"]


class Boundedness(Enum):
    """Whether a source ends (BOUNDED) or runs forever (CONTINUOUS_UNBOUNDED)."""

    BOUNDED = 0
    CONTINUOUS_UNBOUNDED = 1


class DeliveryGuarantee(Enum):
    """What a sink promises when a job restarts."""

    EXACTLY_ONCE = 0
    AT_LEAST_ONCE = 1
    NONE = 2


class Source:
    """A source for ``env.from_source``.

    ``Source("a.java.SourceClass")`` (a Java source, in PyFlink) can be built; a job using it
    fails when compiled: pystream runs no Java sources.
    """

    def __init__(self, source: Any = None):
        self._java_source = source

    def __repr__(self):
        if getattr(self, "_java_source", None) is not None:
            return "Source(%r) (a Java source)" % (self._java_source,)
        return object.__repr__(self)

    def get_boundedness(self) -> Boundedness:
        return Boundedness.BOUNDED

    @property
    def bounded(self) -> bool:
        return self.get_boundedness() is Boundedness.BOUNDED


class Sink:
    """A sink for ``DataStream.sink_to``.

    ``Sink("a.java.SinkClass")`` (a Java sink, in PyFlink) can be built; a job using it fails
    when compiled: pystream runs no Java sinks.
    """

    def __init__(self, sink: Any = None):
        self._java_sink = sink

    def __repr__(self):
        if getattr(self, "_java_sink", None) is not None:
            return "Sink(%r) (a Java sink)" % (self._java_sink,)
        return object.__repr__(self)


class StreamTransformer(ABC):
    """Transforms the stream a sink receives (see ``SupportsPreprocessing``)."""

    @abstractmethod
    def apply(self, ds):
        pass


class SupportsPreprocessing(ABC):
    """A sink that transforms its input stream before writing it."""

    @abstractmethod
    def get_transformer(self) -> Optional[StreamTransformer]:
        pass


class UnsupportedConnector:
    """A connector pystream knows but cannot run on Spark: it is built with PyFlink's
    constructors and builders, which hold its settings, and a job using it fails when it is
    compiled, with an ``UnsupportedFeatureError`` naming the connector (its ``repr``)."""

    connector_name = "this"

    def __repr__(self):
        return "%s (the %s connector)" % (type(self).__name__, self.connector_name)
