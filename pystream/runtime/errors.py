"""User errors across the Spark boundary.

Inside a Spark worker, a failing user function becomes an ``OperatorFailure`` whose message
carries a small JSON report between markers (operator, exception, the traceback lines in the
user's own code, the record). On the driver, ``raise_job_error`` finds that report inside
whatever Spark raised and raises a short ``JobExecutionError`` instead of pages of JVM frames.
"""
from __future__ import annotations

import base64
import json
import os
import re
import traceback
from typing import Any, Optional

import pystream
from pystream.errors import JobExecutionError, RecordTypeMismatchError

_BEGIN, _END = "<<pystream-error:", ":pystream-error>>"
_REPORT = re.compile(re.escape(_BEGIN) + r"([A-Za-z0-9+/=]+)" + re.escape(_END))


def _internal_dirs() -> tuple:
    import pyspark


    dirs = [os.path.dirname(os.path.abspath(pystream.__file__)),
            os.path.dirname(os.path.abspath(pyspark.__file__))]
    try:
        import pyarrow

        dirs.append(os.path.dirname(os.path.abspath(pyarrow.__file__)))
    except ImportError:  # pragma: no cover
        pass
    return tuple(dirs)


def user_frames(tb) -> str:
    """The traceback lines of ``tb`` that are in the user's code (not pystream/pyspark)."""
    internal = _internal_dirs()
    frames = [f for f in traceback.extract_tb(tb)
              if not os.path.abspath(f.filename).startswith(internal)]
    return "".join(traceback.format_list(frames))


def failing_record(tb) -> Any:
    """The first argument of the innermost user frame: usually the record being processed."""
    internal = _internal_dirs()
    record, found = None, False
    while tb is not None:
        code = tb.tb_frame.f_code
        if not os.path.abspath(code.co_filename).startswith(internal) and code.co_argcount:
            names = code.co_varnames[:code.co_argcount]
            name = names[1] if names[0] == "self" and len(names) > 1 else names[0]
            if name in tb.tb_frame.f_locals and not found:
                record, found = tb.tb_frame.f_locals[name], True
        tb = tb.tb_next
    return record if found else _NO_RECORD


_NO_RECORD = object()


class OperatorFailure(Exception):
    """Raised in a worker when a user function fails; carries the report to the driver."""

    def __init__(self, report: dict):
        self.report = report
        encoded = base64.b64encode(json.dumps(report).encode()).decode()
        super().__init__("%s %s%s%s" % (_headline(report), _BEGIN, encoded, _END))


def _headline(report: dict) -> str:
    return "%s: %s (in operator %s)" % (report["type"], report["message"], report["operator"])


def operator_failure(exc: BaseException, operator: str, record: Any = _NO_RECORD
                     ) -> OperatorFailure:
    """Wrap a user's exception raised in ``operator`` (a label like ``'Map' (job.py:3)``)."""
    if isinstance(exc, OperatorFailure):
        return exc
    if record is _NO_RECORD:
        record = failing_record(exc.__traceback__)
    report = {
        "operator": operator,
        "type": type(exc).__name__,
        "message": str(exc),
        "traceback": user_frames(exc.__traceback__),
        "record": None if record is _NO_RECORD else _safe_repr(record),
    }
    return OperatorFailure(report)


def _safe_repr(value: Any, limit: int = 300) -> str:
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a broken __repr__ must not hide the real error
        text = "<%s>" % type(value).__name__
    return text if len(text) <= limit else text[:limit] + "..."


def find_report(text: str) -> Optional[dict]:
    match = _REPORT.search(text or "")
    if not match:
        return None
    return json.loads(base64.b64decode(match.group(1)))


def job_error_from(report: dict) -> JobExecutionError:
    lines = [_headline(report)]
    if report.get("record") is not None:
        lines.append("  record: %s" % report["record"])
    if report.get("traceback"):
        lines.append("  Traceback (user code):")
        lines.extend("  " + line for line in report["traceback"].rstrip().splitlines())
    kind = RecordTypeMismatchError if report["type"] == "RecordTypeError" else JobExecutionError
    return kind("\n".join(lines), operator=report["operator"], cause_type=report["type"],
                cause_message=report["message"], user_traceback=report.get("traceback", ""))


_PYTHON_EXCEPTION = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)\b.*")
_NOISE = re.compile(r"^\s+at |^\s*\.\.\. \d+ more|^\s*$|^JVM stacktrace:|^Caused by: ")


def spark_error(exc: BaseException, operator: Optional[str] = None) -> Exception:
    """The error to show for ``exc`` raised by Spark: the user's report if there is one,
    else Spark's own message without JVM frames."""
    text = str(exc)
    report = find_report(text)
    if report is not None:
        return job_error_from(report)
    lines = [line for line in text.splitlines() if not _NOISE.search(line)]
    if len(lines) > 12:  # the head, and the exception a Python traceback ends with
        raised = [line for line in lines[12:] if _PYTHON_EXCEPTION.match(line)]
        lines = lines[:12] + (["  ...", raised[-1]] if raised else [])
    summary = "\n".join(lines).strip() or type(exc).__name__
    prefix = "in %s: " % operator if operator else ""
    return JobExecutionError("%sSpark failed: %s" % (prefix, summary), operator=operator,
                             cause_type=type(exc).__name__, cause_message=summary)
