"""Checkpointing: ``env.enable_checkpointing(interval)`` plus a checkpoint directory.

On Spark a checkpoint is a streaming query's ``checkpointLocation`` (offsets, commits and the
RocksDB state store). With a directory configured (``execution.checkpointing.dir``, or the
older ``state.checkpoints.dir``) every sink's query keeps its checkpoint under
``<dir>/<job name>/<sink uid or position>``, so a job started again resumes where it stopped.
"""
from __future__ import annotations

from enum import Enum
from typing import Optional

from pystream.common.time import Duration, duration_millis

__all__ = ["CheckpointingMode", "CheckpointConfig", "ExternalizedCheckpointRetention"]

CHECKPOINT_DIR_KEYS = ("execution.checkpointing.dir", "state.checkpoints.dir",
                       "state.backend.fs.checkpointdir")  # the key, then deprecated ones
INTERVAL_KEY = "execution.checkpointing.interval"

class CheckpointingMode(Enum):
    """EXACTLY_ONCE or AT_LEAST_ONCE (Spark's micro-batch checkpoints are exactly-once for
    state; sinks say what they guarantee)."""

    EXACTLY_ONCE = 0
    AT_LEAST_ONCE = 1


class ExternalizedCheckpointRetention(Enum):
    DELETE_ON_CANCELLATION = 0
    RETAIN_ON_CANCELLATION = 1
    NO_EXTERNALIZED_CHECKPOINTS = 2


class CheckpointConfig:
    """The checkpoint settings of an environment."""

    def __init__(self, configuration):
        self._configuration = configuration
        self._mode = CheckpointingMode.EXACTLY_ONCE
        self._timeout_ms = 600_000
        self._min_pause_ms = 0
        self._max_concurrent = 1
        self._tolerable_failures = 0
        self._retention = ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION
        self._unaligned = False
        self._force_unaligned = False
        self._aligned_checkpoint_timeout_ms = 0

    def is_checkpointing_enabled(self) -> bool:
        return self.get_checkpoint_interval() > 0

    def get_checkpoint_interval(self) -> int:
        return duration_millis(self._configuration.get_string(INTERVAL_KEY, "-1"))

    def set_checkpoint_interval(self, checkpoint_interval: int) -> "CheckpointConfig":
        if checkpoint_interval < 10:
            raise ValueError("Checkpoint interval must be larger than or equal to 10 ms")
        self._configuration.set_string(INTERVAL_KEY, str(int(checkpoint_interval)))
        return self

    def get_checkpointing_mode(self) -> CheckpointingMode:
        return self._mode

    def set_checkpointing_mode(self, checkpointing_mode: CheckpointingMode) -> "CheckpointConfig":
        self._mode = checkpointing_mode
        return self

    def get_checkpoint_storage_dir(self) -> Optional[str]:
        for key in CHECKPOINT_DIR_KEYS:
            value = self._configuration.get_string(key, None)
            if value:
                return value
        return None

    def set_checkpoint_storage_dir(self, checkpoint_path: str) -> "CheckpointConfig":
        """Where checkpoints go (same as ``execution.checkpointing.dir``)."""
        self._configuration.set_string(CHECKPOINT_DIR_KEYS[0], checkpoint_path)
        return self

    def get_checkpoint_timeout(self) -> int:
        return self._timeout_ms

    def set_checkpoint_timeout(self, checkpoint_timeout: int) -> "CheckpointConfig":
        self._timeout_ms = checkpoint_timeout
        return self

    def get_min_pause_between_checkpoints(self) -> int:
        return self._min_pause_ms

    def set_min_pause_between_checkpoints(self, min_pause_between_checkpoints: int
                                          ) -> "CheckpointConfig":
        """Recorded (Spark starts a micro-batch when the previous one ended)."""
        self._min_pause_ms = min_pause_between_checkpoints
        return self

    def get_max_concurrent_checkpoints(self) -> int:
        return self._max_concurrent

    def set_max_concurrent_checkpoints(self, max_concurrent_checkpoints: int
                                       ) -> "CheckpointConfig":
        """Recorded (Spark commits one micro-batch at a time)."""
        self._max_concurrent = max_concurrent_checkpoints
        return self

    def get_tolerable_checkpoint_failure_number(self) -> int:
        return self._tolerable_failures

    def set_tolerable_checkpoint_failure_number(self, tolerable_checkpoint_failure_number: int
                                                ) -> "CheckpointConfig":
        """Recorded (a failed Spark checkpoint fails the query)."""
        self._tolerable_failures = tolerable_checkpoint_failure_number
        return self

    def is_fail_on_checkpointing_errors(self) -> bool:
        """Whether tasks fail on a checkpointing error (deprecated in PyFlink 2.0)."""
        return self.get_tolerable_checkpoint_failure_number() == 0

    def set_fail_on_checkpointing_errors(self, fail_on_checkpointing_errors: bool
                                         ) -> "CheckpointConfig":
        """Fail on checkpointing errors or not (deprecated in PyFlink 2.0; recorded)."""
        return self.set_tolerable_checkpoint_failure_number(
            0 if fail_on_checkpointing_errors else 2147483647)

    def set_externalized_checkpoint_retention(
            self, retention_mode: ExternalizedCheckpointRetention) -> "CheckpointConfig":
        """Recorded: Spark keeps a job's checkpoints in its checkpoint directory."""
        self._retention = retention_mode
        return self

    def get_externalized_checkpoint_retention(self):
        return self._retention

    def is_externalized_checkpoints_enabled(self) -> bool:
        return self._retention is not ExternalizedCheckpointRetention.NO_EXTERNALIZED_CHECKPOINTS

    # Unaligned checkpoints: Spark checkpoints at micro-batch boundaries and has no barriers to
    # align, so these settings are recorded and change nothing.

    def is_unaligned_checkpoints_enabled(self) -> bool:
        """Whether unaligned checkpoints are enabled (recorded)."""
        return self._unaligned

    def enable_unaligned_checkpoints(self, enabled: bool = True) -> "CheckpointConfig":
        """Recorded: Spark checkpoints at micro-batch boundaries, without barriers."""
        self._unaligned = bool(enabled)
        return self

    def disable_unaligned_checkpoints(self) -> "CheckpointConfig":
        return self.enable_unaligned_checkpoints(False)

    def set_aligned_checkpoint_timeout(self, alignment_timeout: Duration) -> "CheckpointConfig":
        """Recorded (see ``enable_unaligned_checkpoints``)."""
        self._aligned_checkpoint_timeout_ms = alignment_timeout.to_milliseconds()
        return self

    def get_aligned_checkpoint_timeout(self) -> Duration:
        return Duration.of_millis(self._aligned_checkpoint_timeout_ms)

    def set_alignment_timeout(self, alignment_timeout: Duration) -> "CheckpointConfig":
        """Deprecated in PyFlink 2.0: use ``set_aligned_checkpoint_timeout``."""
        return self.set_aligned_checkpoint_timeout(alignment_timeout)

    def get_alignment_timeout(self) -> Duration:
        """Deprecated in PyFlink 2.0: use ``get_aligned_checkpoint_timeout``."""
        return self.get_aligned_checkpoint_timeout()

    def set_force_unaligned_checkpoints(self, force_unaligned_checkpoints: bool = True
                                        ) -> "CheckpointConfig":
        """Recorded (see ``enable_unaligned_checkpoints``)."""
        self._force_unaligned = bool(force_unaligned_checkpoints)
        return self

    def is_force_unaligned_checkpoints(self) -> bool:
        return self._force_unaligned
