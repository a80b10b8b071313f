"""``TimeDomain`` (PyFlink's ``pyflink.datastream.time_domain``)."""
from pystream.datastream.functions import TimeDomain

__all__ = ["TimeDomain"]
