"""The DataStream API, with PyFlink's names (``pyflink.datastream`` -> ``pystream.datastream``)."""
from pystream.datastream.async_data_stream import AsyncDataStream
from pystream.datastream.checkpoint_config import (
                                                   CheckpointConfig,
                                                   CheckpointingMode,
                                                   ExternalizedCheckpointRetention,
)
from pystream.datastream.checkpoint_storage import (
    CheckpointStorage,
    CustomCheckpointStorage,
    FileSystemCheckpointStorage,
    JobManagerCheckpointStorage,
)
from pystream.datastream.connected import (
    BroadcastConnectedStream,
    BroadcastStream,
    ConnectedStreams,
)
from pystream.datastream.data_stream import (
                                                   CloseableIterator,
                                                   DataStream,
                                                   DataStreamSink,
                                                   KeyedStream,
)
from pystream.datastream.execution_mode import RuntimeExecutionMode
from pystream.datastream.functions import (
                                                   AggregateFunction,
                                                   AllWindowFunction,
                                                   AsyncFunction,
                                                   AsyncRetryPredicate,
                                                   AsyncRetryStrategy,
                                                   BroadcastProcessFunction,
                                                   CoFlatMapFunction,
                                                   CoMapFunction,
                                                   CoProcessFunction,
                                                   FilterFunction,
                                                   FlatMapFunction,
                                                   KeyedBroadcastProcessFunction,
                                                   KeyedCoProcessFunction,
                                                   KeyedProcessFunction,
                                                   KeySelector,
                                                   MapFunction,
                                                   Partitioner,
                                                   ProcessAllWindowFunction,
                                                   ProcessFunction,
                                                   ProcessWindowFunction,
                                                   ReduceFunction,
                                                   RuntimeContext,
                                                   SinkFunction,
                                                   SourceFunction,
                                                   TimeDomain,
                                                   TimerService,
                                                   WindowFunction,
)
from pystream.datastream.output_tag import OutputTag
from pystream.datastream.slot_sharing_group import MemorySize, SlotSharingGroup
from pystream.datastream.state_backend import (
    CustomStateBackend,
    EmbeddedRocksDBStateBackend,
    HashMapStateBackend,
    PredefinedOptions,
    StateBackend,
)
from pystream.datastream.stream_execution_environment import StreamExecutionEnvironment
from pystream.datastream.window import (
    CountWindow,
    GlobalWindow,
    MergingWindowAssigner,
    TimeWindow,
    Trigger,
    TriggerResult,
    Window,
    WindowAssigner,
)
from pystream.datastream.windowing import WindowedStream

__all__ = [
    "StreamExecutionEnvironment", "DataStream", "KeyedStream", "DataStreamSink",
    "CloseableIterator", "RuntimeExecutionMode", "MapFunction", "CoMapFunction",
    "FlatMapFunction", "CoFlatMapFunction", "ReduceFunction", "FilterFunction", "ProcessFunction",
    "KeyedProcessFunction", "CoProcessFunction", "KeyedCoProcessFunction", "WindowFunction",
    "AllWindowFunction", "ProcessWindowFunction", "ProcessAllWindowFunction",
    "AggregateFunction", "BroadcastProcessFunction", "KeyedBroadcastProcessFunction",
    "RuntimeContext", "TimerService", "TimeDomain", "KeySelector", "Partitioner",
    "SourceFunction", "SinkFunction", "OutputTag", "CheckpointConfig", "CheckpointingMode",
    "ExternalizedCheckpointRetention", "AsyncDataStream", "AsyncFunction",
    "AsyncRetryPredicate", "AsyncRetryStrategy",
    "WindowedStream", "ConnectedStreams", "BroadcastStream", "BroadcastConnectedStream",
    "StateBackend", "HashMapStateBackend", "EmbeddedRocksDBStateBackend", "CustomStateBackend",
    "PredefinedOptions", "CheckpointStorage", "JobManagerCheckpointStorage",
    "FileSystemCheckpointStorage", "CustomCheckpointStorage", "Window", "TimeWindow",
    "CountWindow", "GlobalWindow", "WindowAssigner", "MergingWindowAssigner", "TriggerResult",
    "Trigger", "SlotSharingGroup", "MemorySize",
]
