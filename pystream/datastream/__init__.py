"""The DataStream API, with PyFlink's names (``pyflink.datastream`` -> ``pystream.datastream``).

Names are loaded when first used (PEP 562), as in ``pystream.table``: importing a module of
this package (a connector, the function classes the workers call) does not run the
environment and the compiler behind it.
"""
from pystream.util.lazy import lazy_names

_EXPORTS = {
    "AsyncDataStream": "async_data_stream",
    "CheckpointConfig": "checkpoint_config", "CheckpointingMode": "checkpoint_config",
    "ExternalizedCheckpointRetention": "checkpoint_config",
    "CheckpointStorage": "checkpoint_storage", "CustomCheckpointStorage": "checkpoint_storage",
    "FileSystemCheckpointStorage": "checkpoint_storage",
    "JobManagerCheckpointStorage": "checkpoint_storage",
    "BroadcastConnectedStream": "connected", "BroadcastStream": "connected",
    "ConnectedStreams": "connected",
    "CloseableIterator": "data_stream", "DataStream": "data_stream",
    "DataStreamSink": "data_stream", "KeyedStream": "data_stream",
    "RuntimeExecutionMode": "execution_mode",
    "AggregateFunction": "functions", "AllWindowFunction": "functions",
    "AsyncFunction": "functions", "AsyncRetryPredicate": "functions",
    "AsyncRetryStrategy": "functions", "BroadcastProcessFunction": "functions",
    "CoFlatMapFunction": "functions", "CoMapFunction": "functions",
    "CoProcessFunction": "functions", "FilterFunction": "functions",
    "FlatMapFunction": "functions", "KeyedBroadcastProcessFunction": "functions",
    "KeyedCoProcessFunction": "functions", "KeyedProcessFunction": "functions",
    "KeySelector": "functions", "MapFunction": "functions", "Partitioner": "functions",
    "ProcessAllWindowFunction": "functions", "ProcessFunction": "functions",
    "ProcessWindowFunction": "functions", "ReduceFunction": "functions",
    "RuntimeContext": "functions", "SinkFunction": "functions", "SourceFunction": "functions",
    "TimeDomain": "functions", "TimerService": "functions", "WindowFunction": "functions",
    "OutputTag": "output_tag",
    "MemorySize": "slot_sharing_group", "SlotSharingGroup": "slot_sharing_group",
    "CustomStateBackend": "state_backend", "EmbeddedRocksDBStateBackend": "state_backend",
    "HashMapStateBackend": "state_backend", "PredefinedOptions": "state_backend",
    "StateBackend": "state_backend",
    "StreamExecutionEnvironment": "stream_execution_environment",
    "CountWindow": "window", "GlobalWindow": "window", "MergingWindowAssigner": "window",
    "TimeWindow": "window", "Trigger": "window", "TriggerResult": "window", "Window": "window",
    "WindowAssigner": "window",
    "WindowedStream": "windowing",
}

__all__ = [
    "StreamExecutionEnvironment", "DataStream", "KeyedStream", "DataStreamSink",
    "CloseableIterator", "RuntimeExecutionMode", "MapFunction", "CoMapFunction",
    "FlatMapFunction", "CoFlatMapFunction", "ReduceFunction", "FilterFunction",
    "ProcessFunction", "KeyedProcessFunction", "CoProcessFunction", "KeyedCoProcessFunction",
    "WindowFunction", "AllWindowFunction", "ProcessWindowFunction", "ProcessAllWindowFunction",
    "AggregateFunction", "BroadcastProcessFunction", "KeyedBroadcastProcessFunction",
    "RuntimeContext", "TimerService", "TimeDomain", "KeySelector", "Partitioner",
    "SourceFunction", "SinkFunction", "OutputTag", "CheckpointConfig", "CheckpointingMode",
    "ExternalizedCheckpointRetention", "AsyncDataStream", "AsyncFunction",
    "AsyncRetryPredicate", "AsyncRetryStrategy", "WindowedStream", "ConnectedStreams",
    "BroadcastStream", "BroadcastConnectedStream", "StateBackend", "HashMapStateBackend",
    "EmbeddedRocksDBStateBackend", "CustomStateBackend", "PredefinedOptions",
    "CheckpointStorage", "JobManagerCheckpointStorage", "FileSystemCheckpointStorage",
    "CustomCheckpointStorage", "Window", "TimeWindow", "CountWindow", "GlobalWindow",
    "WindowAssigner", "MergingWindowAssigner", "TriggerResult", "Trigger", "SlotSharingGroup",
    "MemorySize",
]


__getattr__, __dir__ = lazy_names(__name__, _EXPORTS, __all__)
