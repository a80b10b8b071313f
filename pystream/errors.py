"""pystream's exceptions."""
from __future__ import annotations

from typing import Optional

__all__ = ["PystreamError", "UnsupportedFeatureError", "InvalidProgramError",
           "JobExecutionError", "RecordTypeMismatchError"]


class PystreamError(Exception):
    """Base of pystream's own errors."""


class UnsupportedFeatureError(PystreamError, NotImplementedError):
    """A PyFlink feature that pystream does not (yet) provide on Spark."""


class InvalidProgramError(PystreamError):
    """A program Flink refuses when it builds the job graph, before anything runs (its
    UnsupportedOperationException / InvalidProgramException), in Flink's words."""


class JobExecutionError(PystreamError):
    """A job failed: a user function raised, or a record did not fit its declared type.

    ``operator`` names the operator, ``cause`` is the user's exception (type and message),
    ``user_traceback`` holds only the traceback lines in the user's own code.
    """

    def __init__(self, message: str, operator: Optional[str] = None,
                 cause_type: Optional[str] = None, cause_message: Optional[str] = None,
                 user_traceback: str = ""):
        super().__init__(message)
        self.operator = operator
        self.cause_type = cause_type
        self.cause_message = cause_message
        self.user_traceback = user_traceback


class RecordTypeMismatchError(JobExecutionError, TypeError):
    """A value produced by an operator does not fit the operator's declared output type."""
