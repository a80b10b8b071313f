"""``TimerService`` (PyFlink's ``pyflink.datastream.timerservice``)."""
from pystream.core.functions import TimerService

__all__ = ["TimerService"]
