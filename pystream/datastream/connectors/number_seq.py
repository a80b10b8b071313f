"""PyFlink's ``pyflink.datastream.connectors.number_seq``, defined in
``pystream.core.connectors.number_seq`` (below the planner and the compiler that read it)."""
from pystream.core.connectors.number_seq import *  # noqa: F403
from pystream.core.connectors.number_seq import __all__  # noqa: F401
