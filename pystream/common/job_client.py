"""The handle of a job started with ``execute_async`` (PyFlink's ``pyflink.common.job_client``)."""
from pystream.common.job import JobClient

__all__ = ["JobClient"]
