"""What ``%sql`` does, without IPython: run Flink SQL statements in a TableEnvironment and
show each result (OK for DDL, the table of SHOW/DESCRIBE, a query's rows), stopping a query
after ``n`` rows; a query over an unbounded table shows its rows as they arrive and is
stopped after ``n`` rows, a timeout or Ctrl-C."""
from __future__ import annotations

import threading
from typing import Any, Callable, Dict, List, Optional, Tuple

from pyshell import render
from pystream.common.table_formatting import TableauWriter, flink_string, tableau_lines


def statements_of(text: str, namespace: Optional[Dict[str, Any]] = None) -> List[Any]:
    """The parsed statements of a cell; ``{python_expr}`` is replaced by its value first
    (``{orders}`` names a Table)."""
    from pystream.sql.parse import parse_statements

    if namespace is not None and "{" in text:
        text = _substitute(text, namespace)
    return parse_statements(text)


def _substitute(text: str, namespace: Dict[str, Any]) -> str:
    import string

    out = []
    for literal, field, _spec, _conversion in string.Formatter().parse(text):
        out.append(literal)
        if field is not None:
            out.append(str(eval(field, namespace)))  # the user's own expression
    return "".join(out)


UNBOUNDED_ROWS = 10  # a query over an unbounded table without -n stops after these


def run_statement(t_env, statement, mode: str = "tableau", n: Optional[int] = None,
                  emit: Optional[Callable[[str], None]] = None, cancel=None,
                  timeout: Optional[float] = None) -> Tuple[List[str], Any]:
    """Runs one parsed statement: (the lines to show, its ``output_frame``, None for a
    statement that gives no rows). A query stops after ``n`` rows; one over an unbounded
    table shows its rows through ``emit`` as they arrive and stops after ``n`` (else
    UNBOUNDED_ROWS) rows, ``timeout`` seconds, or ``cancel``."""
    from pystream.sql.statements import execute_parsed

    result = execute_parsed(t_env, statement)
    if result.get_result_kind().name == "SUCCESS":
        return ["OK"], None
    lines, rows = _shown(result, mode, n, emit, cancel, timeout)
    return lines, output_frame(result, rows)


def output_frame(result, rows: list):
    """What ``%sql -o`` stores, a pandas DataFrame: the rows a bounded query's changes leave,
    the changes seen so far of an unbounded one (with their ``op`` when it updates)."""
    import pandas as pd

    names = list(result.get_table_schema().get_field_names())
    if result.is_unbounded and any(str(r.get_row_kind()) != "+I" for r in rows):
        return pd.DataFrame([[str(r.get_row_kind())] + list(r) for r in rows],
                            columns=["op"] + names)
    current: List[tuple] = []
    for row in rows:
        apply_change(current, row)
    return pd.DataFrame(current, columns=names)


def _shown(result, mode: str, n: Optional[int], emit, cancel,
           timeout: Optional[float]) -> Tuple[List[str], list]:
    """(the lines to show, the rows the query gave)."""
    schema = result.get_table_schema()
    if mode == "table":
        return _table_view(result, n, cancel, timeout, emit)
    if not result.is_unbounded:
        rows = _leading(result, n, None, None)
        return _lines(result, rows, mode), rows
    show = emit or print
    writer = TableauWriter(schema, op_column=True) if mode == "tableau" else None
    for line in writer.header() if writer else [_changelog_header(schema)]:
        show(line)
    rows = _leading(result, n or UNBOUNDED_ROWS, cancel, timeout,
                    lambda row: show(writer.row(row) if writer else _changelog_line(row)))
    return (writer.footer() if writer else []), rows


def _leading(result, n: Optional[int], cancel, timeout: Optional[float],
             each: Optional[Callable[[Any], None]] = None) -> list:
    """The result's first ``n`` rows; its query stops then, on ``cancel`` or ``timeout``."""
    rows: list = []
    with result.collect() as results:
        timer = None
        if cancel is not None:
            cancel.on_cancel(results.close)
        if timeout is not None:
            timer = threading.Timer(timeout, results.close)
            timer.daemon = True
            timer.start()
        try:
            for row in results:
                if cancel is not None and cancel.is_set():
                    break  # rows already fetched are not shown after Ctrl-C
                rows.append(row)
                if each is not None:
                    each(row)
                if n is not None and len(rows) >= n:
                    break
        except Exception as e:
            if cancel is None or not cancel.explains(e):
                raise
        finally:
            if timer is not None:
                timer.cancel()
    return rows


def _changelog_header(schema) -> str:
    return " | ".join(["op"] + schema.get_field_names())


def _changelog_line(row) -> str:
    return "%s %s" % (row.get_row_kind(), ", ".join(map(str, row)))


def _lines(result, rows: list, mode: str) -> List[str]:
    if mode == "changelog":
        return [_changelog_header(result.get_table_schema())] + [_changelog_line(r)
                                                                  for r in rows]
    return tableau_lines(result.get_table_schema(), rows,
                         op_column=result.is_changelog, widths_by_type=result.is_query,
                         zone=result.local_time_zone)


# -- the table mode: the current rows, updated in place


def apply_change(current: List[tuple], row) -> None:
    """Apply one change of a changelog (a Row with its kind) to the rows it leaves."""
    apply_op(current, str(row.get_row_kind()), tuple(row))


def apply_op(current: List[tuple], op: str, values: tuple) -> None:
    """``+I``/``+U`` add ``values`` to the current rows, ``-U``/``-D`` remove an equal row."""
    if op in ("+I", "+U"):
        current.append(values)
    elif values in current:
        current.remove(values)


def rich_table(schema, current: List[tuple], changes: int, terminal: Optional[bool] = None):
    """The current rows as a rich Table, with the number of rows and changes under it."""
    from rich.console import Group
    from rich.text import Text


    types = schema.get_field_data_types()
    rows = [[flink_string(v, t) for v, t in zip(values, types)] for values in current]
    return Group(render.rich_table(schema.get_field_names(), rows, terminal=terminal),
                 Text("%d rows · %d changes" % (len(current), changes)))


def _table_view(result, n: Optional[int], cancel, timeout: Optional[float],
                emit: Optional[Callable[[str], None]]) -> Tuple[List[str], list]:
    """The SQL client's table mode: the rows a query's changelog leaves, redrawn in place on
    a terminal as changes arrive (an unbounded query until ``timeout`` or Ctrl-C); the last
    view is printed as text."""
    import sys

    from rich.console import Console
    from rich.live import Live

    schema = result.get_table_schema()
    current: List[tuple] = []
    seen = [0]
    console = Console(file=sys.stdout)
    if not console.is_terminal:  # no redrawing: only the final view
        rows = _leading(result, n, cancel, timeout if result.is_unbounded else None)
        for row in rows:
            apply_change(current, row)
        return render.to_text(rich_table(schema, current, len(rows), False),
                              False).splitlines(), rows
    with Live(rich_table(schema, current, 0), console=console, auto_refresh=False) as live:
        def each(row) -> None:
            apply_change(current, row)
            seen[0] += 1
            if str(row.get_row_kind()) != "-U":  # its +U follows: no flicker in between
                live.update(rich_table(schema, current, seen[0]), refresh=True)
        rows = _leading(result, n, cancel, timeout if result.is_unbounded else None, each)
    return [], rows
