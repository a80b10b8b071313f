"""Everything a PyFlink user imports from ``pyflink.common``."""
from pystream.common.configuration import Configuration
from pystream.common.execution_config import ExecutionConfig
from pystream.common.job import CompletableFuture, JobClient, JobExecutionResult, JobID, JobStatus
from pystream.common.serialization import (
                                 ByteArraySchema,
                                 DeserializationSchema,
                                 Encoder,
                                 SerializationSchema,
                                 SimpleStringSchema,
)
from pystream.common.time import Duration, Instant, Time
from pystream.common.typeinfo import TypeInformation, Types
from pystream.common.types import Row, RowKind
from pystream.common.watermark_strategy import TimestampAssigner, WatermarkStrategy

__all__ = [
    "Configuration", "ExecutionConfig", "TypeInformation", "Types", "SerializationSchema",
    "DeserializationSchema", "SimpleStringSchema", "ByteArraySchema", "Encoder",
    "CompletableFuture", "JobClient", "JobExecutionResult", "JobID", "JobStatus", "Row",
    "RowKind", "WatermarkStrategy", "TimestampAssigner", "Duration", "Instant", "Time",
]
