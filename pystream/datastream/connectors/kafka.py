"""PyFlink's ``pyflink.datastream.connectors.kafka``, defined in
``pystream.core.connectors.kafka`` (below the compiler that reads it)."""
from pystream.core.connectors.kafka import *  # noqa: F403
from pystream.core.connectors.kafka import __all__  # noqa: F401
