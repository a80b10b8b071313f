"""``ListView`` and ``MapView``: collections in an aggregate function's accumulator.

PyFlink may back them by its state backend; in pystream an accumulator is kept whole (pickled
in Spark's state between micro-batches), so these are a list and a dict with PyFlink's
methods.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Dict, Generic, Iterable, Iterator, List, Tuple, TypeVar

__all__ = ["DataView", "ListView", "MapView"]

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")


class DataView(ABC):
    """A collection in an AggregateFunction's accumulator."""

    @abstractmethod
    def clear(self) -> None:
        """Removes everything."""


class ListView(DataView, Generic[T]):
    """A list in an accumulator (declare it as ``DataTypes.LIST_VIEW(element_type)``)."""

    def __init__(self):
        self._list: List[T] = []

    def get(self) -> Iterable[T]:
        return self._list

    def add(self, value: T) -> None:
        self._list.append(value)

    def add_all(self, values: List[T]) -> None:
        self._list.extend(values)

    def clear(self) -> None:
        self._list = []

    def __iter__(self) -> Iterator[T]:
        return iter(self._list)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, ListView) and list(self) == list(other)

    def __hash__(self) -> int:
        return hash(tuple(self._list))

    def __repr__(self) -> str:
        return "ListView(%r)" % (self._list,)


class MapView(Generic[K, V]):
    """A dict in an accumulator (declare it as ``DataTypes.MAP_VIEW(key_type, value_type)``)."""

    def __init__(self):
        self._dict: Dict[K, V] = {}

    def get(self, key: K) -> V:
        return self._dict[key]

    def put(self, key: K, value: V) -> None:
        self._dict[key] = value

    def put_all(self, dict_value: Dict[K, V]) -> None:
        self._dict.update(dict_value)

    def remove(self, key: K) -> None:
        del self._dict[key]

    def contains(self, key: K) -> bool:
        return key in self._dict

    def items(self) -> Iterable[Tuple[K, V]]:
        return self._dict.items()

    def keys(self) -> Iterable[K]:
        return self._dict.keys()

    def values(self) -> Iterable[V]:
        return self._dict.values()

    def is_empty(self) -> bool:
        return not self._dict

    def clear(self) -> None:
        self._dict.clear()

    def __getitem__(self, key: K) -> V:
        return self._dict[key]

    def __setitem__(self, key: K, value: V) -> None:
        self._dict[key] = value

    def __delitem__(self, key: K) -> None:
        del self._dict[key]

    def __contains__(self, key: K) -> bool:
        return key in self._dict

    def __iter__(self) -> Iterator[K]:
        return iter(self._dict)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, MapView) and self._dict == other._dict

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        return "MapView(%r)" % (self._dict,)
