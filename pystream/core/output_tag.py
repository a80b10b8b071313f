"""``OutputTag``: names a side output."""
from __future__ import annotations

from typing import Optional, Union

from pystream.common.typeinfo import TypeInformation, Types

__all__ = ["OutputTag"]


class OutputTag:
    """A side output of a process function: ``yield tag, value`` sends ``value`` to it.

    >>> late = OutputTag('late', Types.STRING())
    """

    def __init__(self, tag_id: str, type_info: Optional[Union[TypeInformation, list]] = None):
        if not tag_id:
            raise ValueError("OutputTag tag_id cannot be empty")
        self.tag_id = tag_id
        if type_info is None:
            type_info = Types.PICKLED_BYTE_ARRAY()
        elif isinstance(type_info, list):  # a list of field types is a ROW, as in PyFlink
            type_info = Types.ROW(type_info)
        self.type_info = type_info

    def __eq__(self, other):
        return isinstance(other, OutputTag) and self.tag_id == other.tag_id

    def __hash__(self):
        return hash(self.tag_id)

    def __repr__(self):
        return "OutputTag(%s, %s)" % (self.tag_id, self.type_info)
