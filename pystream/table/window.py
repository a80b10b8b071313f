"""Group windows (``Tumble``, ``Slide``, ``Session``) and over windows (``Over``), as in
PyFlink's ``pyflink.table.window``: builders whose final ``alias(...)`` gives the window."""
from __future__ import annotations

import datetime
from dataclasses import replace
from typing import Union

from pystream.relational import expressions as ex
from pystream.relational import operations as ops
from pystream.table.expression import Expression, to_node
from pystream.util.exceptions import ValidationException

__all__ = ["Tumble", "Slide", "Session", "Over", "GroupWindow", "OverWindow", "TumbleWithSize",
           "TumbleWithSizeOnTime", "SlideWithSize", "SlideWithSizeAndSlide",
           "SlideWithSizeAndSlideOnTime", "SessionWithGap", "SessionWithGapOnTime",
           "OverWindowPartitioned", "OverWindowPartitionedOrdered",
           "OverWindowPartitionedOrderedPreceding"]


def _field_name(time_field) -> str:
    node = to_node(time_field)
    if isinstance(node, ex.Column):
        return node.name
    if isinstance(node, ex.Call) and node.name == "declare_proctime":
        return node.args[0].name
    raise ValidationException("A window's time field must be a field reference, not %s." % node)


def _size(value) -> (int, bool):
    """Milliseconds of a time interval, or a row count; and whether it counts rows."""
    node = to_node(value)
    if isinstance(node, ex.Literal):
        if isinstance(node.value, datetime.timedelta):
            return int(node.value / datetime.timedelta(milliseconds=1)), False
        if isinstance(node.value, int):
            return node.value, True
    if isinstance(node, ex.Symbol) and node.name in ("UNBOUNDED_ROW", "UNBOUNDED_RANGE"):
        return None, node.name == "UNBOUNDED_ROW"
    if isinstance(node, ex.Symbol) and node.name in ("CURRENT_ROW", "CURRENT_RANGE"):
        return 0, node.name == "CURRENT_ROW"
    raise ValidationException("A window size must be an interval literal (lit(10).minutes) or a "
                              "row interval (row_interval(2)), not %s." % node)


class GroupWindow:
    """A group window with an alias, for ``Table.window(...)``."""

    def __init__(self, window: ops.GroupWindow):
        self._window = window


class _Described:
    """A group window being described: the fields of its ``ops.GroupWindow`` so far. Each
    step returns a new description of the next class, as PyFlink's builders do."""

    def __init__(self, **spec):
        self._spec = spec

    def _next(self, cls, **more):
        return cls(**self._spec, **more)


class _OnTime(_Described):
    def alias(self, alias: str) -> GroupWindow:
        return GroupWindow(ops.GroupWindow(alias=_name(alias), **self._spec))


class Tumble:
    """Tumbling windows: ``Tumble.over(lit(10).minutes).on(col('ts')).alias('w')``."""

    @classmethod
    def over(cls, size: Union[str, Expression]) -> "TumbleWithSize":
        millis, rows = _size(size)
        return TumbleWithSize(kind="tumble", size=millis, rows=rows)


class TumbleWithSize(_Described):
    def on(self, time_field: Union[str, Expression]) -> "TumbleWithSizeOnTime":
        return self._next(TumbleWithSizeOnTime, time_field=_field_name(time_field))


class TumbleWithSizeOnTime(_OnTime):
    pass


class Slide:
    """Sliding windows: ``Slide.over(lit(10).minutes).every(lit(5).minutes).on(...).alias(...)``."""

    @classmethod
    def over(cls, size: Union[str, Expression]) -> "SlideWithSize":
        millis, rows = _size(size)
        return SlideWithSize(kind="slide", size=millis, rows=rows)


class SlideWithSize(_Described):
    def every(self, slide: Union[str, Expression]) -> "SlideWithSizeAndSlide":
        millis, _ = _size(slide)
        return self._next(SlideWithSizeAndSlide, slide=millis)


class SlideWithSizeAndSlide(_Described):
    def on(self, time_field: Union[str, Expression]) -> "SlideWithSizeAndSlideOnTime":
        return self._next(SlideWithSizeAndSlideOnTime, time_field=_field_name(time_field))


class SlideWithSizeAndSlideOnTime(_OnTime):
    pass


class Session:
    """Session windows: ``Session.with_gap(lit(10).minutes).on(col('ts')).alias('w')``."""

    @classmethod
    def with_gap(cls, gap: Union[str, Expression]) -> "SessionWithGap":
        millis, _ = _size(gap)
        return SessionWithGap(kind="session", gap=millis)


class SessionWithGap(_Described):
    def on(self, time_field: Union[str, Expression]) -> "SessionWithGapOnTime":
        return self._next(SessionWithGapOnTime, time_field=_field_name(time_field))


class SessionWithGapOnTime(_OnTime):
    pass


def _name(alias) -> str:
    node = to_node(alias)
    return node.name if isinstance(node, ex.Column) else str(alias)


class OverWindow:
    """An over window with an alias, for ``Table.over_window(...)``."""

    def __init__(self, window: ops.OverWindow):
        self._window = window


class Over:
    """Over windows: ``Over.partition_by(col('a')).order_by(col('ts')).preceding(
    UNBOUNDED_RANGE).alias('w')``."""

    @classmethod
    def order_by(cls, order_by) -> "OverWindowPartitionedOrdered":
        return OverWindowPartitioned(()).order_by(order_by)

    @classmethod
    def partition_by(cls, *partition_by) -> "OverWindowPartitioned":
        return OverWindowPartitioned(tuple(to_node(p) for p in partition_by))


class OverWindowPartitioned:
    def __init__(self, partition_by: tuple):
        self._partition_by = partition_by

    def order_by(self, order_by) -> "OverWindowPartitionedOrdered":
        node = to_node(order_by)
        return OverWindowPartitionedOrdered(ops.OverWindow(
            partition_by=self._partition_by,
            order_by=(node if isinstance(node, ex.Ordering) else ex.Ordering(node),),
            rows=False, preceding=None, following=0))


class _OverDescribed:
    """An over window being described: its ``ops.OverWindow`` so far."""

    def __init__(self, window: ops.OverWindow):
        self._window = window

    def alias(self, alias: str) -> OverWindow:
        return OverWindow(replace(self._window, alias=_name(alias)))


class OverWindowPartitionedOrdered(_OverDescribed):
    def preceding(self, preceding) -> "OverWindowPartitionedOrderedPreceding":
        amount, rows = _size(preceding)
        return OverWindowPartitionedOrderedPreceding(
            replace(self._window, rows=rows, preceding=amount))


class OverWindowPartitionedOrderedPreceding(_OverDescribed):
    def following(self, following) -> "OverWindowPartitionedOrderedPreceding":
        amount, _ = _size(following)
        return OverWindowPartitionedOrderedPreceding(replace(self._window, following=amount))
