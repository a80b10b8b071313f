"""Everything a PyFlink user imports from ``pyflink.common``.

Names are loaded when first used (PEP 562), as in ``pystream.datastream``: a module that
needs one submodule (the runtime's codecs need ``common.types``) does not run the others.
"""
from importlib import import_module

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


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is not None:
        return getattr(import_module("pystream.common." + module), name)
    try:  # a submodule, as after ``import pystream.common.<module>``
        return import_module("pystream.common." + name)
    except ModuleNotFoundError:
        raise AttributeError("module 'pystream.common' has no attribute %r" % name) from None


def __dir__():
    return __all__
