"""PyFlink's ``pyflink.table.types``: the SQL data types, ``DataTypes`` and ``Row``'s schema
types. They are defined in ``pystream.common.data_types``, below both APIs, the relational
layer and the compiler, which all share them; this module is their public path."""
from pystream.common.data_types import *  # noqa: F403
from pystream.common.data_types import __all__ as _types
from pystream.common.types import Row, RowKind

__all__ = [*_types, "Row", "RowKind"]
