"""``%chart``: a live chart of a stream or a table, redrawn as rows arrive.

The pure part turns rows into series (``chart_data``): x and y fields (by default the window
end of a windowed result and its last numeric field), one series per key (``--by``), the last
points of each. Two renderers draw the same ``ChartData``: ``terminal_chart`` (plotext, text
for rich's Live) and ``png_chart`` (matplotlib, for a notebook's display). The query runs as
``%watch``'s does (``pyshell.watch``), and stops on Ctrl-C, ``--timeout`` or ``-n`` rows.
"""
from __future__ import annotations

import datetime
import io
import numbers
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from pyshell import render
from pyshell.preview import Cancellation
from pyshell.sql import apply_op
from pyshell.watch import LiveTerminal, follow, on_terminal

KINDS = ("line", "bar", "scatter")
WINDOW_ENDS = ("window_end", "w_end", "wend", "window_time")
KEPT_ROWS = 5000  # rows a chart keeps (the series need only their last points)


@dataclass(frozen=True)
class ChartSpec:
    """What to draw: the chart's kind, its fields (None: chosen from the rows), the field
    whose values are the series, and how many points each series keeps."""

    kind: str = "line"
    x: Optional[str] = None
    y: Optional[str] = None
    by: Optional[str] = None
    last: int = 50


@dataclass(frozen=True)
class ChartData:
    """The series to draw ({name: [(x, y), ...]}), the axes' names and the caption."""

    series: Dict[str, List[Tuple[Any, float]]]
    x: str
    y: str
    kind: str
    caption: str


