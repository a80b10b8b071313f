"""A value that arrives later (PyFlink's ``pyflink.common.completable_future``)."""
from pystream.common.job import CompletableFuture

__all__ = ["CompletableFuture"]
