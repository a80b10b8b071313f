"""``ChangelogMode``: which kinds of change a changelog holds (PyFlink's class of the same
name), given to ``from_changelog_stream`` and ``to_changelog_stream``."""
from __future__ import annotations

from typing import FrozenSet, Iterable

from pystream.common.types import RowKind

__all__ = ["ChangelogMode"]


class ChangelogMode:
    """The row kinds of a changelog. ``insert_only()``: +I; ``upsert()``: +I, +U, -D of rows
    identified by the primary key (no -U: an update replaces the key's row); ``all()``: +I,
    -U, +U, -D."""

    def __init__(self, kinds: Iterable[RowKind], upsert: bool = False):
        self._kinds: FrozenSet[RowKind] = frozenset(kinds)
        self._upsert = upsert

    @staticmethod
    def insert_only() -> "ChangelogMode":
        return ChangelogMode([RowKind.INSERT])

    @staticmethod
    def upsert() -> "ChangelogMode":
        return ChangelogMode([RowKind.INSERT, RowKind.UPDATE_AFTER, RowKind.DELETE],
                             upsert=True)

    @staticmethod
    def all() -> "ChangelogMode":
        return ChangelogMode(list(RowKind))

    def contains(self, kind: RowKind) -> bool:
        return kind in self._kinds

    def contains_only(self, kind: RowKind) -> bool:
        return self._kinds == {kind}

    @property
    def is_upsert(self) -> bool:
        """Updates come without their -U: the key's previous row is the one they replace."""
        return self._upsert

    def __repr__(self) -> str:
        return "[%s]" % ", ".join(str(k) for k in sorted(self._kinds, key=lambda k: k.value))
