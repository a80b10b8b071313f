"""PyFlink's ``pyflink.datastream.state``, defined in ``pystream.core.state``
(below the runtime that calls it)."""
from pystream.core.state import *  # noqa: F403
from pystream.core.state import __all__  # noqa: F401
