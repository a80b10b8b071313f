"""PyFlink's ``pyflink.datastream.async_retry_strategies``, defined in
``pystream.core.async_retry_strategies`` (below the runtime that calls it)."""
from pystream.core.async_retry_strategies import *  # noqa: F403
from pystream.core.async_retry_strategies import __all__  # noqa: F401
