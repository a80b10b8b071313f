"""``DataGeneratorSource``: records made from their index (after Flink's Java one)."""
from __future__ import annotations

from typing import Any, Callable, Optional

from pystream.core.connectors.base import Boundedness, Source

__all__ = ["DataGeneratorSource"]


class DataGeneratorSource(Source):
    """Generates ``generator_function(0), generator_function(1), ...``.

    ``count`` records (None: forever), at most ``rows_per_second`` per second (None: as fast as
    possible for a bounded source; 1 per second for an unbounded one, like Spark's rate source).
    It reads with parallelism 1 unless ``set_parallelism`` says otherwise, so records come in
    index order. Good for exploring and teaching:

    >>> source = DataGeneratorSource(lambda i: (i % 3, i), count=None, rows_per_second=5)
    >>> ds = env.from_source(source, WatermarkStrategy.no_watermarks(), 'gen',
    ...                      Types.TUPLE([Types.LONG(), Types.LONG()]))  # doctest: +SKIP
    """

    def __init__(self, generator_function: Callable[[int], Any], count: Optional[int] = None,
                 rows_per_second: Optional[float] = None):
        if not callable(generator_function):
            raise TypeError("generator_function must be callable (index -> record)")
        if count is not None and count < 0:
            raise ValueError("count must be >= 0 or None (unbounded)")
        if rows_per_second is not None and rows_per_second <= 0:
            raise ValueError("rows_per_second must be positive")
        self.generator_function = generator_function
        self.count = count
        self.rows_per_second = rows_per_second

    def get_boundedness(self) -> Boundedness:
        return Boundedness.BOUNDED if self.count is not None else Boundedness.CONTINUOUS_UNBOUNDED

    def __repr__(self):
        return "DataGeneratorSource(count=%s, rows_per_second=%s)" % (self.count,
                                                                      self.rows_per_second)
