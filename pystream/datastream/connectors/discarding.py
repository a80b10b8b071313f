"""PyFlink's ``pyflink.datastream.connectors.discarding``, defined in
``pystream.core.connectors.discarding`` (below the planner and the compiler that read it)."""
from pystream.core.connectors.discarding import *  # noqa: F403
from pystream.core.connectors.discarding import __all__  # noqa: F401
