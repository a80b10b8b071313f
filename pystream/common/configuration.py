"""``Configuration``: string key/value pairs, as in PyFlink."""
from __future__ import annotations

from typing import Dict, List, Optional, Set

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
        return self.set_string(key, str(int(value)))

    def get_boolean(self, key: str, default_value: bool) -> bool:
        return self._parsed(key, _boolean, default_value)

    def set_boolean(self, key: str, value: bool) -> "Configuration":
        return self.set_string(key, "true" if value else "false")

    def get_float(self, key: str, default_value: float) -> float:
        value = self._parsed(key, float, default_value)
        return value if value is None else float(value)

    def set_float(self, key: str, value: float) -> "Configuration":
        return self.set_string(key, repr(float(value)))

    def get_bytearray(self, key: str, default_value: bytearray) -> bytearray:
        return bytearray(self._data[key], "latin-1") if key in self._data else default_value

    def set_bytearray(self, key: str, value: bytearray) -> "Configuration":
        return self.set_string(key, bytes(value).decode("latin-1"))

    def key_set(self) -> Set[str]:
        return set(self._data)

    def add_all_to_dict(self, target_dict: Dict) -> None:
        target_dict.update(self._data)

    def add_all(self, other: "Configuration", prefix: Optional[str] = None) -> "Configuration":
        for k, v in other._data.items():
            self._data[(prefix or "") + k] = v
        return self

    def contains_key(self, key: str) -> bool:
        return key in self._data

    def to_dict(self) -> Dict[str, str]:
        return dict(self._data)

    def remove_config(self, key: str) -> bool:
        return self._data.pop(key, None) is not None

    def __eq__(self, other):
        return isinstance(other, Configuration) and self._data == other._data

    def __hash__(self):
        return hash(tuple(sorted(self._data.items())))

    def __str__(self):
        return "{%s}" % ", ".join("%s=%s" % item for item in self._data.items())

    __repr__ = __str__
