"""PyFlink's ``pyflink.datastream.connectors.file_system``, defined in
``pystream.core.connectors.file_system`` (below the compiler that reads it)."""
from pystream.core.connectors.file_system import *  # noqa: F403
from pystream.core.connectors.file_system import __all__  # noqa: F401
