"""The DataStream API, with PyFlink's names (``pyflink.datastream`` -> ``pystream.datastream``)."""
from pystream.datastream.checkpoint_config import (
                                                   CheckpointConfig,
                                                   CheckpointingMode,
                                                   ExternalizedCheckpointRetention,
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
from pystream.datastream.stream_execution_environment import StreamExecutionEnvironment

__all__ = [
    "StreamExecutionEnvironment", "DataStream", "KeyedStream", "DataStreamSink",
    "CloseableIterator", "RuntimeExecutionMode", "MapFunction", "CoMapFunction",
    "FlatMapFunction", "CoFlatMapFunction", "ReduceFunction", "FilterFunction", "ProcessFunction",
    "KeyedProcessFunction", "CoProcessFunction", "KeyedCoProcessFunction", "WindowFunction",
    "AllWindowFunction", "ProcessWindowFunction", "ProcessAllWindowFunction",
    "AggregateFunction", "BroadcastProcessFunction", "KeyedBroadcastProcessFunction",
    "RuntimeContext", "TimerService", "TimeDomain", "KeySelector", "Partitioner",
    "SourceFunction", "SinkFunction", "OutputTag", "CheckpointConfig", "CheckpointingMode",
    "ExternalizedCheckpointRetention",
]
