"""JSON text as PARSE_JSON(text, TRUE) reads it: an object's duplicate keys keep their last
value (Spark's PARSE_JSON can only refuse them, or keep the last for every query of a
session)."""
from __future__ import annotations

import json
from typing import Any, Optional

__all__ = ["last_key_kept"]


class _Number(str):
    """A JSON number's text, kept as written (Spark's PARSE_JSON reads its precision)."""


def _refuse(constant: str) -> Any:
    raise ValueError("%s is not JSON" % constant)


def _text(value: Any) -> str:
    if isinstance(value, dict):
        return "{%s}" % ",".join("%s:%s" % (json.dumps(k, ensure_ascii=False), _text(v))
                                 for k, v in value.items())
    if isinstance(value, list):
        return "[%s]" % ",".join(_text(v) for v in value)
    if isinstance(value, _Number):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


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
    return _text(value)
