"""PyFlink's ``pyflink.datastream.connectors.base``, defined in
``pystream.core.connectors.base`` (below the planner and the compiler that read it)."""
from pystream.core.connectors.base import *  # noqa: F403
from pystream.core.connectors.base import __all__  # noqa: F401
