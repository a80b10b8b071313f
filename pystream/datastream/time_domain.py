"""``TimeDomain`` (PyFlink's ``pyflink.datastream.time_domain``)."""
from pystream.core.functions import TimeDomain

__all__ = ["TimeDomain"]
