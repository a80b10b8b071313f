"""``%watch``: a live table of a stream's latest rows, its rate and watermark, until Ctrl-C."""
from __future__ import annotations

import contextlib
import sys
import time
from collections import deque
from typing import Any, Callable, Iterator, Optional, Tuple

from pyshell import render
from pyshell.preview import Cancellation, StreamTap, compiled_stream
from pyshell.sql import apply_op
from pystream.datastream import RuntimeExecutionMode
from pystream.datastream.planning import plan_of, record_key
from pystream.session import get_session
from pystream.table.planning import plan_of as table_plan_of

REFRESH_SECONDS = 0.5


class RateMeter:
    """Rows per second over the last ``window`` seconds of (time, total rows) samples."""

    def __init__(self, window: float = 5.0):
        self.window = window
        self.samples: deque = deque()

    def add(self, at: float, total: int) -> Optional[float]:
        self.samples.append((at, total))
        while len(self.samples) > 2 and at - self.samples[1][0] >= self.window:
            self.samples.popleft()
        (t0, n0), (t1, n1) = self.samples[0], self.samples[-1]
        return (n1 - n0) / (t1 - t0) if t1 > t0 else None


def watermark_of(progress: Optional[dict]) -> Optional[str]:
    """The query's watermark as Spark reports it (None when the stream has no event time)."""
    if not progress:
        return None
    return (progress.get("eventTime") or {}).get("watermark")


def watch(ds, n: int, cancel: Cancellation, show: Callable[[str], None],
          refresh: float = REFRESH_SECONDS, mode: str = "changelog") -> str:
    """Show the latest ``n`` rows of ``ds`` (``mode`` "table": the latest record of each of
    the first ``n`` keys, see ``pystream.datastream.planning.record_key``) every ``refresh``
    seconds until ``cancel`` is set or the stream ends; the query is stopped in every case.
    Returns the closing line."""
    started = time.monotonic()
    view = LatestPerKey(*record_key(ds)) if mode == "table" else LatestRows()
    reason, total = follow(ds, view, cancel, show, refresh, _text_frame(n), started, n)
    return render.watch_footer(reason, total, time.monotonic() - started)


def _text_frame(n: int) -> Callable:
    def draw(columns, rows, total, rate, watermark, elapsed, status, ended=False) -> str:
        return render.watch_frame(columns, rows, total, rate, watermark, elapsed, status)
    return draw


def follow(source, view, cancel: Cancellation, show: Callable, refresh: float,
           draw: Callable, started: float, n: int = 0,
           bounded_tables: bool = True) -> Tuple[str, int]:
    """Run ``source`` (a DataStream, or a Table) into ``view`` and show ``draw``'s frame of
    it every ``refresh`` seconds until it ends or ``cancel`` is set: (why it stopped, rows
    seen). The query is stopped in every case."""
    rows_of = _stream_rows if hasattr(source, "key_by") else _table_rows
    with rows_of(source, bounded_tables) as (tap, columns):
        return _show_until_stopped(tap, view.columns(columns), view, n, cancel, show, refresh,
                                   started, draw)


@contextlib.contextmanager
def _stream_rows(ds, bounded_tables: bool) -> Iterator[Tuple[Any, list]]:
    """A tap of a DataStream's records as a streaming query, and their columns."""
    plan = plan_of(ds, RuntimeExecutionMode.STREAMING)
    with compiled_stream(plan, with_watermark=True) as compiled:
        spark = get_session()
        if compiled.shuffle_partitions:
            spark.conf.set("spark.sql.shuffle.partitions", str(compiled.shuffle_partitions))
        with StreamTap(spark, compiled.df, compiled.decode, bounded=compiled.bounded) as tap:
            yield tap, compiled.columns


@contextlib.contextmanager
def _table_rows(table, bounded_tables: bool) -> Iterator[Tuple[Any, list]]:
    """A tap of a Table's changes (``op`` first): a streaming query over an unbounded table,
    the rows of a bounded one at once."""
    from pystream.compiler.table_job import TableJob

    plan = table_plan_of(table)
    job = TableJob(plan)
    names = list(job.rel.schema.names)
    if not job.unbounded:
        if not bounded_tables:
            raise ValueError("%watch follows a STREAMING query over an unbounded table; "
                             "%preview shows the rows of a bounded one")
        frame = job.frame()
        with BoundedTap(lambda: [[str(row.get_row_kind())] + list(row)
                                 for row in job.rows(frame)]) as tap:
            yield tap, ["op"] + names
        return
    df, updating = job.frame()

    def decode(arrow) -> list:
        columns = [arrow.column(i).to_pylist() for i in range(len(names))]
        kinds = arrow.column(len(names)).to_pylist() if updating else [0] * arrow.num_rows
        return [[ROW_KINDS[k]] + list(values) for k, values in zip(kinds, zip(*columns))]

    with StreamTap(get_session(), df, decode) as tap:
        yield tap, ["op"] + names


