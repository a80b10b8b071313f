"""What ``%sql`` does, without IPython: run Flink SQL statements in a TableEnvironment and
show each result (OK for DDL, the table of SHOW/DESCRIBE, a query's rows), stopping a query
after ``n`` rows."""
from __future__ import annotations

from typing import Any, Dict, List, Optional

from pystream.table.formatting import tableau_lines


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


def run_statement(t_env, statement, mode: str = "tableau", n: Optional[int] = None) -> list:
    """Runs one parsed statement; the lines to show and the rows it gave (a query stops
    after ``n`` rows)."""
    from pystream.sql.statements import execute_parsed

    result = execute_parsed(t_env, statement)
    if result.get_result_kind().name == "SUCCESS":
        return ["OK"], []
    rows = []
    with result.collect() as results:
        for row in results:
            rows.append(row)
            if n is not None and len(rows) >= n:
                break
    if mode == "changelog":
        schema = result.get_table_schema()
        lines = ["%s %s" % (row.get_row_kind(), ", ".join(map(str, row))) for row in rows]
        return [" | ".join(["op"] + schema.get_field_names())] + lines, rows
    return tableau_lines(result.get_table_schema(), rows,
                         op_column=result._streaming and result._query,
                         widths_by_type=result._query), rows
