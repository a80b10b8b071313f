"""The partition a record goes to: a user's Partitioner (``partition_custom``), or round robin
(``rebalance``, ``rescale``)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from pystream.core.functions import KeySelector, Partitioner


@dataclass(frozen=True)
class CustomPartitionKey:
    """A key selector giving the partition index the user's partitioner picks for a record."""

    partitioner: Any
    key_selector: Any
    num_partitions: int

    def __call__(self, value) -> int:
        key_of: Callable = (self.key_selector.get_key if isinstance(self.key_selector, KeySelector)
                            else self.key_selector)
        choose: Callable = (self.partitioner.partition
                            if isinstance(self.partitioner, Partitioner) else self.partitioner)
        index = choose(key_of(value), self.num_partitions)
        if not isinstance(index, int) or not 0 <= index < self.num_partitions:
            raise ValueError("partitioner returned %r; expected an int in [0, %d)"
                             % (index, self.num_partitions))
        return index


class RoundRobin:
    """Each upstream instance sends its records to partitions 0, 1, ..., p-1, 0, ... in turn
    (Flink's rescale; its rebalance starts at a random partition, this one at 0)."""

    def __init__(self, num_partitions: int):
        self.num_partitions = num_partitions
        self.next = 0

    def __call__(self, value) -> int:
        index = self.next
        self.next = (index + 1) % self.num_partitions
        return index
