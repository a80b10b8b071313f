"""Rendering: records -> tables (with ``rich``), preview footers, the jobs table, durations.

Nothing here touches Spark, so it is tested with plain lists. On a terminal tables are drawn
with rich's box lines and colours; elsewhere (a pipe, a file, a test) as plain text, one
line per row:

>>> print(table(["f0", "f1"], [(0, "a"), (1, "bb")], terminal=False))
| f0 | f1 |
|----|----|
|  0 | a  |
|  1 | bb |
"""
from __future__ import annotations

import io
import numbers
import shutil
import sys
from typing import Any, List, Optional, Sequence, Tuple

MAX_CELL = 40
ELLIPSIS = "…"

STOP_REASONS = {
    "rows": "{n} rows reached",
    "timeout": "timeout ({timeout:g} s)",
    "idle": "no new rows for {idle:g} s",
    "end": "end of stream",
    "interrupted": "interrupted (Ctrl-C)",
}


def fields(record: Any, width: int) -> List[Any]:
    """The cells of one record in a table of ``width`` columns (a ROW/TUPLE record has one
    cell per field, any other record is one ``value`` cell)."""
    if width == 1:
        return [record]
    if isinstance(record, (list, tuple)) or hasattr(record, "_values"):
        cells = list(record)
        return (cells + [None] * width)[:width]
    return [record] + [None] * (width - 1)


def cell(value: Any, limit: int = MAX_CELL) -> str:
    """A value as a table cell: strings as they are, everything else as ``repr``."""
    text = value if isinstance(value, str) else repr(value)
    text = text.replace("\n", "\\n")
    return text if len(text) <= limit else text[:limit - 1] + ELLIPSIS


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Number) and not isinstance(value, bool)


def is_terminal() -> bool:
    """Whether this process writes to a terminal."""
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def to_text(renderable, terminal: Optional[bool] = None) -> str:
    """A rich renderable as text: with colours, at the terminal's width, on a terminal;
    plain and unwrapped elsewhere."""
    from rich.console import Console

    terminal = is_terminal() if terminal is None else terminal
    width = shutil.get_terminal_size().columns if terminal else 10_000
    console = Console(file=io.StringIO(), force_terminal=terminal, width=width,
                      color_system="standard" if terminal else None, highlight=False,
                      soft_wrap=False)
    with console.capture() as captured:
        console.print(renderable)
    # the Markdown-like box has empty top and bottom edges
    return "\n".join(line.rstrip() for line in captured.get().splitlines() if line.strip())


def rich_table(columns: Sequence[str], records: Sequence[Any], limit: int = MAX_CELL,
               terminal: Optional[bool] = None):
    """``records`` under ``columns`` as a rich Table (numbers right-aligned): box lines on
    a terminal, a Markdown-like table elsewhere."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    terminal = is_terminal() if terminal is None else terminal
    rows = [fields(r, len(columns)) for r in records]
    right = [bool(rows) and all(_is_number(row[i]) or row[i] is None for row in rows)
             for i in range(len(columns))]
    out = Table(box=box.ROUNDED if terminal else box.MARKDOWN, show_edge=True,
                header_style="bold" if terminal else "", pad_edge=True)
    for name, align_right in zip(columns, right):
        out.add_column(name, justify="right" if align_right else "left", no_wrap=True,
                       overflow="ellipsis")
    for row in rows:
        out.add_row(*[Text(cell(v, limit)) for v in row])
    return out


def table(columns: Sequence[str], records: Sequence[Any], limit: int = MAX_CELL,
          terminal: Optional[bool] = None) -> str:
    """An aligned table of ``records`` under ``columns`` as text (see ``rich_table``)."""
    return to_text(rich_table(columns, records, limit, terminal), terminal)


def duration(seconds: float) -> str:
    """``0.42 s``, ``12.3 s``, ``4m 05s``, ``2h 01m``."""
    if seconds < 10:
        return "%.2f s" % seconds
    if seconds < 60:
        return "%.1f s" % seconds
    minutes, secs = divmod(int(seconds), 60)
    if minutes < 60:
        return "%dm %02ds" % (minutes, secs)
    hours, minutes = divmod(minutes, 60)
    return "%dh %02dm" % (hours, minutes)


def stop_reason(reason: str, n: int = 0, timeout: float = 0, idle: float = 0) -> str:
    """Why a preview stopped, in words."""
    return STOP_REASONS.get(reason, reason).format(n=n, timeout=timeout, idle=idle or 0)


def footer(shown: int, seen: int, reason: str, elapsed: float, n: int = 0,
           timeout: float = 0, idle: float = 0) -> str:
    """The line under a preview: rows shown and seen, why it stopped, how long it took.

    >>> footer(10, 14, "rows", 1.5, n=10)
    '10 rows shown, 14 seen · stopped: 10 rows reached · 1.50 s'
    """
    rows = "%d row%s shown" % (shown, "" if shown == 1 else "s")
    if seen != shown:
        rows += ", %d seen" % seen
    return "%s · stopped: %s · %s" % (rows, stop_reason(reason, n, timeout, idle),
                                      duration(elapsed))


def rate(value: Optional[float]) -> str:
    return "-" if value is None else ("%.1f/s" % value if value < 100 else "%d/s" % value)


def count(value: Optional[int]) -> str:
    return "-" if value is None else str(value)


def jobs_table(rows: Sequence[dict], terminal: Optional[bool] = None) -> str:
    """The ``%jobs`` table; each row has id, name, age (s), rows, rate, status; then, when
    a job's functions have metrics, the table of them (job id, metric, value)."""
    if not rows:
        return "No running jobs."
    columns = ["ID", "NAME", "AGE", "ROWS", "RATE", "STATUS"]  # AGE: its run time, if ended
    records = [(r["id"], r["name"], duration(r["age"]) if r["age"] is not None else "-",
                count(r["rows"]), rate(r["rate"]), r["status"]) for r in rows]
    text = table(columns, records, terminal=terminal)
    metrics = [(r["id"], name, metric_value(value)) for r in rows
               for name, value in sorted((r.get("metrics") or {}).items())]
    if metrics:
        text += "\n\n" + table(["ID", "METRIC", "VALUE"], metrics, terminal=terminal)
    return text


