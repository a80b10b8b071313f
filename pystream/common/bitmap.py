"""A BITMAP value as pystream hands it to Python: a set of unsigned 32-bit integers, in
order, written as Flink writes it (``{1,2,4294967295}``). PyFlink 2.3 cannot return a
BITMAP to Python at all (``Unsupported type: BITMAP``); pystream gives this."""
from __future__ import annotations

from typing import Iterable, Iterator, Tuple

__all__ = ["Bitmap", "TEXT_LIMIT"]

# RoaringBitmap's toString stops (with "...") once its text is longer than this
TEXT_LIMIT = 0x80000


class Bitmap:
    """The values of a bitmap, unsigned and sorted; ``str()`` is Flink's BITMAP_TO_STRING."""

    __slots__ = ("values",)

    def __init__(self, values: Iterable[int] = ()):
        self.values: Tuple[int, ...] = tuple(sorted({v & 0xFFFFFFFF for v in values}))

    def __str__(self) -> str:
        text = "{"
        for n, value in enumerate(self.values):
            if n:
                text += ","
                if len(text) > TEXT_LIMIT:
                    return text + "...}"
            text += str(value)
        return text + "}"

    def __repr__(self) -> str:
        return "Bitmap(%s)" % self

    def __iter__(self) -> Iterator[int]:
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)

    def __eq__(self, other) -> bool:
        return isinstance(other, Bitmap) and self.values == other.values

    def __hash__(self) -> int:
        return hash(self.values)
