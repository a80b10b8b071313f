"""PyFlink's ``pyflink.datastream.connectors.datagen``, defined in
``pystream.core.connectors.datagen`` (below the planner and the compiler that read it)."""
from pystream.core.connectors.datagen import *  # noqa: F403
from pystream.core.connectors.datagen import __all__  # noqa: F401
