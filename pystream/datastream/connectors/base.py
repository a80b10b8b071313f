"""Base classes of sources and sinks."""
from __future__ import annotations

from enum import Enum

__all__ = ["Source", "Sink", "Boundedness", "DeliveryGuarantee"]


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
    """A source for ``env.from_source``."""

    def get_boundedness(self) -> Boundedness:
        return Boundedness.BOUNDED

    @property
    def bounded(self) -> bool:
        return self.get_boundedness() is Boundedness.BOUNDED


class Sink:
    """A sink for ``DataStream.sink_to``."""