def _is_number(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def choose_axes(columns: Sequence[str], rows: Sequence[Sequence[Any]],
                spec: ChartSpec) -> Tuple[Optional[str], Optional[str]]:
    """(x, y): the spec's, else x the window end of a windowed result (None: the rows' order)
    and y the last field holding numbers that is neither x nor the series field."""
    lower = {c.lower(): c for c in columns}
    x = spec.x or next((lower[w] for w in WINDOW_ENDS if w in lower), None)
    y = spec.y
    if y is None:
        numeric = [c for i, c in enumerate(columns)
                   if c not in (x, spec.by, "op")
                   and any(_is_number(r[i]) for r in rows if i < len(r))]
        y = numeric[-1] if numeric else None
    for name in (spec.x, spec.y, spec.by):
        if name is not None and name not in columns:
            raise ValueError("no field %r; the fields are %s" % (name, ", ".join(columns)))
    return x, y


def chart_data(columns: Sequence[str], rows: Sequence[Sequence[Any]], spec: ChartSpec,
               caption: str) -> ChartData:
    """The series of ``rows`` (lists of the ``columns``' values) as ``spec`` says."""
    x, y = choose_axes(columns, rows, spec)
    series: Dict[str, List[Tuple[Any, float]]] = {}
    if y is not None:
        at = {c: i for i, c in enumerate(columns)}
        for n, row in enumerate(rows):
            value = row[at[y]]
            if not _is_number(value):
                continue
            name = str(row[at[spec.by]]) if spec.by else y
            series.setdefault(name, []).append((row[at[x]] if x else n, float(value)))
        for name, points in series.items():
            if x and all(p[0] is not None for p in points):
                points.sort(key=lambda p: p[0])
            series[name] = points[-spec.last:]
    return ChartData(series, x or "row", y or "(no numeric field)", spec.kind, caption)


def caption(total: int, watermark: Optional[str], elapsed: float, ended: bool) -> str:
    """The line under a chart: rows seen, the watermark, the time, how to stop."""
    parts = ["%d row%s" % (total, "" if total == 1 else "s")]
    if watermark:
        parts.append("watermark %s" % watermark)
    parts.append(render.duration(elapsed))
    if not ended:
        parts.append("Ctrl-C stops")
    return " · ".join(parts)


def _x_labels(points_x: Sequence[Any]) -> Tuple[List[float], Optional[List[str]]]:
    """Positions for x values, and labels when they are not numbers (times, strings)."""
    if all(_is_number(v) for v in points_x):
        return [float(v) for v in points_x], None
    labels = [v.strftime("%H:%M:%S") if isinstance(v, (datetime.datetime, datetime.time))
              else str(v) for v in points_x]
    return list(range(len(points_x))), labels


def _shared_x(data: ChartData) -> List[Any]:
    """The x values of every series, in order (bars and labelled axes share them)."""
    values = {p[0] for points in data.series.values() for p in points}
    try:
        return sorted(values)
    except TypeError:
        return sorted(values, key=str)


def terminal_chart(data: ChartData, width: int = 100, height: int = 22) -> str:
    """The chart as text with ANSI colours (plotext)."""
    import plotext as plt

    plt.clear_figure()
    plt.plotsize(width, height)
    plt.theme("pro")
    xs = _shared_x(data)
    positions, labels = _x_labels(xs)
    where = dict(zip(xs, positions))
    names = list(data.series)
    if data.kind == "bar" and names:
        values = [[dict(data.series[n]).get(x, 0.0) for x in xs] for n in names]
        ticks = labels or [str(x) for x in xs]
        if len(names) == 1:
            plt.bar(ticks, values[0], label=names[0])
        else:
            plt.multiple_bar(ticks, values, labels=names)
    else:
        draw = plt.scatter if data.kind == "scatter" else plt.plot
        for name in names:
            points = data.series[name]
            draw([where[p[0]] for p in points], [p[1] for p in points], label=name,
                 marker="braille")
        if labels:
            step = max(1, len(labels) // 6)
            plt.xticks(positions[::step], labels[::step])
    plt.xlabel(data.x)
    plt.ylabel(data.y)
    plt.title(data.caption)
    return plt.build()


def png_chart(data: ChartData) -> bytes:
    """The chart as a PNG (matplotlib, without pyplot's global state)."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7.5, 3.6))
    axes = figure.subplots()
    xs = _shared_x(data)
    positions, labels = _x_labels(xs)
    where = dict(zip(xs, positions))
    names = list(data.series)
    if data.kind == "bar" and names:
        width = 0.8 / len(names)
        for i, name in enumerate(names):
            values = dict(data.series[name])
            axes.bar([p + i * width for p in range(len(xs))], [values.get(x, 0.0) for x in xs],
                     width=width, label=name)
        axes.set_xticks([p + 0.4 - width / 2 for p in range(len(xs))],
                        labels or [str(x) for x in xs], rotation=30, fontsize=8)
    else:
        for name in names:
            points = data.series[name]
            px, py = [where[p[0]] for p in points], [p[1] for p in points]
            if data.kind == "scatter":
                axes.scatter(px, py, label=name, s=12)
            else:
                axes.plot(px, py, label=name, marker=".")
        if labels:
            step = max(1, len(labels) // 8)
            axes.set_xticks(positions[::step], labels[::step], rotation=30, fontsize=8)
    axes.set_xlabel(data.x)
    axes.set_ylabel(data.y)
    if len(names) > 1:
        axes.legend(fontsize=8)
    axes.set_title(data.caption, fontsize=9)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=80, bbox_inches="tight")
    return buffer.getvalue()


# ---------------------------------------------------------------------------------------------
# the rows a chart keeps, and where it draws


class ChartRows:
    """The rows of a stream or an append-only table as they come (the last ``KEPT_ROWS``);
    an updating table's changes fold into its current rows (a bar per key that grows)."""

    def __init__(self, limit: Optional[int] = None, cancel: Optional[Cancellation] = None):
        self.kept: deque = deque(maxlen=KEPT_ROWS)
        self.current: Optional[list] = None
        self.seen = 0
        self.changelog = False
        self.limit, self.cancel = limit, cancel

    def columns(self, columns: list) -> list:
        self.changelog = columns[:1] == ["op"]  # a Table's changes, op first
        return columns[1:] if self.changelog else list(columns)

    def rows(self, tap, n: int) -> Tuple[list, int]:
        total = tap.count()
        for row in tap.rows(self.seen, total - self.seen) if total > self.seen else ():
            self.fold(row)
        self.seen = total
        if self.limit is not None and total >= self.limit and self.cancel is not None:
            self.cancel.cancel("rows")
        return list(self.current if self.current is not None else self.kept), total

    def fold(self, row) -> None:
        if self.changelog:
            if self.current is None:
                self.current = []
            apply_op(self.current, row[0], tuple(row[1:]))
        elif isinstance(row, (str, bytes)) or not hasattr(row, "__iter__"):
            self.kept.append([row])  # a stream of single values: one column
        else:
            self.kept.append(list(row))

    def status(self) -> Optional[str]:
        return None


class TerminalChart:
    """Redraws the chart in place on the terminal (rich's Live)."""

    def __init__(self):
        self.live = LiveTerminal()

    def show(self, data: ChartData) -> None:
        import shutil

        size = shutil.get_terminal_size((100, 30))
        self.live.show(terminal_chart(data, min(size.columns, 120) - 1,
                                      max(10, min(size.lines - 4, 26))))

    def close(self) -> None:
        self.live.close()


class NotebookChart:
    """Updates one display in place with the chart's PNG (Jupyter)."""

    def __init__(self):
        self.handle = None

    def show(self, data: ChartData) -> None:
        from IPython.display import display

        shown = {"image/png": png_chart(data), "text/plain": data.caption}
        if self.handle is None:
            self.handle = display(shown, raw=True, display_id=True)
        else:
            self.handle.update(shown, raw=True)

    def close(self) -> None:
        """The chart stays as last drawn."""


def live_chart_output():
    """Where ``%chart`` draws: in place on a terminal, else an updating notebook display."""
    return TerminalChart() if on_terminal() else NotebookChart()


def chart(source, spec: ChartSpec, cancel: Cancellation, show: Callable[[ChartData], None],
          refresh: float = 0.5, rows: Optional[int] = None,
          timeout: Optional[float] = None) -> str:
    """Draw ``source`` (a DataStream or a Table) until the stream ends, ``rows`` rows came,
    ``timeout`` seconds passed or ``cancel`` is set; the query is stopped in every case.
    Returns the closing line."""
    if spec.kind not in KINDS:
        raise ValueError("--kind is one of %s" % ", ".join(KINDS))
    timer = None
    if timeout is not None:
        timer = threading.Timer(timeout, cancel.cancel, args=("timeout",))
        timer.daemon = True
        timer.start()
    started = time.monotonic()

    def draw(columns, shown, total, rate, watermark, elapsed, status, ended=False):
        return chart_data(columns, shown, spec, "%s · %s" % (
            spec.kind, caption(total, watermark, elapsed, ended)))

    try:
        reason, total = follow(source, ChartRows(rows, cancel), cancel,
                               lambda data: show(data), refresh, draw, started)
    finally:
        if timer is not None:
            timer.cancel()
    return render.watch_footer(reason, total, time.monotonic() - started, rows or 0,
                               timeout or 0)
