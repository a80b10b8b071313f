"""Checkpointing: ``env.enable_checkpointing(interval)`` plus a checkpoint directory.

On Spark a checkpoint is a streaming query's ``checkpointLocation`` (offsets, commits and the
RocksDB state store). With a directory configured (``execution.checkpointing.dir``, or the
older ``state.checkpoints.dir``) every sink's query keeps its checkpoint under
``<dir>/<job name>/<sink uid or position>``, so a job started again resumes where it stopped.
"""
from __future__ import annotations

import re
from enum import Enum
from typing import Optional

__all__ = ["CheckpointingMode", "CheckpointConfig", "ExternalizedCheckpointRetention"]

CHECKPOINT_DIR_KEYS = ("execution.checkpointing.dir", "state.checkpoints.dir",
                       "state.backend.fs.checkpointdir")  # the key, then deprecated ones
INTERVAL_KEY = "execution.checkpointing.interval"
_UNIT_MILLIS = {"ms": 1, "milli": 1, "millis": 1, "millisecond": 1, "milliseconds": 1,
                "s": 1000, "sec": 1000, "secs": 1000, "second": 1000, "seconds": 1000,
                "m": 60_000, "min": 60_000, "mins": 60_000, "minute": 60_000,
                "minutes": 60_000, "h": 3_600_000, "hour": 3_600_000, "hours": 3_600_000,
                "d": 86_400_000, "day": 86_400_000, "days": 86_400_000}


def duration_millis(text: str) -> int:
    """Milliseconds of a Flink duration setting: ``"500"`` (ms), ``"5 s"``, ``"1min"``."""
    match = re.fullmatch(r"\s*(-?\d+)\s*([a-zA-Z]*)\s*", text)
    unit = match.group(2).lower() if match else None
    if unit is not None and (not unit or unit in _UNIT_MILLIS):
        return int(match.group(1)) * _UNIT_MILLIS.get(unit, 1)
    raise ValueError("Could not parse duration %r: expected a number with an optional unit "
                     "(ms, s, min, h, d)" % text)


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

    def set_checkpointing_mode(self, mode: CheckpointingMode) -> "CheckpointConfig":
        self._mode = mode
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

    def set_min_pause_between_checkpoints(self, min_pause: int) -> "CheckpointConfig":
        self._min_pause_ms = min_pause
        return self

    def get_max_concurrent_checkpoints(self) -> int:
        return self._max_concurrent

    def set_max_concurrent_checkpoints(self, max_concurrent: int) -> "CheckpointConfig":
        self._max_concurrent = max_concurrent
        return self

    def get_tolerable_checkpoint_failure_number(self) -> int:
        return self._tolerable_failures

    def set_tolerable_checkpoint_failure_number(self, number: int) -> "CheckpointConfig":
        self._tolerable_failures = number
        return self

    def set_externalized_checkpoint_retention(self, retention) -> "CheckpointConfig":
        self._retention = retention
        return self

    def get_externalized_checkpoint_retention(self):
        return self._retention

    def is_externalized_checkpoints_enabled(self) -> bool:
        return self._retention is not ExternalizedCheckpointRetention.NO_EXTERNALIZED_CHECKPOINTS

    def is_unaligned_checkpoints_enabled(self) -> bool:
        return False

    def enable_unaligned_checkpoints(self, enabled: bool = True):
        from pystream.errors import UnsupportedFeatureError

        raise UnsupportedFeatureError("unaligned checkpoints: Spark checkpoints at micro-batch "
                                      "boundaries and has no barriers to align")