def metric_value(value) -> str:
    """A metric's value in words: a count or a gauge's value; a meter's count and rate; a
    distribution's count, mean, min and max."""
    if isinstance(value, dict) and "rate" in value:
        return "%s (%.1f/s)" % (value["count"], value["rate"])
    if isinstance(value, dict):
        mean = value["sum"] / value["count"] if value["count"] else 0
        return "n=%s mean=%.4g min=%s max=%s" % (value["count"], mean, value["min"],
                                               value["max"])
    return str(value)


def wrap_names(names: Sequence[str], width: int = 78, indent: str = "  ") -> List[str]:
    """Comma-separated names wrapped into lines of at most ``width`` characters."""
    lines, current = [], indent
    for i, name in enumerate(names):
        word = name + ("," if i < len(names) - 1 else "")
        if len(current) + len(word) + 1 > width and current.strip():
            lines.append(current.rstrip())
            current = indent
        current += word + " "
    if current.strip():
        lines.append(current.rstrip())
    return lines


def html_table(columns: Sequence[str], records: Sequence[Any]) -> str:
    """The same table in HTML (for Jupyter)."""
    from html import escape

    head = "".join("<th>%s</th>" % escape(c) for c in columns)
    body = "".join("<tr>%s</tr>" % "".join("<td>%s</td>" % escape(cell(v))
                                            for v in fields(r, len(columns)))
                   for r in records)
    return "<table><thead><tr>%s</tr></thead><tbody>%s</tbody></table>" % (head, body)


def watch_frame(columns: Sequence[str], rows: Sequence[Any], total: int,
                rows_per_second: Optional[float], watermark: Optional[str],
                elapsed: float, view: Optional[str] = None,
                terminal: Optional[bool] = None) -> str:
    """One frame of ``%watch``: a status line over the latest rows (``view``: what a table
    view shows, as "12 keys")."""
    status = ["%d row%s" % (total, "" if total == 1 else "s"),
              "%s rows/s" % ("-" if rows_per_second is None else "%.1f" % rows_per_second)]
    if view:
        status.insert(0, view)
    if watermark:
        status.append("watermark %s" % watermark)
    status += [duration(elapsed), "Ctrl-C stops"]
    return " · ".join(status) + "\n" + table(columns, rows, terminal=terminal)


def watch_footer(reason: str, total: int, elapsed: float, n: int = 0,
                 timeout: float = 0) -> str:
    """The line ``%watch`` (and ``%chart``, stopped after ``n`` rows or ``timeout``) leaves
    under its last frame."""
    return "stopped: %s · %d row%s seen · %s" % (stop_reason(reason, n, timeout), total,
                                                   "" if total == 1 else "s",
                                                   duration(elapsed))


def name_list(label: str, names: Sequence[str], width: int = 78) -> List[str]:
    """``label: a, b, c`` wrapped to ``width``, continuation lines under the first name."""
    lines = wrap_names(list(names), width - len(label) - 4, indent="")
    pad = " " * (len(label) + 4)
    return ["  %s: %s" % (label, lines[0])] + [pad + line for line in lines[1:]]


def banner(versions: dict, target: str, groups: Sequence[Tuple[str, Sequence[str]]],
           magics: Sequence[str]) -> str:
    """The shell's greeting: versions, where Spark runs, the preloaded names, an example."""
    lines = [
        "pystream-shell %s · Spark %s · Python %s" % (versions["pystream"], versions["spark"],
                                                      versions["python"]),
        "Spark: %s, starting in the background (Web UI address when it is up)" % target,
        "Preloaded (%who lists them all):",
    ]
    for label, names in groups:
        lines += name_list(label, names)
    lines += [
        "Magics: %s   (%%preview? for help)" % " ".join("%" + m for m in magics),
        "Try:",
        "  ds = env.from_source(DataGeneratorSource(lambda i: (i % 3, i), rows_per_second=20),",
        "          WatermarkStrategy.no_watermarks(), 'gen', Types.TUPLE([Types.LONG(), "
        "Types.LONG()]))",
        "  %preview ds.key_by(lambda t: t[0]).reduce(lambda a, b: (a[0], a[1] + b[1]))",
    ]
    return "\n".join(lines) + "\n"
