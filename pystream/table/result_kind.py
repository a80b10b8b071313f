"""``ResultKind``: what a ``TableResult`` holds."""
from enum import IntEnum

__all__ = ["ResultKind"]


class ResultKind(IntEnum):
    """SUCCESS: a statement that returns no rows (DDL); SUCCESS_WITH_CONTENT: rows. Each is
    the number PyFlink's is (``print(result.get_result_kind())`` prints 1)."""

    def __str__(self) -> str:
        return str(self.value)

    SUCCESS = 0
    SUCCESS_WITH_CONTENT = 1
