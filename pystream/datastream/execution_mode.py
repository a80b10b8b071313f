"""``RuntimeExecutionMode``: STREAMING, BATCH or AUTOMATIC."""
from enum import Enum

__all__ = ["RuntimeExecutionMode"]


class RuntimeExecutionMode(Enum):
    """How a job runs: STREAMING on Structured Streaming, BATCH on batch DataFrames,
    AUTOMATIC chooses BATCH when every source is bounded."""

    STREAMING = 0
    BATCH = 1
    AUTOMATIC = 2
