"""PyFlink's ``pyflink.datastream.connectors.table``, defined in
``pystream.core.connectors.table`` (below the planner and the compiler that read it)."""
from pystream.core.connectors.table import *  # noqa: F403
from pystream.core.connectors.table import __all__  # noqa: F401
