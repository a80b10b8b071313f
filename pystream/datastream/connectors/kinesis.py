"""Amazon Kinesis (PyFlink's ``pyflink.datastream.connectors.kinesis``).

The consumer and the sinks are built as in PyFlink and hold their settings; a job using them
fails when compiled (``UnsupportedFeatureError``): pystream has no Kinesis connector for Spark.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Union

from pystream.common.serialization import DeserializationSchema, SerializationSchema
from pystream.common.watermark_strategy import AssignerWithPeriodicWatermarksWrapper
from pystream.core.connectors.base import (
    Boundedness,
    Sink,
    Source,
    UnsupportedConnector,
)

__all__ = ["KinesisShardAssigner", "KinesisDeserializationSchema", "WatermarkTracker",
           "PartitionKeyGenerator", "FlinkKinesisConsumer", "KinesisStreamsSink",
           "KinesisStreamsSinkBuilder", "KinesisFirehoseSink", "KinesisFirehoseSinkBuilder"]


class KinesisShardAssigner:
    """Maps Kinesis shards to subtask indices."""

    def __init__(self, kind: str):
        self.kind = kind

    @staticmethod
    def default_shard_assigner() -> "KinesisShardAssigner":
        """Maps shard hash-key ranges to subtasks."""
        return KinesisShardAssigner("default")

    @staticmethod
    def uniform_shard_assigner() -> "KinesisShardAssigner":
        """A more uniform distribution of shards over subtasks, for random partition keys."""
        return KinesisShardAssigner("uniform")


class KinesisDeserializationSchema:
    """A deserialization schema with Kinesis-specific information about the record (PyFlink
    wraps a Java one)."""

    def __init__(self, deserialization_schema: Any = None):
        self._deserialization_schema = deserialization_schema


class WatermarkTracker:
    """Aggregates watermarks across distributed operators."""

    def __init__(self, aggregate_name: str, log_accumulator_interval_millis: int = -1):
        self.aggregate_name = aggregate_name
        self.log_accumulator_interval_millis = log_accumulator_interval_millis

    @staticmethod
    def job_manager_watermark_tracker(aggregate_name: str,
                                      log_accumulator_interval_millis: int = -1
                                      ) -> "WatermarkTracker":
        return WatermarkTracker(aggregate_name, log_accumulator_interval_millis)


class FlinkKinesisConsumer(UnsupportedConnector, Source):
    """Subscribes to Kinesis streams (``env.add_source``); jobs using it fail when compiled on
    pystream."""

    connector_name = "Kinesis"

    def __init__(self, streams: Union[str, List[str]],
                 deserializer: Union[DeserializationSchema, KinesisDeserializationSchema],
                 config_props: Dict):
        super().__init__()
        self.streams = [streams] if isinstance(streams, str) else list(streams)
        self.deserializer = deserializer
        self.config_props = dict(config_props)
        self.shard_assigner: Optional[KinesisShardAssigner] = None
        self.periodic_watermark_assigner: Optional[AssignerWithPeriodicWatermarksWrapper] = None
        self.watermark_tracker: Optional[WatermarkTracker] = None

    def get_boundedness(self) -> Boundedness:
        return Boundedness.CONTINUOUS_UNBOUNDED

    def set_shard_assigner(self, shard_assigner: KinesisShardAssigner
                           ) -> "FlinkKinesisConsumer":
        """How shards are distributed over subtasks."""
        self.shard_assigner = shard_assigner
        return self

    def set_periodic_watermark_assigner(
            self, periodic_watermark_assigner: AssignerWithPeriodicWatermarksWrapper
    ) -> "FlinkKinesisConsumer":
        """The assigner of timestamps and watermarks."""
        self.periodic_watermark_assigner = periodic_watermark_assigner
        return self

    def set_watermark_tracker(self, watermark_tracker: WatermarkTracker
                              ) -> "FlinkKinesisConsumer":
        """The global watermark tracker aligning the shard consumers by event time."""
        self.watermark_tracker = watermark_tracker
        return self


class PartitionKeyGenerator:
    """Converts an input element to its partition key."""

    def __init__(self, kind: str):
        self.kind = kind

    @staticmethod
    def fixed() -> "PartitionKeyGenerator":
        """Each parallel instance writes to its own Kinesis partition."""
        return PartitionKeyGenerator("fixed")

    @staticmethod
    def random() -> "PartitionKeyGenerator":
        """A random partition key per element."""
        return PartitionKeyGenerator("random")


class KinesisStreamsSink(UnsupportedConnector, Sink):
    """A Kinesis Data Streams sink (``ds.sink_to``); jobs using it fail when compiled on
    pystream."""

    connector_name = "Kinesis Data Streams"

    def __init__(self, settings: Optional[Dict[str, Any]] = None):
        super().__init__()
        self.settings = dict(settings or {})

    @staticmethod
    def builder() -> "KinesisStreamsSinkBuilder":
        return KinesisStreamsSinkBuilder()


class _AsyncSinkBuilder:
    _defaults: Dict[str, Any] = {}

    def __init__(self):
        self._settings: Dict[str, Any] = dict(self._defaults)

    def _set(self, key: str, value):
        self._settings[key] = value
        return self

    def set_serialization_schema(self, serialization_schema: SerializationSchema):
        """The SerializationSchema of the records."""
        return self._set("serialization_schema", serialization_schema)

    def set_fail_on_error(self, fail_on_error: bool):
        """Fail the job when a write fails (else the records are retried)."""
        return self._set("fail_on_error", fail_on_error)

    def set_max_batch_size(self, max_batch_size: int):
        """Maximum number of elements written in one request."""
        return self._set("max_batch_size", max_batch_size)

    def set_max_in_flight_requests(self, max_in_flight_requests: int):
        """Maximum number of uncompleted requests."""
        return self._set("max_in_flight_requests", max_in_flight_requests)

    def set_max_buffered_requests(self, max_buffered_requests: int):
        """The maximum buffer length."""
        return self._set("max_buffered_requests", max_buffered_requests)

    def set_max_batch_size_in_bytes(self, max_batch_size_in_bytes: int):
        """The buffer size (in bytes) that triggers a flush."""
        return self._set("max_batch_size_in_bytes", max_batch_size_in_bytes)

    def set_max_time_in_buffer_ms(self, max_time_in_buffer_ms: int):
        """The maximum time an element may remain in the buffer."""
        return self._set("max_time_in_buffer_ms", max_time_in_buffer_ms)

    def set_max_record_size_in_bytes(self, max_record_size_in_bytes: int):
        """The maximum size of a record."""
        return self._set("max_record_size_in_bytes", max_record_size_in_bytes)


class KinesisStreamsSinkBuilder(_AsyncSinkBuilder):
    """Builds a KinesisStreamsSink (defaults: batches of 500, 50 requests in flight, 10000
    buffered requests, 5 MB batches, 5000 ms in buffer, 1 MB records, no fail on error)."""

    _defaults = {"max_batch_size": 500, "max_in_flight_requests": 50,
                 "max_buffered_requests": 10000, "max_batch_size_in_bytes": 5 * 1024 * 1024,
                 "max_time_in_buffer_ms": 5000, "max_record_size_in_bytes": 1024 * 1024,
                 "fail_on_error": False}

    def set_stream_name(self, stream_name: Union[str, List[str]]) -> "KinesisStreamsSinkBuilder":
        """The name of the stream written to (required)."""
        return self._set("stream_name", stream_name)

    def set_partition_key_generator(self, partition_key_generator: PartitionKeyGenerator
                                    ) -> "KinesisStreamsSinkBuilder":
        return self._set("partition_key_generator", partition_key_generator)

    def set_kinesis_client_properties(self, kinesis_client_properties: Dict
                                      ) -> "KinesisStreamsSinkBuilder":
        """Properties of the Kinesis client (region, credentials, ...)."""
        return self._set("kinesis_client_properties", dict(kinesis_client_properties))

    def build(self) -> KinesisStreamsSink:
        return KinesisStreamsSink(self._settings)


class KinesisFirehoseSink(UnsupportedConnector, Sink):
    """A Kinesis Data Firehose sink (``ds.sink_to``); jobs using it fail when compiled on
    pystream."""

    connector_name = "Kinesis Data Firehose"

    def __init__(self, settings: Optional[Dict[str, Any]] = None):
        super().__init__()
        self.settings = dict(settings or {})

    @staticmethod
    def builder() -> "KinesisFirehoseSinkBuilder":
        return KinesisFirehoseSinkBuilder()


class KinesisFirehoseSinkBuilder(_AsyncSinkBuilder):
    """Builds a KinesisFirehoseSink (defaults: batches of 500, 50 requests in flight, 10000
    buffered requests, 4 MB batches, 5000 ms in buffer, 1000 KB records, no fail on error)."""

    _defaults = {"max_batch_size": 500, "max_in_flight_requests": 50,
                 "max_buffered_requests": 10000, "max_batch_size_in_bytes": 4 * 1024 * 1024,
                 "max_time_in_buffer_ms": 5000, "max_record_size_in_bytes": 1000 * 1024,
                 "fail_on_error": False}

    def set_delivery_stream_name(self, delivery_stream_name: str
                                 ) -> "KinesisFirehoseSinkBuilder":
        """The name of the delivery stream written to (required)."""
        return self._set("delivery_stream_name", delivery_stream_name)

    def set_firehose_client_properties(self, firehose_client_properties: Dict
                                       ) -> "KinesisFirehoseSinkBuilder":
        """Properties of the Firehose client (region, credentials, ...)."""
        return self._set("firehose_client_properties", dict(firehose_client_properties))

    def build(self) -> KinesisFirehoseSink:
        return KinesisFirehoseSink(self._settings)
