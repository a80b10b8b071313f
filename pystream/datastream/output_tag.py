"""PyFlink's ``pyflink.datastream.output_tag``, defined in ``pystream.core.output_tag``
(below the runtime that calls it)."""
from pystream.core.output_tag import *  # noqa: F403
from pystream.core.output_tag import __all__  # noqa: F401
