"""``TypeSerializer`` (PyFlink's ``pyflink.common.serializer``)."""
from __future__ import annotations

from abc import ABC, abstractmethod
from io import BytesIO
from typing import Generic, TypeVar

__all__ = ["TypeSerializer"]

T = TypeVar("T")


class TypeSerializer(ABC, Generic[T]):
    """The methods required for a data type to be handled by the runtime: serialization and
    deserialization."""

    def __eq__(self, other):
        return isinstance(other, self.__class__) and self.__dict__ == other.__dict__

    def __ne__(self, other):
        return not self.__eq__(other)

    def __repr__(self):
        return "%s()" % self.__class__.__name__

    def __hash__(self):
        return hash(str(self))

    @abstractmethod
    def serialize(self, element: T, stream: BytesIO) -> None:
        """Serializes an element to the output stream."""

    @abstractmethod
    def deserialize(self, stream: BytesIO) -> T:
        """Returns a deserialized element from the input stream."""
