"""``ExecutionConfig``: per-job settings read by the compiler."""
from __future__ import annotations

from typing import Dict, List

__all__ = ["ExecutionConfig"]


class ExecutionConfig:
    """Job-wide settings: default parallelism, job parameters, watermark interval.

    >>> config = ExecutionConfig()
    >>> config.set_global_job_parameters({'threshold': '3'}).get_global_job_parameters()
    {'threshold': '3'}
    """

    PARALLELISM_DEFAULT = -1
    """Use the environment's default parallelism."""

    PARALLELISM_UNKNOWN = -2
    """An unknown or unset parallelism (leave it unchanged)."""

    def __init__(self):
        self._task_cancellation_interval = 30000
        self._task_cancellation_timeout = 180000
        self._parallelism = -1
        self._max_parallelism = -1
        self._auto_watermark_interval = 200
        self._latency_tracking_interval = -1
        self._global_job_parameters: Dict[str, str] = {}
        self._flags = {"closure_cleaner": True, "object_reuse": False, "auto_generated_uids": True,
                       "generic_types": True, "force_kryo": False, "force_avro": False,
                       "snapshot_compression": False}

    def get_parallelism(self) -> int:
        return self._parallelism

    def set_parallelism(self, parallelism: int) -> "ExecutionConfig":
        if parallelism < 1 and parallelism != -1:
            raise ValueError("Parallelism must be at least one, or -1 (use system default).")
        self._parallelism = parallelism
        return self

    def get_max_parallelism(self) -> int:
        return self._max_parallelism

    def set_max_parallelism(self, max_parallelism: int) -> "ExecutionConfig":
        self._max_parallelism = max_parallelism
        return self

    def set_auto_watermark_interval(self, interval: int) -> "ExecutionConfig":
        self._auto_watermark_interval = interval
        return self

    def get_auto_watermark_interval(self) -> int:
        return self._auto_watermark_interval

    def set_latency_tracking_interval(self, interval: int) -> "ExecutionConfig":
        self._latency_tracking_interval = interval
        return self

    def get_latency_tracking_interval(self) -> int:
        return self._latency_tracking_interval

    def get_global_job_parameters(self) -> Dict[str, str]:
        return dict(self._global_job_parameters)

    def set_global_job_parameters(self, global_job_parameters_dict: Dict) -> "ExecutionConfig":
        params = global_job_parameters_dict
        self._global_job_parameters = {str(k): str(v) for k, v in params.items()}
        return self

    # Serializer switches of the JVM runtime: pystream records them (they change no result).
    def _flag(self, name, value=None):
        if value is None:
            return self._flags[name]
        self._flags[name] = value
        return self

    def enable_closure_cleaner(self): return self._flag("closure_cleaner", True)
    def disable_closure_cleaner(self): return self._flag("closure_cleaner", False)
    def is_closure_cleaner_enabled(self) -> bool: return self._flag("closure_cleaner")
    def enable_object_reuse(self): return self._flag("object_reuse", True)
    def disable_object_reuse(self): return self._flag("object_reuse", False)
    def is_object_reuse_enabled(self) -> bool: return self._flag("object_reuse")
    def enable_auto_generated_uids(self): return self._flag("auto_generated_uids", True)
    def disable_auto_generated_uids(self): return self._flag("auto_generated_uids", False)
    def has_auto_generated_uids_enabled(self) -> bool: return self._flag("auto_generated_uids")
    def enable_generic_types(self): return self._flag("generic_types", True)
    def disable_generic_types(self): return self._flag("generic_types", False)
    def has_generic_types_disabled(self) -> bool: return not self._flag("generic_types")
    def enable_force_kryo(self): return self._flag("force_kryo", True)
    def disable_force_kryo(self): return self._flag("force_kryo", False)
    def is_force_kryo_enabled(self) -> bool: return self._flag("force_kryo")
    def enable_force_avro(self): return self._flag("force_avro", True)
    def disable_force_avro(self): return self._flag("force_avro", False)
    def is_force_avro_enabled(self) -> bool: return self._flag("force_avro")
    def set_use_snapshot_compression(self, use_snapshot_compression: bool):
        return self._flag("snapshot_compression", bool(use_snapshot_compression))
    def is_use_snapshot_compression(self) -> bool: return self._flag("snapshot_compression")

    # Task cancellation and Kryo/POJO registrations are JVM-runtime settings: recorded.
    def get_task_cancellation_interval(self) -> int:
        """The interval (in milliseconds) between consecutive attempts to cancel a task."""
        return self._task_cancellation_interval

    def set_task_cancellation_interval(self, interval: int) -> "ExecutionConfig":
        """Recorded (Spark cancels tasks by itself)."""
        self._task_cancellation_interval = interval
        return self

    def get_task_cancellation_timeout(self) -> int:
        """The timeout (in milliseconds) after which a task cancellation is considered failed."""
        return self._task_cancellation_timeout

    def set_task_cancellation_timeout(self, timeout: int) -> "ExecutionConfig":
        """Recorded (Spark cancels tasks by itself); ``0`` disables the timeout."""
        self._task_cancellation_timeout = timeout
        return self

    def get_default_kryo_serializer_classes(self) -> Dict[str, str]:
        """The registered default Kryo serializer classes (none: Python values are pickled)."""
        return {}

    def get_registered_kryo_types(self) -> List[str]:
        """The registered Kryo types (none: Python values are pickled)."""
        return []

    def get_registered_pojo_types(self) -> List[str]:
        """The registered POJO types (none: Python values are pickled)."""
        return []