class BoundedTap:
    """A bounded table's rows, read once, behind ``StreamTap``'s interface."""

    def __init__(self, read: Callable[[], list]):
        self.read = read
        self.all: Optional[list] = None

    def __enter__(self) -> "BoundedTap":
        return self

    def __exit__(self, *exc) -> None:
        pass

    def poll(self) -> Tuple[bool, bool]:
        if self.all is None:
            self.all = self.read()
        return True, True

    def progress(self) -> Optional[dict]:
        return None

    def count(self) -> int:
        return len(self.all or [])

    def rows(self, offset: int, limit: int) -> list:
        return (self.all or [])[offset:offset + limit]


class LatestRows:
    """``%watch``'s changelog view: the latest rows."""

    def columns(self, columns: list) -> list:
        return list(columns)

    def rows(self, tap, n: int) -> Tuple[list, int]:
        """(the rows to show, the rows seen)."""
        total = tap.count()
        return tap.rows(max(total - n, 0), n), total

    def status(self) -> Optional[str]:
        return None


class Folding:
    """A table view: every new row of the tap folded into the current rows."""

    def __init__(self):
        self.seen = 0

    def rows(self, tap, n: int) -> Tuple[list, int]:
        total = tap.count()
        for row in tap.rows(self.seen, total - self.seen) if total > self.seen else ():
            self.fold(row)
        self.seen = total
        return self.current()[:n], total

    def fold(self, row) -> None:
        raise NotImplementedError

    def current(self) -> list:
        raise NotImplementedError


class LatestPerKey(Folding):
    """``%watch DS --mode table``: each key's latest record, keys in the order they came."""

    def __init__(self, key_of: Callable, keyed_by: str):
        super().__init__()
        self.key_of, self.keyed_by = key_of, keyed_by
        self.latest: dict = {}

    def columns(self, columns: list) -> list:
        return list(columns)

    def fold(self, record) -> None:
        self.latest[_hashable(self.key_of(record))] = record

    def current(self) -> list:
        return list(self.latest.values())

    def status(self) -> Optional[str]:
        return "%d keys (by %s)" % (len(self.latest), self.keyed_by)


def _hashable(key):
    try:
        hash(key)
        return key
    except TypeError:
        return repr(key)


class CurrentRows(Folding):
    """``%watch TABLE --mode table``: the rows an updating table's changes leave."""

    def __init__(self):
        super().__init__()
        self.rows_now: list = []

    def columns(self, columns: list) -> list:
        return list(columns[1:])  # without op

    def fold(self, row) -> None:
        apply_op(self.rows_now, row[0], tuple(row[1:]))

    def current(self) -> list:
        return self.rows_now

    def status(self) -> Optional[str]:
        return "%d current rows" % len(self.rows_now)


ROW_KINDS = ("+I", "-U", "+U", "-D")


def watch_table(table, n: int, cancel: Cancellation, show: Callable[[str], None],
                refresh: float = REFRESH_SECONDS, mode: str = "changelog") -> str:
    """``watch`` of a Table over an unbounded source: its latest changes (``op`` first; mode
    "table": the rows they leave), the rate and the watermark, until ``cancel``; the query
    is stopped in every case."""
    started = time.monotonic()
    view = CurrentRows() if mode == "table" else LatestRows()
    reason, total = follow(table, view, cancel, show, refresh, _text_frame(n), started, n,
                           bounded_tables=False)
    return render.watch_footer(reason, total, time.monotonic() - started)


def _show_until_stopped(tap, columns, view, n: int, cancel: Cancellation,
                        show: Callable, refresh: float, started: float, draw: Callable
                        ) -> Tuple[str, int]:
    """Redraw ``view`` until the stream ends or ``cancel`` is set: (why it stopped, rows
    seen)."""
    meter, rows, total = RateMeter(), [], 0
    while True:
        changed, ended = tap.poll()
        now = time.monotonic()
        if changed:
            rows, total = view.rows(tap, n)
        show(draw(columns, rows, total, meter.add(now, total), watermark_of(tap.progress()),
                  now - started, view.status(), ended))
        if ended:
            return "end", total
        if cancel.wait(refresh):
            return cancel.reason, total


class LiveTerminal:
    """Redraws a frame in place on the terminal (rich's Live); ``close()`` leaves the last
    frame on the screen."""

    def __init__(self):
        self.live = None

    def show(self, text: str) -> None:
        from rich.console import Console
        from rich.live import Live
        from rich.text import Text

        frame = Text.from_ansi(text, no_wrap=True, overflow="ellipsis")
        if self.live is None:
            self.live = Live(frame, console=Console(), auto_refresh=False)
            self.live.start()
        self.live.update(frame, refresh=True)

    def close(self) -> None:
        if self.live is not None:
            self.live.stop()
            self.live = None


class LiveDisplay:
    """Updates one IPython display in place (Jupyter, or any output that is not a terminal)."""

    def __init__(self):
        self.handle = None

    def show(self, text: str) -> None:
        from IPython.display import display

        data = {"text/plain": text}
        if self.handle is None:
            self.handle = display(data, raw=True, display_id=True)
        else:
            self.handle.update(data, raw=True)

    def close(self) -> None:
        """The display stays as last shown."""


def on_terminal() -> bool:
    """Whether the output is a terminal (else a notebook, a pipe: IPython's display)."""
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def live_output():
    """Where ``%watch`` draws: in place on a terminal, else through IPython's display."""
    return LiveTerminal() if on_terminal() else LiveDisplay()
