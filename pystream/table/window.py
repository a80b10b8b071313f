"""Group windows (``Tumble``, ``Slide``, ``Session``) and over windows (``Over``), as in
PyFlink's ``pyflink.table.window``: builders whose final ``alias(...)`` gives the window."""
from __future__ import annotations

import datetime
from typing import Optional, Union

from pystream.relational import expressions as ex
from pystream.relational import operations as ops
from pystream.table.expression import Expression, to_node
from pystream.util.exceptions import ValidationException

__all__ = ["Tumble", "Slide", "Session", "Over", "GroupWindow", "OverWindow"]


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


class Tumble:
    """Tumbling windows: ``Tumble.over(lit(10).minutes).on(col('ts')).alias('w')``."""

    @classmethod
    def over(cls, size: Union[str, Expression]) -> "_Windowed":
        millis, rows = _size(size)
        return _Windowed(kind="tumble", size=millis, rows=rows)


class Slide:
    """Sliding windows: ``Slide.over(lit(10).minutes).every(lit(5).minutes).on(...).alias(...)``."""

    @classmethod
    def over(cls, size: Union[str, Expression]) -> "_SlideWithSize":
        millis, rows = _size(size)
        return _SlideWithSize(millis, rows)


class Session:
    """Session windows: ``Session.with_gap(lit(10).minutes).on(col('ts')).alias('w')``."""

    @classmethod
    def with_gap(cls, gap: Union[str, Expression]) -> "_Windowed":
        millis, _ = _size(gap)
        return _Windowed(kind="session", gap=millis)


class _SlideWithSize:
    def __init__(self, size: int, rows: bool):
        self._size = size
        self._rows = rows

    def every(self, slide: Union[str, Expression]) -> "_Windowed":
        millis, _ = _size(slide)
        return _Windowed(kind="slide", size=self._size, slide=millis, rows=self._rows)


class _Windowed:
    def __init__(self, **spec):
        self._spec = spec
        self._time_field: Optional[str] = None

    def on(self, time_field: Union[str, Expression]) -> "_Windowed":
        self._time_field = _field_name(time_field)
        return self

    def alias(self, alias: str) -> GroupWindow:
        if self._time_field is None:
            raise ValidationException("A group window needs a time field: call on(...) first.")
        return GroupWindow(ops.GroupWindow(time_field=self._time_field, alias=_name(alias),
                                           **self._spec))


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
    def order_by(cls, order_by) -> "_OverOrdered":
        return _OverOrdered((), order_by)

    @classmethod
    def partition_by(cls, *partition_by) -> "_OverPartitioned":
        return _OverPartitioned(tuple(to_node(p) for p in partition_by))


class _OverPartitioned:
    def __init__(self, partition_by):
        self._partition_by = partition_by

    def order_by(self, order_by) -> "_OverOrdered":
        return _OverOrdered(self._partition_by, order_by)


class _OverOrdered:
    def __init__(self, partition_by, order_by):
        node = to_node(order_by)
        self._window = ops.OverWindow(
            partition_by=partition_by,
            order_by=(node if isinstance(node, ex.Ordering) else ex.Ordering(node),),
            rows=False, preceding=None, following=0)

    def preceding(self, preceding) -> "_OverOrdered":
        amount, rows = _size(preceding)
        self._window = ops.OverWindow(partition_by=self._window.partition_by,
                                      order_by=self._window.order_by, rows=rows,
                                      preceding=amount, following=0)
        return self

    def following(self, following) -> "_OverOrdered":
        amount, _ = _size(following)
        self._window = ops.OverWindow(partition_by=self._window.partition_by,
                                      order_by=self._window.order_by, rows=self._window.rows,
                                      preceding=self._window.preceding, following=amount)
        return self

    def alias(self, alias: str) -> OverWindow:
        w = self._window
        return OverWindow(ops.OverWindow(partition_by=w.partition_by, order_by=w.order_by,
                                         rows=w.rows, preceding=w.preceding,
                                         following=w.following, alias=_name(alias)))
