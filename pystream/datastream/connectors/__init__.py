"""Connectors: where streams come from and where they go (PyFlink's names and builders)."""
from pystream.core.connectors.base import Boundedness, DeliveryGuarantee, Sink, Source
from pystream.core.connectors.datagen import DataGeneratorSource
from pystream.core.connectors.discarding import DiscardingSink
from pystream.core.connectors.file_system import (
    BucketAssigner,
    FileEnumeratorProvider,
    FileSink,
    FileSource,
    FileSourceBuilder,
    FileSplitAssignerProvider,
    OutputFileConfig,
    RollingPolicy,
    StreamFormat,
    StreamingFileSink,
)
from pystream.core.connectors.jdbc import (
    JdbcConnectionOptions,
    JdbcExecutionOptions,
    JdbcSink,
)
from pystream.core.connectors.kafka import (
    FlinkKafkaConsumer,
    FlinkKafkaProducer,
    KafkaSink,
    KafkaSource,
    Semantic,
)
from pystream.core.connectors.number_seq import NumberSequenceSource
from pystream.datastream.connectors.dynamic_kafka import (
    DynamicKafkaSource,
    DynamicKafkaSourceBuilder,
    KafkaMetadataService,
    KafkaRecordDeserializationSchema,
    KafkaStreamSetSubscriber,
    KafkaStreamSubscriber,
    SingleClusterTopicMetadataService,
    StreamPatternSubscriber,
)
from pystream.datastream.connectors.pulsar import (
    PulsarSource,
    PulsarSourceBuilder,
    StartCursor,
    StopCursor,
)
from pystream.datastream.connectors.rabbitmq import RMQConnectionConfig, RMQSink, RMQSource

__all__ = ["Source", "Sink", "Boundedness", "DeliveryGuarantee", "NumberSequenceSource",
           "DataGeneratorSource", "DiscardingSink", "BucketAssigner", "FileEnumeratorProvider",
           "FileSink",
           "FileSource", "FileSourceBuilder", "FileSplitAssignerProvider", "OutputFileConfig",
           "RollingPolicy", "StreamFormat", "StreamingFileSink", "KafkaSource", "KafkaSink",
           "FlinkKafkaConsumer", "FlinkKafkaProducer", "Semantic", "JdbcSink",
           "JdbcConnectionOptions", "JdbcExecutionOptions", "DynamicKafkaSource",
           "DynamicKafkaSourceBuilder", "KafkaMetadataService", "KafkaRecordDeserializationSchema",
           "KafkaStreamSetSubscriber", "KafkaStreamSubscriber", "StreamPatternSubscriber",
           "SingleClusterTopicMetadataService", "PulsarSource", "PulsarSourceBuilder",
           "StartCursor", "StopCursor", "RMQSource", "RMQSink", "RMQConnectionConfig"]
