"""Checkpoint storage (PyFlink's ``pyflink.datastream.checkpoint_storage``).

Spark keeps a job's checkpoints under its checkpoint directory (see
``pystream.datastream.checkpoint_config``): these objects are recorded; set the directory with
``execution.checkpointing.dir`` or ``CheckpointConfig.set_checkpoint_storage_dir``.
"""
from __future__ import annotations

from abc import ABCMeta
from typing import Any, Optional

__all__ = ["CheckpointStorage", "JobManagerCheckpointStorage", "FileSystemCheckpointStorage",
           "CustomCheckpointStorage"]


class CheckpointStorage(metaclass=ABCMeta):
    """How state backends store their state for fault-tolerance."""


class JobManagerCheckpointStorage(CheckpointStorage):
    """Checkpoints state to the JobManager's memory; savepoints go to a file system.

    >>> JobManagerCheckpointStorage().get_max_state_size()
    5242880
    """

    DEFAULT_MAX_STATE_SIZE = 5 * 1024 * 1024
    """The default maximal size that the snapshotted memory state may have (5 MiBytes)."""

    def __init__(self, checkpoint_path: Optional[str] = None,
                 max_state_size: Optional[int] = None):
        if max_state_size is None:
            max_state_size = self.DEFAULT_MAX_STATE_SIZE
        self._checkpoint_path = checkpoint_path
        self._max_state_size = max_state_size

    def get_checkpoint_path(self) -> Optional[str]:
        """The base directory where all the checkpoints are stored."""
        return self._checkpoint_path

    def get_max_state_size(self) -> int:
        """The maximum size that an individual state can have."""
        return self._max_state_size

    def get_savepoint_path(self) -> Optional[str]:
        """The base directory where all the savepoints are stored."""
        return None

    def __str__(self):
        return "JobManagerCheckpointStorage (checkpoints to JobManager) ( maxStateSize: %d)" \
            % self._max_state_size


class FileSystemCheckpointStorage(CheckpointStorage):
    """Checkpoints state as files to a file system.

    >>> FileSystemCheckpointStorage("file:///tmp/checkpoints").get_checkpoint_path()
    'file:///tmp/checkpoints'
    """

    MAX_FILE_STATE_THRESHOLD = 1024 * 1024
    """Maximum size of state that is stored with the metadata, rather than in files (1 MiByte)."""

    def __init__(self, checkpoint_path: Optional[str] = None,
                 file_state_size_threshold: Optional[int] = None, write_buffer_size: int = -1):
        if checkpoint_path is None:
            raise ValueError("checkpoint_path must not be None")
        self._checkpoint_path = checkpoint_path
        self._threshold = 20 * 1024 if file_state_size_threshold in (None, -1) \
            else file_state_size_threshold
        self._write_buffer_size = 4096 if write_buffer_size == -1 else write_buffer_size

    def get_checkpoint_path(self) -> str:
        """The base directory where all the checkpoints are stored."""
        return self._checkpoint_path

    def get_savepoint_path(self) -> Optional[str]:
        """The base directory where all the savepoints are stored."""
        return None

    def get_min_file_size_threshold(self) -> int:
        """The threshold below which state is stored as part of the metadata."""
        return self._threshold

    def get_write_buffer_size(self) -> int:
        """The write buffer size for created checkpoint streams."""
        return self._write_buffer_size

    def __str__(self):
        return "FileSystemCheckpointStorage {checkpointsDirectory=%s, fileStateThreshold=%d}" % (
            self._checkpoint_path, self._threshold)


class CustomCheckpointStorage(CheckpointStorage):
    """A checkpoint storage implemented in Java (PyFlink wraps a Java object): recorded."""

    def __init__(self, checkpoint_storage: Any = None):
        self._checkpoint_storage = checkpoint_storage
