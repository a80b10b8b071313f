"""JSON text as PARSE_JSON(text, TRUE) reads it: an object's duplicate keys keep their last
value (Spark's PARSE_JSON can only refuse them, or keep the last for every query of a
session)."""
from __future__ import annotations

import json
from typing import Any, Optional

from pystream.common.formatting import compact_json

__all__ = ["last_key_kept"]


class _Number(str):
    """A JSON number's text, kept as written (Spark's PARSE_JSON reads its precision)."""


def _refuse(constant: str) -> Any:
    raise ValueError("%s is not JSON" % constant)


def last_key_kept(text: Optional[str]) -> Optional[str]:
    """``text`` without duplicate keys (each keeps its last value); text that is not JSON as
    it is, for PARSE_JSON to refuse."""
    if text is None:
        return None
    try:
        value = json.loads(text, parse_float=_Number, parse_int=_Number,
                           parse_constant=_refuse)
    except ValueError:
        return text
    return compact_json(value, lambda v: str(v) if isinstance(v, _Number) else None)
