"""The states of a job (PyFlink's ``pyflink.common.job_status``)."""
from pystream.common.job import JobStatus

__all__ = ["JobStatus"]
