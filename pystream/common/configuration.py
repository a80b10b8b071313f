"""``Configuration``: string key/value pairs, as in PyFlink."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Set

from pystream.util.exceptions import IllegalArgumentException

__all__ = ["Configuration"]


def _boolean(text: str) -> bool:
    if text.lower() not in ("true", "false"):
        raise ValueError(text)
    return text.lower() == "true"


class Configuration:
    """Key/value settings of a job (``parallelism.default``, ``execution.runtime-mode``, ...).

    Keys starting with ``spark.`` are passed to the Spark session.

    >>> conf = Configuration().set_integer('parallelism.default', 2)
    >>> conf.get_integer('parallelism.default', 1)
    2
    """

    def __init__(self, other: Optional["Configuration"] = None):
        self._data: Dict[str, str] = dict(other._data) if other is not None else {}
        # the values the typed setters took, as Flink's Configuration keeps its objects
        # (``add_all_to_dict`` gives them back)
        self._typed: Dict[str, Any] = dict(other._typed) if other is not None else {}

    @classmethod
    def from_dict(cls, map: Dict[str, str]) -> "Configuration":
        conf = cls()
        for k, v in map.items():
            conf.set_string(k, v)
        return conf

    def get_string(self, key: str, default_value: Optional[str]) -> Optional[str]:
        return self._data.get(key, default_value)

    def set_string(self, key: str, value: str) -> "Configuration":
        self._data[key] = str(value)
        self._typed.pop(key, None)
        return self

    def _set_typed(self, key: str, text: str, value: Any) -> "Configuration":
        self.set_string(key, text)
        self._typed[key] = value
        return self

    @staticmethod
    def parse_list_value(value: str) -> List[str]:
        """The items of a list setting: a YAML flow list (``[a, b]``) or ``a;b``."""
        if not value:
            return []
        text = value.strip()
        if text.startswith("[") and text.endswith("]"):
            items = [item.strip() for item in text[1:-1].split(",")]
            return [item[1:-1] if len(item) > 1 and item[0] == item[-1] and item[0] in "'\""
                    else item for item in items if item]
        return value.split(";")

    def get_integer(self, key: str, default_value: int) -> int:
        return self._parsed(key, int, default_value)

    def _parsed(self, key: str, parse, default_value):
        """The value of ``key`` parsed by ``parse``, ``default_value`` when unset; a value
        that does not parse fails as Flink's does (``Could not parse value ...``)."""
        if key not in self._data:
            return default_value
        try:
            return parse(self._data[key].strip())
        except ValueError:
            raise IllegalArgumentException.unparsed(key, self._data[key]) from None

    def set_integer(self, key: str, value: int) -> "Configuration":
        return self._set_typed(key, str(int(value)), int(value))

    def get_boolean(self, key: str, default_value: bool) -> bool:
        return self._parsed(key, _boolean, default_value)

    def set_boolean(self, key: str, value: bool) -> "Configuration":
        return self._set_typed(key, "true" if value else "false", bool(value))

    def get_float(self, key: str, default_value: float) -> float:
        value = self._parsed(key, float, default_value)
        return value if value is None else float(value)

    def set_float(self, key: str, value: float) -> "Configuration":
        return self._set_typed(key, repr(float(value)), float(value))

    def get_bytearray(self, key: str, default_value: bytearray) -> bytearray:
        return bytearray(self._data[key], "latin-1") if key in self._data else default_value

    def set_bytearray(self, key: str, value: bytearray) -> "Configuration":
        return self._set_typed(key, bytes(value).decode("latin-1"), bytes(value))

    def key_set(self) -> Set[str]:
        return set(self._data)

    def add_all_to_dict(self, target_dict: Dict) -> None:
        """Puts every entry into ``target_dict``: the value a typed setter took (an int, a
        bool, a float, bytes), else the string."""
        target_dict.update({k: self._typed.get(k, v) for k, v in self._data.items()})

    def add_all(self, other: "Configuration", prefix: Optional[str] = None) -> "Configuration":
        for k, v in other._data.items():
            self._data[(prefix or "") + k] = v
            self._typed.pop((prefix or "") + k, None)
        for k, v in other._typed.items():
            self._typed[(prefix or "") + k] = v
        return self

    def contains_key(self, key: str) -> bool:
        return key in self._data

    def to_dict(self) -> Dict[str, str]:
        return dict(self._data)

    def remove_config(self, key: str) -> bool:
        self._typed.pop(key, None)
        return self._data.pop(key, None) is not None

    def __eq__(self, other):
        return isinstance(other, Configuration) and self._data == other._data

    def __hash__(self):
        return hash(tuple(sorted(self._data.items())))

    def __str__(self):
        return "{%s}" % ", ".join("%s=%s" % item for item in self._data.items())

    __repr__ = __str__
