"""``CloseableIterator``: rows that come from a running query, which ``close()`` stops."""
from __future__ import annotations

from typing import Callable, Iterator, Optional

from pystream.common.types import Row

__all__ = ["CloseableIterator"]


class CloseableIterator:
    """The rows of a result; ``close()`` (or leaving a ``with`` block) stops its query."""

    def __init__(self, rows: Iterator[Row], close: Optional[Callable[[], None]] = None):
        self._rows = rows
        self._close = close

    def __iter__(self) -> "CloseableIterator":
        return self

    def __next__(self) -> Row:
        return next(self._rows)

    def next(self) -> Row:
        return next(self._rows)

    def close(self) -> None:
        if self._close is not None:
            close, self._close = self._close, None
            close()

    def __enter__(self) -> "CloseableIterator":
        return self

    def __exit__(self, exc_type, exc_val, exc_tb) -> None:
        self.close()
