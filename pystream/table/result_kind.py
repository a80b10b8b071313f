"""``ResultKind``: what a ``TableResult`` holds."""
from enum import Enum

__all__ = ["ResultKind"]


class ResultKind(Enum):
    """SUCCESS: a statement that returns no rows (DDL); SUCCESS_WITH_CONTENT: rows."""

    SUCCESS = 0
    SUCCESS_WITH_CONTENT = 1
