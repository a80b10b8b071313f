"""PyFlink's ``pyflink.datastream.connectors.jdbc``, defined in
``pystream.core.connectors.jdbc`` (below the compiler that reads it)."""
from pystream.core.connectors.jdbc import *  # noqa: F403
from pystream.core.connectors.jdbc import __all__  # noqa: F401
