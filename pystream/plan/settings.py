"""What the compiler needs to know about the job besides its graph."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Optional

from pystream.runtime.dependencies import Bundle


@dataclass(frozen=True)
class JobSettings:
    """A snapshot of the environment's settings at ``execute()``."""

    job_name: str = "pystream job"
    batch: bool = False  # Flink's BATCH runtime mode (its semantics)
    # a STREAMING job that runs on Spark batch DataFrames (see ``compiler.batch_plan``): the
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
    dependencies: Optional[Bundle] = None  # Python files etc. shipped to the workers

    @property
    def spark_batch(self) -> bool:
        """Whether the job runs on Spark batch DataFrames (not streaming queries)."""
        return self.batch or self.as_batch is not None
