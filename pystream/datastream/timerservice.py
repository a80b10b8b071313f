"""``TimerService`` (PyFlink's ``pyflink.datastream.timerservice``)."""
from pystream.datastream.functions import TimerService

__all__ = ["TimerService"]
