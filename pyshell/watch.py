"""``%watch``: a live table of a stream's latest rows, its rate and watermark, until Ctrl-C."""
from __future__ import annotations

import shutil
import sys
import time
from collections import deque
from typing import Callable, Optional, Tuple

from pyshell import render
from pyshell.preview import Cancellation, StreamTap, compiled_stream, stream_node

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


def compile_watched(ds):
    """``ds`` compiled for a streaming query that reports the watermark when event time is set.

    Keyed event-time operators declare the watermark themselves; for other streams the
    records keep their ``__ts`` column and the watermark is declared on it. This is
    ``pystream.compiler.compile_stream`` plus the timestamps.
    """
    from dataclasses import replace

    from pystream import graph
    from pystream.compiler import CompiledStream, compile_stream
    from pystream.compiler.job import _activate
    from pystream.compiler.translate import Compiler
    from pystream.runtime.layout import TS, Layout
    from pystream.session import get_session

    node = stream_node(ds)
    if any(isinstance(n, graph.Keyed) for n in graph.walk([node])):
        return compile_stream(ds, batch=False)
    spark = get_session()
    _activate(spark)
    settings = replace(ds.get_execution_environment()._job_settings(None), batch=False)
    compiler = Compiler(spark, settings, [node])
    flow = compiler.flow(node)
    flow = compiler.materialize(flow, Layout(flow.type_info, timestamped=flow.event_time))
    df = flow.df
    if flow.event_time:
        df = df.withWatermark(TS, "%d milliseconds" % (flow.watermark_delay_ms or 0))
    return CompiledStream(df=df, type_info=flow.type_info, streaming=True, bounded=flow.bounded,
                          shuffle_partitions=compiler.shuffle_partitions,
                          temp_dirs=compiler.temp_dirs)


def watch(ds, n: int, cancel: Cancellation, show: Callable[[str], None],
          refresh: float = REFRESH_SECONDS) -> str:
    """Show the latest ``n`` rows of ``ds`` every ``refresh`` seconds until ``cancel`` is set
    or the stream ends; the query is stopped in every case. Returns the closing line."""
    from pystream.session import get_session

    spark = get_session()
    started = time.monotonic()
    with compiled_stream(ds, False, compile_watched) as compiled:
        if compiled.shuffle_partitions:
            spark.conf.set("spark.sql.shuffle.partitions", str(compiled.shuffle_partitions))
        with StreamTap(spark, compiled.df, compiled.decode, bounded=compiled.bounded) as tap:
            reason, total = _show_until_stopped(tap, compiled.columns, n, cancel, show,
                                                refresh, started)
    return render.watch_footer(reason, total, time.monotonic() - started)


ROW_KINDS = ("+I", "-U", "+U", "-D")


def watch_table(table, n: int, cancel: Cancellation, show: Callable[[str], None],
                refresh: float = REFRESH_SECONDS) -> str:
    """``watch`` of a Table over an unbounded source: its latest changes (``op`` first), the
    rate and the watermark, until ``cancel``; the query is stopped in every case."""
    from pystream.session import get_session

    job, rel = table._t_env._job(), table._rel
    if not job.is_unbounded(rel):
        raise ValueError("%watch follows a STREAMING query over an unbounded table; "
                         "%preview shows the rows of a bounded one")
    started = time.monotonic()
    df, updating = job.frame(rel)
    names = list(rel.schema.names)

    def decode(arrow) -> list:
        columns = [arrow.column(i).to_pylist() for i in range(len(names))]
        kinds = arrow.column(len(names)).to_pylist() if updating else [0] * arrow.num_rows
        return [[ROW_KINDS[k]] + list(values) for k, values in zip(kinds, zip(*columns))]

    with StreamTap(get_session(), df, decode) as tap:
        reason, total = _show_until_stopped(tap, ["op"] + names, n, cancel, show, refresh,
                                            started)
    return render.watch_footer(reason, total, time.monotonic() - started)


def _show_until_stopped(tap: StreamTap, columns, n: int, cancel: Cancellation,
                        show: Callable[[str], None], refresh: float, started: float
                        ) -> Tuple[str, int]:
    """Redraw until the stream ends or ``cancel`` is set: (why it stopped, rows seen)."""
    meter, rows, total = RateMeter(), [], 0
    while True:
        changed, ended = tap.poll()
        now = time.monotonic()
        if changed:
            total = tap.count()
            rows = tap.rows(max(total - n, 0), n)
        show(render.watch_frame(columns, rows, total, meter.add(now, total),
                                watermark_of(tap.progress()), now - started))
        if ended:
            return "end", total
        if cancel.wait(refresh):
            return cancel.reason, total


class LiveTerminal:
    """Redraws a block of text in place (ANSI: cursor up, clear to the end of the screen)."""

    def __init__(self, out=None):
        self.out = out or sys.stdout
        self.lines = 0

    def show(self, text: str) -> None:
        width = max(shutil.get_terminal_size().columns - 1, 20)
        lines = [line[:width] for line in text.splitlines()]
        up = "\x1b[%dF\x1b[J" % self.lines if self.lines else ""
        self.out.write(up + "\n".join(lines) + "\n")
        self.out.flush()
        self.lines = len(lines)


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


def live_output():
    """Where ``%watch`` draws: in place on a terminal, else through IPython's display."""
    try:
        interactive = sys.stdout.isatty()
    except (AttributeError, ValueError):
        interactive = False
    return LiveTerminal() if interactive else LiveDisplay()
