"""PyFlink's ``pyflink.datastream.connectors.client``, defined in
``pystream.core.connectors.client`` (below the planner and the compiler that read it)."""
from pystream.core.connectors.client import *  # noqa: F403
from pystream.core.connectors.client import __all__  # noqa: F401
