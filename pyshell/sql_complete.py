"""Completion of Flink SQL in ``%sql`` lines, at the ``--sql`` prompt and in the strings of
Python calls (``t_env.from_path('...``, ``t_env.sql_query("...``): keywords, and the tables,
views, columns and functions the shell's ``t_env`` knows (no Spark needed)."""
from __future__ import annotations

import re
from typing import Iterable, List

__all__ = ["KEYWORDS", "sql_words", "complete_sql", "complete_in_call", "table_names"]

KEYWORDS = (
    "SELECT", "FROM", "WHERE", "GROUP BY", "HAVING", "ORDER BY", "LIMIT", "OFFSET", "AS",
    "AND", "OR", "NOT", "IN", "EXISTS", "BETWEEN", "LIKE", "IS NULL", "IS NOT NULL", "CASE",
    "WHEN", "THEN", "ELSE", "END", "DISTINCT", "JOIN", "INNER JOIN", "LEFT JOIN", "RIGHT JOIN",
    "FULL JOIN", "ON", "UNION ALL", "UNION", "INTERSECT", "EXCEPT", "WITH", "VALUES", "OVER",
    "PARTITION BY", "ROWS BETWEEN", "UNBOUNDED PRECEDING", "CURRENT ROW", "TABLE", "TUMBLE",
    "HOP", "CUMULATE", "SESSION", "DESCRIPTOR", "INTERVAL", "LATERAL TABLE", "CAST",
    "TRY_CAST", "INSERT INTO", "INSERT OVERWRITE", "CREATE TABLE", "CREATE TEMPORARY TABLE",
    "CREATE VIEW", "CREATE TEMPORARY VIEW", "CREATE FUNCTION", "DROP TABLE", "DROP VIEW",
    "SHOW TABLES", "SHOW VIEWS", "SHOW FUNCTIONS", "SHOW CATALOGS", "SHOW DATABASES",
    "DESCRIBE", "EXPLAIN", "SET", "RESET", "USE", "WATERMARK FOR", "PRIMARY KEY",
    "NOT ENFORCED", "METADATA FROM", "COUNT", "SUM", "AVG", "MIN", "MAX", "ROW_NUMBER",
    "BIGINT", "INT", "STRING", "DOUBLE", "DECIMAL", "BOOLEAN", "TIMESTAMP", "TIMESTAMP_LTZ",
    "DATE", "ARRAY", "MAP", "ROW",
)

_WORD = re.compile(r"[\w$.]*$")
_TABLE_ARGUMENT = re.compile(
    r"""\.(?:from_path|drop_temporary_table|drop_temporary_view)\(\s*['"]([\w$.]*)$""")
_SQL_ARGUMENT = re.compile(r"""\.(?:sql_query|execute_sql)\(\s*[rf]?(?:'{1,3}|"{1,3})([^'"]*)$""")


def table_names(t_env) -> List[str]:
    """The tables and views ``t_env`` knows."""
    if t_env is None:
        return []
    return list(t_env.list_tables()) + list(t_env.list_views())


def sql_words(t_env) -> List[str]:
    """The names ``t_env`` knows: tables and views, their columns, user functions."""
    if t_env is None:
        return []
    tables = table_names(t_env)
    names = list(tables)
    for table in tables:
        try:
            names += t_env.from_path(table).get_schema().get_field_names()
        except Exception:  # noqa: BLE001 - a table that does not resolve: its name is enough
            continue
    names += list(t_env.list_user_defined_functions())
    return names


def complete_sql(text_before_cursor: str, names: Iterable[str]) -> List[str]:
    """Completions of the word the cursor is in: keywords in the case it is typed in (upper
    by default), then names as they are."""
    word = _WORD.search(text_before_cursor).group(0)
    if not word:
        return []
    lower = word.lower()
    keywords = [k.lower() if word.islower() else k for k in KEYWORDS
                if k.lower().startswith(lower)]
    found = sorted({n for n in names if n.lower().startswith(lower)} - set(keywords))
    return found + keywords


def complete_in_call(text_before_cursor: str, t_env) -> List[str]:
    """Completions inside the string argument of a Table API call: table names in
    ``from_path('...``, SQL in ``sql_query('...`` and ``execute_sql('...``; else none."""
    table = _TABLE_ARGUMENT.search(text_before_cursor)
    if table:
        return sorted(n for n in table_names(t_env) if n.startswith(table.group(1)))
    sql = _SQL_ARGUMENT.search(text_before_cursor)
    if sql:
        return complete_sql(sql.group(1), sql_words(t_env))
    return []
