"""State backends (PyFlink's ``pyflink.datastream.state_backend``).

On Spark, keyed state lives in Spark's state store (RocksDB in STREAMING mode, memory in BATCH
mode), whatever backend a job names: these objects and the ``state.backend.*`` configuration
keys are recorded and change nothing.
"""
from __future__ import annotations

from abc import ABCMeta
from enum import Enum
from typing import Any, List, Optional

__all__ = ["StateBackend", "HashMapStateBackend", "EmbeddedRocksDBStateBackend",
           "CustomStateBackend", "PredefinedOptions"]


class StateBackend(metaclass=ABCMeta):
    """How the state of a streaming application is stored locally within the cluster
    (recorded on pystream: Spark's state store holds keyed state)."""


class HashMapStateBackend(StateBackend):
    """Holds the working state in the memory of the TaskManagers and checkpoints based on the
    configured CheckpointStorage.

    >>> state_backend = HashMapStateBackend()
    """

    def __str__(self):
        return "HashMapStateBackend"


class PredefinedOptions(Enum):
    """Predefined RocksDB settings (recorded on pystream)."""

    DEFAULT = 0
    SPINNING_DISK_OPTIMIZED = 1
    SPINNING_DISK_OPTIMIZED_HIGH_MEM = 2
    FLASH_SSD_OPTIMIZED = 3


class EmbeddedRocksDBStateBackend(StateBackend):
    """Stores state in an embedded RocksDB instance (Spark's RocksDB state store is what
    pystream uses in STREAMING mode).

    >>> state_backend = EmbeddedRocksDBStateBackend()
    """

    def __init__(self, enable_incremental_checkpointing: Optional[bool] = None):
        if enable_incremental_checkpointing not in (None, True, False):
            raise TypeError("Unsupported input for 'enable_incremental_checkpointing': %s, the "
                            "value of the parameter should be None or True or False."
                            % (enable_incremental_checkpointing,))
        self._incremental = bool(enable_incremental_checkpointing)
        self._paths: List[str] = []
        self._predefined_options = PredefinedOptions.DEFAULT
        self._options: Optional[str] = None
        self._transfer_threads = 4

    def set_db_storage_paths(self, *paths: str) -> None:
        """The directories in which the local RocksDB database puts its files (recorded)."""
        self._paths = [p for p in paths if p is not None]

    def get_db_storage_paths(self) -> List[str]:
        """The configured local DB storage paths."""
        return list(self._paths)

    def is_incremental_checkpoints_enabled(self) -> bool:
        """Whether incremental checkpoints are enabled for this state backend."""
        return self._incremental

    def set_predefined_options(self, options: PredefinedOptions) -> None:
        """Sets the predefined options for RocksDB (recorded)."""
        self._predefined_options = options

    def get_predefined_options(self) -> PredefinedOptions:
        """The current predefined options (``PredefinedOptions.DEFAULT`` if none were set)."""
        return self._predefined_options

    def set_options(self, options_factory_class_name: str) -> None:
        """The Java class name of a RocksDB options factory (recorded)."""
        self._options = options_factory_class_name

    def get_options(self) -> Optional[str]:
        """The class name of the options factory, or None."""
        return self._options

    def get_number_of_transfer_threads(self) -> int:
        """The number of threads used to transfer files while snapshotting/restoring."""
        return self._transfer_threads

    def set_number_of_transfer_threads(self, number_of_transfering_threads: int) -> None:
        """Sets the number of threads used to transfer files (recorded)."""
        self._transfer_threads = number_of_transfering_threads

    def __str__(self):
        return "EmbeddedRocksDBStateBackend{enableIncrementalCheckpointing=%s}" % (
            str(self._incremental).lower())


class CustomStateBackend(StateBackend):
    """A state backend implemented in Java (PyFlink wraps a Java object): recorded."""

    def __init__(self, state_backend: Any = None):
        self._state_backend = state_backend
