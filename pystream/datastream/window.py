"""PyFlink's ``pyflink.datastream.window``, defined in ``pystream.core.window``
(below the runtime that calls it)."""
from pystream.core.window import *  # noqa: F403
from pystream.core.window import __all__  # noqa: F401
