"""What planning needs to know about a job besides its graph: a snapshot of its settings."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Optional


@dataclass(frozen=True)
class JobSettings:
    """A snapshot of the environment's settings at ``execute()``."""

    job_name: str = "pystream job"
    # the environment's runtime mode: 'STREAMING', 'BATCH' or 'AUTOMATIC' (BATCH when every
    # source is bounded), which ``plan()`` resolves into ``batch``; None: ``batch`` as given
    runtime_mode: Optional[str] = None
    batch: bool = False  # Flink's BATCH runtime mode (its semantics)
    # a STREAMING job that runs on Spark batch DataFrames (see ``pystream.plan.batch``): the
    # reason, or None; ``may_run_as_batch`` False keeps streaming queries
    as_batch: Optional[str] = None
    may_run_as_batch: bool = True
    parallelism: int = 1  # the environment's default parallelism
    parallelism_explicit: bool = False
    max_parallelism: int = 128
    job_parameters: Dict[str, str] = field(default_factory=dict)
    checkpoint_dir: Optional[str] = None
    checkpoint_interval_ms: Optional[int] = None
    auto_watermark_interval_ms: int = 200
    chaining: bool = True
    # the job's declared ``pystream.dependencies.Dependencies`` (Python files, requirements,
    # jars...); the runtime prepares them when the job starts
    dependencies: Optional[Any] = None

    @property
    def spark_batch(self) -> bool:
        """Whether the job runs on Spark batch DataFrames (not streaming queries)."""
        return self.batch or self.as_batch is not None
