"""``NumberSequenceSource``: the numbers from ``start`` to ``end`` (inclusive)."""
from __future__ import annotations

from pystream.core.connectors.base import Source

__all__ = ["NumberSequenceSource"]


class NumberSequenceSource(Source):
    """A bounded, parallel source of the longs ``start .. end`` (inclusive).

    >>> ds = env.from_source(NumberSequenceSource(1, 1000), WatermarkStrategy.no_watermarks(),
    ...                      'numbers')                                     # doctest: +SKIP
    """

    def __init__(self, start: int, end: int):
        if end < start:
            raise ValueError("end (%d) must not be smaller than start (%d)" % (end, start))
        self.start = int(start)
        self.end = int(end)

    def __repr__(self):
        return "NumberSequenceSource(%d, %d)" % (self.start, self.end)
