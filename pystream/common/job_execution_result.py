"""The result of a finished job (PyFlink's ``pyflink.common.job_execution_result``)."""
from pystream.common.job import JobExecutionResult

__all__ = ["JobExecutionResult"]
