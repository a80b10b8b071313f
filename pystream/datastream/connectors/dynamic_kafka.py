"""Dynamic Kafka (PyFlink's ``pyflink.datastream.connectors.dynamic_kafka``): streams of topics
across Kafka clusters, found by a metadata service.

``DynamicKafkaSource`` is built as in PyFlink and holds its settings; a job reading it fails when
compiled (``UnsupportedFeatureError``): use ``KafkaSource`` for topics of one cluster.
"""
from __future__ import annotations

from typing import Any, Dict, Optional, Set, Union

from pystream.common.serialization import DeserializationSchema
from pystream.core.connectors.base import Boundedness, Source, UnsupportedConnector
from pystream.core.connectors.kafka import KafkaOffsetsInitializer

__all__ = ["DynamicKafkaSource", "DynamicKafkaSourceBuilder", "KafkaMetadataService",
           "KafkaRecordDeserializationSchema", "KafkaStreamSetSubscriber",
           "KafkaStreamSubscriber", "StreamPatternSubscriber", "SingleClusterTopicMetadataService"]


class KafkaMetadataService:
    """Base class of the Kafka metadata services (PyFlink wraps a Java one)."""

    def __init__(self, metadata_service: Any = None):
        self._metadata_service = metadata_service


class SingleClusterTopicMetadataService(KafkaMetadataService):
    """A KafkaMetadataService backed by a single Kafka cluster where stream ids map to topics."""

    def __init__(self, kafka_cluster_id: str, properties: Dict[str, str]):
        super().__init__()
        self.kafka_cluster_id = kafka_cluster_id
        self.properties = dict(properties)


class KafkaStreamSubscriber:
    """Base class of the stream subscribers (PyFlink wraps a Java one)."""

    def __init__(self, kafka_stream_subscriber: Any = None):
        self._kafka_stream_subscriber = kafka_stream_subscriber


class KafkaStreamSetSubscriber(KafkaStreamSubscriber):
    """Consumes a fixed set of stream ids."""

    def __init__(self, stream_ids: Set[str]):
        super().__init__()
        self.stream_ids = set(stream_ids)


class StreamPatternSubscriber(KafkaStreamSubscriber):
    """Consumes the stream ids matching a regular expression."""

    def __init__(self, stream_pattern: str):
        super().__init__()
        self.stream_pattern = stream_pattern


class KafkaRecordDeserializationSchema(DeserializationSchema):
    """Deserializes Kafka records."""

    def __init__(self, value_schema: Optional[DeserializationSchema] = None):
        self.value_schema = value_schema

    @staticmethod
    def value_only(deserialization_schema: DeserializationSchema
                   ) -> "KafkaRecordDeserializationSchema":
        """Deserializes the values of the records with ``deserialization_schema``."""
        return KafkaRecordDeserializationSchema(deserialization_schema)


class DynamicKafkaSource(UnsupportedConnector, Source):
    """Source of dynamic Kafka streams (build it with ``DynamicKafkaSource.builder()``); jobs
    using it fail when compiled on pystream."""

    connector_name = "dynamic Kafka"

    def __init__(self, settings: Optional[Dict[str, Any]] = None):
        super().__init__()
        self.settings = dict(settings or {})

    def get_boundedness(self) -> Boundedness:
        return Boundedness.BOUNDED if self.settings.get("stopping_offsets") \
            else Boundedness.CONTINUOUS_UNBOUNDED

    @staticmethod
    def builder() -> "DynamicKafkaSourceBuilder":
        return DynamicKafkaSourceBuilder()


class DynamicKafkaSourceBuilder:
    """Builder for DynamicKafkaSource."""

    def __init__(self):
        self._settings: Dict[str, Any] = {"properties": {}}

    def _set(self, key: str, value) -> "DynamicKafkaSourceBuilder":
        self._settings[key] = value
        return self

    def build(self) -> DynamicKafkaSource:
        return DynamicKafkaSource(self._settings)

    def set_stream_ids(self, stream_ids: Set[str]) -> "DynamicKafkaSourceBuilder":
        """The stream ids to consume."""
        return self.set_kafka_stream_subscriber(KafkaStreamSetSubscriber(stream_ids))

    def set_stream_pattern(self, stream_pattern: str) -> "DynamicKafkaSourceBuilder":
        """A regular expression of the stream ids to consume."""
        return self.set_kafka_stream_subscriber(StreamPatternSubscriber(stream_pattern))

    def set_kafka_stream_subscriber(self, kafka_stream_subscriber: Union[KafkaStreamSubscriber,
                                                                         Any]
                                    ) -> "DynamicKafkaSourceBuilder":
        return self._set("subscriber", kafka_stream_subscriber)

    def set_kafka_metadata_service(self, kafka_metadata_service: Union[KafkaMetadataService,
                                                                       Any]
                                   ) -> "DynamicKafkaSourceBuilder":
        return self._set("metadata_service", kafka_metadata_service)

    def set_deserializer(self, deserializer: Union[KafkaRecordDeserializationSchema, Any]
                         ) -> "DynamicKafkaSourceBuilder":
        return self._set("deserializer", deserializer)

    def set_value_only_deserializer(self, deserialization_schema: DeserializationSchema
                                    ) -> "DynamicKafkaSourceBuilder":
        return self.set_deserializer(
            KafkaRecordDeserializationSchema.value_only(deserialization_schema))

    def set_starting_offsets(self, starting_offsets_initializer: KafkaOffsetsInitializer
                             ) -> "DynamicKafkaSourceBuilder":
        """Where all streams start."""
        return self._set("starting_offsets", starting_offsets_initializer)

    def set_bounded(self, stopping_offsets_initializer: KafkaOffsetsInitializer
                    ) -> "DynamicKafkaSourceBuilder":
        """Bounded, stopping at ``stopping_offsets_initializer``."""
        return self._set("stopping_offsets", stopping_offsets_initializer)

    def set_properties(self, props: Dict[str, str]) -> "DynamicKafkaSourceBuilder":
        """Consumer properties of all clusters."""
        self._settings["properties"].update(props)
        return self

    def set_property(self, key: str, value: str) -> "DynamicKafkaSourceBuilder":
        """A consumer property of all clusters."""
        self._settings["properties"][key] = value
        return self

    def set_group_id(self, group_id: str) -> "DynamicKafkaSourceBuilder":
        return self.set_property("group.id", group_id)

    def set_client_id_prefix(self, prefix: str) -> "DynamicKafkaSourceBuilder":
        return self.set_property("client.id.prefix", prefix)
