"""The exceptions of the Table API and SQL, by PyFlink's names (``pyflink.util.exceptions``).

PyFlink raises these from Java; pystream raises them as plain Python exceptions with a message
that says what is wrong and where.
"""
from __future__ import annotations

from typing import Optional

from pystream.errors import PystreamError

__all__ = ["TableException", "ValidationException", "SqlParserException",
           "CatalogException", "DatabaseNotExistException", "TableNotExistException",
           "TableAlreadyExistException", "FunctionNotExistException",
           "DatabaseAlreadyExistException", "DatabaseNotEmptyException",
           "IllegalArgumentException"]


class TableException(PystreamError):
    """A general failure of the Table API or of a table job."""


class IllegalArgumentException(PystreamError, ValueError):
    """A setting's value that does not parse as its type says (Java's
    ``IllegalArgumentException``): ``Could not parse value 'x' for key 'k'.``"""

    @staticmethod
    def unparsed(key: str, value: str) -> "IllegalArgumentException":
        return IllegalArgumentException("Could not parse value '%s' for key '%s'." % (value, key))


class ValidationException(TableException):
    """A query or call that is not valid: an unknown column, table or function, a wrong type."""


class SqlParserException(TableException):
    """SQL text that does not parse; ``line`` and ``column`` (1-based) point at the token."""

    def __init__(self, message: str, line: Optional[int] = None, column: Optional[int] = None):
        super().__init__(message)
        self.line = line
        self.column = column


class CatalogException(ValidationException):
    """A catalog operation that cannot be done (a name that exists, or does not)."""


class DatabaseNotExistException(CatalogException):
    """A database that does not exist."""


class DatabaseAlreadyExistException(CatalogException):
    """A database that exists already."""


class DatabaseNotEmptyException(CatalogException):
    """A database dropped while it still holds tables or views."""


class TableNotExistException(CatalogException):
    """A table or view that does not exist."""


class TableAlreadyExistException(CatalogException):
    """A table or view that exists already."""


class FunctionNotExistException(CatalogException):
    """A function that does not exist."""
