"""The RuntimeContext functions receive in ``open()``."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Optional

from pystream.core.functions import RuntimeContext
from pystream.errors import PystreamError
from pystream.metrics import MetricGroup
from pystream.runtime.dependencies import cached_file
from pystream.runtime.metric_reports import MetricsTarget

NO_TIMESTAMP = -(2 ** 63)
"""What ``ctx.timestamp()`` gives for a record without a timestamp (Flink's Long.MIN_VALUE)."""


@dataclass(frozen=True)
class TaskInfo:
    """What the compiler tells a task about itself."""

    task_name: str
    parallelism: int
    max_parallelism: int
    job_parameters: Dict[str, str] = field(default_factory=dict)
    batch_mode: bool = False
    metrics: Optional[MetricsTarget] = None  # where the job's metrics add up

    def metric_group(self) -> MetricGroup:
        """A new root group of the task's metrics (named by the task; in a job, reported)."""
        return MetricGroup(owner=self.task_name, reporter=self.metrics)


class DistributedCache:
    """The files the job registered with ``env.register_cached_file``, on this machine."""

    def get_file(self, name: str) -> str:
        """The local path of the file (or directory) registered as ``name``."""
        return cached_file(name)


def subtask_index() -> int:
    from pyspark import TaskContext

    ctx = TaskContext.get()
    return ctx.partitionId() if ctx is not None else 0


def attempt_number() -> int:
    from pyspark import TaskContext

    ctx = TaskContext.get()
    return ctx.attemptNumber() if ctx is not None else 0


class StreamingRuntimeContext(RuntimeContext):
    """RuntimeContext of a task; keyed state is available when ``state`` is given."""

    def __init__(self, info: TaskInfo, index: Optional[int] = None, state=None):
        self._info = info
        self._index = subtask_index() if index is None else index
        self._state = state

    @property
    def in_batch_execution_mode(self) -> bool:
        return self._info.batch_mode

    def get_task_name(self) -> str:
        return self._info.task_name

    def get_metrics_group(self) -> MetricGroup:
        """The function's metrics: the job's totals add them up (``pystream.metrics``)."""
        if getattr(self, "_metric_group", None) is None:
            self._metric_group = self._info.metric_group()
        return self._metric_group

    def get_number_of_parallel_subtasks(self) -> int:
        return max(self._info.parallelism, self._index + 1)

    def get_max_number_of_parallel_subtasks(self) -> int:
        return self._info.max_parallelism

    def get_index_of_this_subtask(self) -> int:
        return self._index

    def get_attempt_number(self) -> int:
        return attempt_number()

    def get_task_name_with_subtasks(self) -> str:
        return "%s (%d/%d)" % (self._info.task_name, self._index + 1,
                               self.get_number_of_parallel_subtasks())

    def get_job_parameter(self, key: str, default_value: Optional[str] = None) -> Optional[str]:
        return self._info.job_parameters.get(key, default_value)

    def get_distributed_cache(self) -> DistributedCache:
        return DistributedCache()

    def _keyed(self, what: str):
        if self._state is None:
            raise PystreamError(
                "%s is only available on a KeyedStream: the function of operator '%s' runs on a "
                "non-keyed stream (call key_by(...) first)" % (what, self._info.task_name))
        return self._state

    def get_state(self, state_descriptor):
        return self._keyed("Keyed state").value_state(state_descriptor)

    def get_list_state(self, state_descriptor):
        return self._keyed("Keyed state").list_state(state_descriptor)

    def get_map_state(self, state_descriptor):
        return self._keyed("Keyed state").map_state(state_descriptor)

    def get_reducing_state(self, state_descriptor):
        return self._keyed("Keyed state").reducing_state(state_descriptor)

    def get_aggregating_state(self, state_descriptor):
        return self._keyed("Keyed state").aggregating_state(state_descriptor)
