"""Everything a PyFlink user imports from ``pyflink.common``."""
from pystream.common.completable_future import CompletableFuture
from pystream.common.config_options import ConfigOption, ConfigOptions
from pystream.common.configuration import Configuration
from pystream.common.execution_config import ExecutionConfig
from pystream.common.input_dependency_constraint import InputDependencyConstraint
from pystream.common.job_client import JobClient
from pystream.common.job_execution_result import JobExecutionResult
from pystream.common.job_id import JobID
from pystream.common.job_status import JobStatus
from pystream.common.restart_strategy import RestartStrategies, RestartStrategyConfiguration
from pystream.common.serialization import (
                                 AvroRowDeserializationSchema,
                                 AvroRowSerializationSchema,
                                 ByteArraySchema,
                                 CsvRowDeserializationSchema,
                                 CsvRowSerializationSchema,
                                 DeserializationSchema,
                                 Encoder,
                                 JsonRowDeserializationSchema,
                                 JsonRowSerializationSchema,
                                 SerializationSchema,
                                 SimpleStringSchema,
)
from pystream.common.serializer import TypeSerializer
from pystream.common.time import Duration, Instant, Time
from pystream.common.typeinfo import TypeInformation, Types
from pystream.common.types import Row, RowKind
from pystream.common.watermark_strategy import (
                                 AssignerWithPeriodicWatermarksWrapper,
                                 TimestampAssigner,
                                 WatermarkStrategy,
)

__all__ = [
    "Configuration", "ExecutionConfig", "TypeInformation", "Types", "SerializationSchema",
    "DeserializationSchema", "SimpleStringSchema", "ByteArraySchema", "Encoder",
    "CompletableFuture", "JobClient", "JobExecutionResult", "JobID", "JobStatus", "Row",
    "RowKind", "WatermarkStrategy", "TimestampAssigner", "Duration", "Instant", "Time",
    "ConfigOption", "ConfigOptions", "TypeSerializer", "InputDependencyConstraint",
    "RestartStrategies", "RestartStrategyConfiguration", "AssignerWithPeriodicWatermarksWrapper",
    # PyFlink keeps these here for backward compatibility (pyflink.datastream.formats.*)
    "JsonRowSerializationSchema", "JsonRowDeserializationSchema", "CsvRowSerializationSchema",
    "CsvRowDeserializationSchema", "AvroRowSerializationSchema", "AvroRowDeserializationSchema",
]
