"""PyFlink's ``pyflink.datastream.connectors.collection``, defined in
``pystream.core.connectors.collection`` (below the planner and the compiler that read it)."""
from pystream.core.connectors.collection import *  # noqa: F403
from pystream.core.connectors.collection import __all__  # noqa: F401
