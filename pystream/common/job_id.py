"""The id of a job (PyFlink's ``pyflink.common.job_id``)."""
from pystream.common.job import JobID

__all__ = ["JobID"]
