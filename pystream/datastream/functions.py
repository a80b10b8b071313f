"""PyFlink's ``pyflink.datastream.functions``, defined in ``pystream.core.functions``
(below the runtime that calls it)."""
from pystream.core.functions import *  # noqa: F403
from pystream.core.functions import __all__  # noqa: F401
