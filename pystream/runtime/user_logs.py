"""Log records of user functions, from Spark's Python workers to the user's console.

Spark copies a Python worker's output into the JVM's stderr, which pystream keeps in its log
file (Spark's own lines are not the program's output). A handler on the worker's root logger
writes each record of user code as a marked line, with the function and line that logged it;
the driver (``pystream.session``) echoes marked lines to its own stderr. The worker's root
level is the driver's at the time the job was compiled (``logging.basicConfig(level=...)`` in
the program reaches its functions). ``print()`` in a function goes to the log only.
"""
from __future__ import annotations

import logging
import sys

MARK = "\x1fpystream-log\x1f"
FORMAT = "%(levelname)s %(name)s [%(funcName)s (%(filename)s:%(lineno)d)]: %(message)s"
_LIBRARIES = ("pyspark", "py4j", "pystream", "pyarrow", "urllib3")


class _MarkedLines(logging.Handler):
    def filter(self, record: logging.LogRecord) -> bool:
        return not record.name.startswith(_LIBRARIES)

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = self.format(record)
            sys.stderr.write("".join(MARK + line + "\n" for line in text.splitlines()))
            sys.stderr.flush()
        except Exception:  # noqa: BLE001 - logging never fails the function
            self.handleError(record)


def install(level: int) -> None:
    """In a worker: user functions' records at ``level`` and above become marked lines."""
    root = logging.getLogger()
    if not any(isinstance(h, _MarkedLines) for h in root.handlers):
        handler = _MarkedLines()
        handler.setFormatter(logging.Formatter(FORMAT))
        root.addHandler(handler)
    root.setLevel(level)


def echoed(line: str):
    """The text of a marked line for the user's console, or None for Spark's own lines (a
    worker's stdout and stderr reach the JVM's stderr interleaved: the mark may come after
    the start of a ``print()``)."""
    at = line.find(MARK)
    return None if at < 0 else line[at + len(MARK):]
