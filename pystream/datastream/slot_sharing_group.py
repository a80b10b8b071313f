"""``SlotSharingGroup`` and ``MemorySize`` (PyFlink's ``pyflink.datastream.slot_sharing_group``).

Spark schedules tasks on executors without slots: a slot sharing group and its resources are
recorded (``DataStream.slot_sharing_group``, ``env.register_slot_sharing_group``) and shown in
the plan, and change nothing else.
"""
from __future__ import annotations

from typing import Dict, Optional

__all__ = ["MemorySize", "SlotSharingGroup"]

_UNITS = (("tb", 1 << 40), ("gb", 1 << 30), ("mb", 1 << 20), ("kb", 1 << 10))


class MemorySize:
    """A number of bytes, viewable in different units.

    >>> MemorySize.of_mebi_bytes(2).get_kibi_bytes()
    2048
    """

    def __init__(self, bytes_size: int = 0):
        if bytes_size < 0:
            raise ValueError("bytes must be >= 0")
        self._bytes = int(bytes_size)

    @staticmethod
    def of_mebi_bytes(mebi_bytes: int) -> "MemorySize":
        return MemorySize(mebi_bytes << 20)

    def get_bytes(self) -> int:
        """The memory size in bytes."""
        return self._bytes

    def get_kibi_bytes(self) -> int:
        """The memory size in Kibibytes (= 1024 bytes)."""
        return self._bytes >> 10

    def get_mebi_bytes(self) -> int:
        """The memory size in Mebibytes (= 1024 Kibibytes)."""
        return self._bytes >> 20

    def get_gibi_bytes(self) -> int:
        """The memory size in Gibibytes (= 1024 Mebibytes)."""
        return self._bytes >> 30

    def get_tebi_bytes(self) -> int:
        """The memory size in Tebibytes (= 1024 Gibibytes)."""
        return self._bytes >> 40

    def __eq__(self, other):
        return isinstance(other, MemorySize) and self._bytes == other._bytes

    def __hash__(self):
        return hash(self._bytes)

    def __lt__(self, other: "MemorySize"):
        if not isinstance(other, MemorySize):
            raise Exception("Does not support comparison with non-MemorySize %s" % other)
        return self._bytes < other._bytes

    def __le__(self, other: "MemorySize"):
        return self.__eq__(other) or self.__lt__(other)

    def __str__(self):
        for unit, size in _UNITS:
            if self._bytes and self._bytes % size == 0:
                return "%d %s" % (self._bytes // size, unit)
        return "%d bytes" % self._bytes

    __repr__ = __str__


class SlotSharingGroup:
    """The name and the resource components of a slot sharing group (recorded on pystream).

    >>> group = SlotSharingGroup.builder("heavy").set_cpu_cores(2.0).build()
    >>> group.get_name(), group.get_cpu_cores()
    ('heavy', 2.0)
    """

    def __init__(self, name: str, cpu_cores: Optional[float] = None,
                 task_heap_memory: Optional[MemorySize] = None,
                 task_off_heap_memory: Optional[MemorySize] = None,
                 managed_memory: Optional[MemorySize] = None,
                 external_resources: Optional[Dict[str, float]] = None):
        self._name = name
        self._cpu_cores = cpu_cores
        self._task_heap_memory = task_heap_memory
        self._task_off_heap_memory = task_off_heap_memory
        self._managed_memory = managed_memory
        self._external_resources = dict(external_resources or {})

    def get_name(self) -> str:
        """The name of this SlotSharingGroup."""
        return self._name

    def get_managed_memory(self) -> Optional[MemorySize]:
        """The task managed memory of this SlotSharingGroup."""
        return self._managed_memory

    def get_task_heap_memory(self) -> Optional[MemorySize]:
        """The task heap memory of this SlotSharingGroup."""
        return self._task_heap_memory

    def get_task_off_heap_memory(self) -> Optional[MemorySize]:
        """The task off-heap memory of this SlotSharingGroup."""
        return self._task_off_heap_memory

    def get_cpu_cores(self) -> Optional[float]:
        """The CPU cores of this SlotSharingGroup."""
        return self._cpu_cores

    def get_external_resources(self) -> dict:
        """The user specified external resources of this SlotSharingGroup."""
        return dict(self._external_resources)

    @staticmethod
    def builder(name: str) -> "SlotSharingGroup.Builder":
        """A Builder of a SlotSharingGroup named ``name``."""
        return SlotSharingGroup.Builder(name)

    def __eq__(self, other):
        return isinstance(other, SlotSharingGroup) and self.__dict__ == other.__dict__

    def __hash__(self):
        return hash(self._name)

    def __repr__(self):
        return "SlotSharingGroup(%s)" % self._name

    class Builder:
        """Builder for the SlotSharingGroup."""

        def __init__(self, name: str):
            self._name = name
            self._cpu_cores: Optional[float] = None
            self._task_heap_memory: Optional[MemorySize] = None
            self._task_off_heap_memory: Optional[MemorySize] = None
            self._managed_memory: Optional[MemorySize] = None
            self._external_resources: Dict[str, float] = {}

        def set_cpu_cores(self, cpu_cores: float) -> "SlotSharingGroup.Builder":
            """Sets the CPU cores for this SlotSharingGroup."""
            if cpu_cores <= 0:
                raise ValueError("The cpu cores should be positive.")
            self._cpu_cores = cpu_cores
            return self

        def set_task_heap_memory(self, task_heap_memory: MemorySize
                                 ) -> "SlotSharingGroup.Builder":
            """Sets the task heap memory for this SlotSharingGroup."""
            self._task_heap_memory = task_heap_memory
            return self

        def set_task_heap_memory_mb(self, task_heap_memory_mb: int
                                    ) -> "SlotSharingGroup.Builder":
            """Sets the task heap memory for this SlotSharingGroup in MB."""
            return self.set_task_heap_memory(MemorySize.of_mebi_bytes(task_heap_memory_mb))

        def set_task_off_heap_memory(self, task_off_heap_memory: MemorySize
                                     ) -> "SlotSharingGroup.Builder":
            """Sets the task off-heap memory for this SlotSharingGroup."""
            self._task_off_heap_memory = task_off_heap_memory
            return self

        def set_task_off_heap_memory_mb(self, task_off_heap_memory_mb: int
                                        ) -> "SlotSharingGroup.Builder":
            """Sets the task off-heap memory for this SlotSharingGroup in MB."""
            return self.set_task_off_heap_memory(
                MemorySize.of_mebi_bytes(task_off_heap_memory_mb))

        def set_managed_memory(self, managed_memory: MemorySize) -> "SlotSharingGroup.Builder":
            """Sets the task managed memory for this SlotSharingGroup."""
            self._managed_memory = managed_memory
            return self

        def set_managed_memory_mb(self, managed_memory_mb: int) -> "SlotSharingGroup.Builder":
            """Sets the task managed memory for this SlotSharingGroup in MB."""
            return self.set_managed_memory(MemorySize.of_mebi_bytes(managed_memory_mb))

        def set_external_resource(self, name: str, value: float) -> "SlotSharingGroup.Builder":
            """Adds an external resource (replacing the old value of that name)."""
            self._external_resources[name] = value
            return self

        def build(self) -> "SlotSharingGroup":
            """Builds the SlotSharingGroup."""
            return SlotSharingGroup(self._name, self._cpu_cores, self._task_heap_memory,
                                    self._task_off_heap_memory, self._managed_memory,
                                    self._external_resources)
