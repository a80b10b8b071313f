"""Completion of Flink SQL in ``%sql`` lines and at the ``--sql`` prompt: keywords, and the
tables, views, columns and functions the shell's ``t_env`` knows (no Spark needed)."""
from __future__ import annotations

import re
from typing import Iterable, List

__all__ = ["KEYWORDS", "sql_words", "complete_sql"]

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


def sql_words(t_env) -> List[str]:
    """The names ``t_env`` knows: tables and views, their columns, user functions."""
    names: List[str] = []
    if t_env is None:
        return names
    tables = list(t_env.list_tables()) + list(t_env.list_views())
    names += tables
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
