"""Everything a PyFlink user imports from ``pyflink.common``.

Names are loaded when first used (PEP 562), as in ``pystream.datastream``: a module that
needs one submodule (the runtime's codecs need ``common.types``) does not run the others.
"""
from pystream.util.lazy import lazy_names

_EXPORTS = {
    "CompletableFuture": "completable_future", "ConfigOption": "config_options",
    "ConfigOptions": "config_options", "Configuration": "configuration",
    "ExecutionConfig": "execution_config",
    "InputDependencyConstraint": "input_dependency_constraint", "JobClient": "job_client",
    "JobExecutionResult": "job_execution_result", "JobID": "job_id", "JobStatus": "job_status",
    "RestartStrategies": "restart_strategy",
    "RestartStrategyConfiguration": "restart_strategy",
    "AvroRowDeserializationSchema": "serialization",
    "AvroRowSerializationSchema": "serialization", "ByteArraySchema": "serialization",
    "CsvRowDeserializationSchema": "serialization",
    "CsvRowSerializationSchema": "serialization", "DeserializationSchema": "serialization",
    "Encoder": "serialization", "JsonRowDeserializationSchema": "serialization",
    "JsonRowSerializationSchema": "serialization", "SerializationSchema": "serialization",
    "SimpleStringSchema": "serialization", "TypeSerializer": "serializer", "Duration": "time",
    "Instant": "time", "Time": "time", "TypeInformation": "typeinfo", "Types": "typeinfo",
    "Row": "types", "RowKind": "types",
    "AssignerWithPeriodicWatermarksWrapper": "watermark_strategy",
    "TimestampAssigner": "watermark_strategy", "WatermarkStrategy": "watermark_strategy",
}

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


__getattr__, __dir__ = lazy_names(__name__, _EXPORTS, __all__)
