"""The shell's errors, and the short form in which errors are shown to the user."""
from __future__ import annotations

from pystream.errors import JobExecutionError


class StartupError(Exception):
    """Spark cannot start; the message says what is missing and how to fix it."""


def short_error(error: BaseException) -> str:
    """A failed job as the user's exception, operator and user frames; any other pystream
    error as its type and message (no pages of JVM or pystream frames)."""
    if isinstance(error, JobExecutionError):
        # a failed streaming query appends its whole plan: not for the user's eyes
        return "Job failed: %s" % str(error).split("\n=== Streaming Query ===")[0]
    if isinstance(error, StartupError):
        return str(error)
    return "%s: %s" % (type(error).__name__, error)
