"""Ready-made predicates for ``AsyncRetryStrategy`` (PyFlink's names)."""
from __future__ import annotations

from typing import Optional

__all__ = ["empty_result_predicate", "has_exception_predicate", "exception_type_predicate"]


def empty_result_predicate(result: Optional[list]) -> bool:
    """Try again when the call gave no results."""
    return result is None or len(result) == 0


def has_exception_predicate(error: Optional[BaseException]) -> bool:
    """Try again on any exception."""
    return error is not None


def exception_type_predicate(error: Optional[BaseException], expected_error_type: type) -> bool:
    """Try again on exceptions of ``expected_error_type``."""
    return isinstance(error, expected_error_type)
