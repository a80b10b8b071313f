"""``InputFormat`` (PyFlink's ``pyflink.common.io``): the base of input formats."""
from __future__ import annotations

__all__ = ["InputFormat"]


class InputFormat:
    """The base interface for data sources that produce records (``env.create_input``)."""
