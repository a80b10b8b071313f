"""Kafka: ``KafkaSource`` / ``KafkaSink`` with PyFlink's builders, and the legacy
``FlinkKafkaConsumer`` / ``FlinkKafkaProducer``.

>>> source = (KafkaSource.builder().set_bootstrap_servers('localhost:9092')
...           .set_topics('input').set_group_id('my-group')
...           .set_starting_offsets(KafkaOffsetsInitializer.earliest())
...           .set_value_only_deserializer(SimpleStringSchema()).build())
>>> sink = (KafkaSink.builder().set_bootstrap_servers('localhost:9092')
...         .set_record_serializer(KafkaRecordSerializationSchema.builder()
...                                .set_topic('output')
...                                .set_value_serialization_schema(SimpleStringSchema())
...                                .build())
...         .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())

Records are read and written with the kafka-python client in Spark's Python workers; the
offsets a streaming job has read are kept in its checkpoint (see docs/connectors.md).
Properties use Kafka's names (``bootstrap.servers``, ``security.protocol``, ...).
"""
from __future__ import annotations

import re
import warnings
from abc import ABC, abstractmethod
from enum import Enum
from typing import Any, Callable, Dict, List, Optional, Set, Union

from pystream.common.serialization import DeserializationSchema, SerializationSchema
from pystream.common.typeinfo import TypeInformation
from pystream.core.connectors.base import Boundedness, DeliveryGuarantee, Sink, Source

__all__ = ["FlinkKafkaConsumer", "FlinkKafkaProducer", "KafkaSource", "KafkaSourceBuilder",
           "KafkaSink", "KafkaSinkBuilder", "Semantic", "KafkaTopicPartition",
           "KafkaOffsetsInitializer", "KafkaOffsetResetStrategy",
           "KafkaRecordSerializationSchema", "KafkaRecordSerializationSchemaBuilder",
           "KafkaTopicSelector", "FlinkKafkaConsumerBase", "FlinkKafkaProducerBase"]


class KafkaTopicPartition:
    """A partition of a topic."""

    def __init__(self, topic: str, partition: int):
        self._topic = topic
        self._partition = partition

    @property
    def topic(self) -> str:
        return self._topic

    @property
    def partition(self) -> int:
        return self._partition

    def __eq__(self, other):
        return (isinstance(other, KafkaTopicPartition) and self._topic == other._topic
                and self._partition == other._partition)

    def __hash__(self):
        return 31 * (31 + self._partition) + hash(self._topic)

    def __repr__(self):
        return "%s-%d" % (self._topic, self._partition)


class KafkaOffsetResetStrategy(Enum):
    """Where to start when a committed offset is missing: LATEST, EARLIEST, or NONE (fail)."""

    LATEST = 0
    EARLIEST = 1
    NONE = 2


class KafkaOffsetsInitializer:
    """Where a KafkaSource starts (``set_starting_offsets``) or stops (``set_bounded``)."""

    def __init__(self, kind: str, timestamp: Optional[int] = None,
                 offsets: Optional[Dict[KafkaTopicPartition, int]] = None,
                 reset: KafkaOffsetResetStrategy = KafkaOffsetResetStrategy.NONE):
        self.kind = kind  # earliest | latest | timestamp | committed | offsets
        self.timestamp = timestamp
        self.offsets = dict(offsets or {})
        self.reset = reset

    @staticmethod
    def committed_offsets(offset_reset_strategy: KafkaOffsetResetStrategy =
                          KafkaOffsetResetStrategy.NONE) -> "KafkaOffsetsInitializer":
        """The consumer group's committed offsets (``set_group_id`` is required)."""
        return KafkaOffsetsInitializer("committed", reset=offset_reset_strategy)

    @staticmethod
    def timestamp(timestamp: int) -> "KafkaOffsetsInitializer":
        """The first record whose timestamp is at least ``timestamp`` (epoch ms)."""
        return KafkaOffsetsInitializer("timestamp", timestamp=timestamp)

    @staticmethod
    def earliest() -> "KafkaOffsetsInitializer":
        return KafkaOffsetsInitializer("earliest")

    @staticmethod
    def latest() -> "KafkaOffsetsInitializer":
        return KafkaOffsetsInitializer("latest")

    @staticmethod
    def offsets(offsets: Dict[KafkaTopicPartition, int],
                offset_reset_strategy: KafkaOffsetResetStrategy =
                KafkaOffsetResetStrategy.EARLIEST) -> "KafkaOffsetsInitializer":
        """Given offsets per partition (the reset strategy for the other partitions)."""
        return KafkaOffsetsInitializer("offsets", offsets=offsets, reset=offset_reset_strategy)

    def __repr__(self):
        return "KafkaOffsetsInitializer(%s)" % self.kind


class KafkaSource(Source):
    """Reads records from Kafka topics (unbounded unless ``set_bounded``)."""

    def __init__(self, config: "KafkaSourceBuilder"):
        self.bootstrap_servers: str = config._bootstrap_servers
        self.topics: List[str] = list(config._topics)
        self.topic_pattern: Optional[str] = config._topic_pattern
        self.partitions: List[KafkaTopicPartition] = list(config._partitions)
        self.group_id: Optional[str] = config._properties.get("group.id")
        self.starting_offsets: KafkaOffsetsInitializer = config._starting_offsets
        self.stopping_offsets: Optional[KafkaOffsetsInitializer] = config._stopping_offsets
        self.bounded_stop: bool = config._bounded
        self.deserializer: DeserializationSchema = config._deserializer
        self.properties: Dict[str, str] = dict(config._properties)
        self.commit_offsets: bool = config._commit_offsets

    @staticmethod
    def builder() -> "KafkaSourceBuilder":
        return KafkaSourceBuilder()

    @property
    def produced_type(self) -> TypeInformation:
        return self.deserializer.get_produced_type()

    def get_boundedness(self) -> Boundedness:
        return Boundedness.BOUNDED if self.bounded_stop else Boundedness.CONTINUOUS_UNBOUNDED

    def __repr__(self):
        return "KafkaSource(%s)" % ",".join(self.topics or [self.topic_pattern or "?"])


class KafkaSourceBuilder:
    """Configures a KafkaSource; ``build()`` checks that it is complete."""

    def __init__(self):
        self._bootstrap_servers: Optional[str] = None
        self._topics: List[str] = []
        self._topic_pattern: Optional[str] = None
        self._partitions: Set[KafkaTopicPartition] = set()
        self._starting_offsets = KafkaOffsetsInitializer.earliest()
        self._stopping_offsets: Optional[KafkaOffsetsInitializer] = None
        self._bounded = False
        self._deserializer: Optional[DeserializationSchema] = None
        self._properties: Dict[str, str] = {}
        self._commit_offsets = True

    def build(self) -> KafkaSource:
        if not self._bootstrap_servers:
            raise ValueError("Bootstrap servers are not set: call set_bootstrap_servers")
        if not (self._topics or self._topic_pattern or self._partitions):
            raise ValueError("No subscribe mode is specified: call set_topics, "
                             "set_topic_pattern or set_partitions")
        if self._deserializer is None:
            raise ValueError("Deserialization schema is required but not provided")
        committed = [i for i in (self._starting_offsets, self._stopping_offsets)
                     if i is not None and i.kind == "committed"]
        if committed and "group.id" not in self._properties:
            raise ValueError("Property group.id is required when using committed offset for "
                             "offsets initializer")
        return KafkaSource(self)

    def set_bootstrap_servers(self, bootstrap_servers: str) -> "KafkaSourceBuilder":
        self._bootstrap_servers = bootstrap_servers
        return self

    def set_group_id(self, group_id: str) -> "KafkaSourceBuilder":
        """The consumer group: read offsets are committed to it at every checkpoint (for
        monitoring and ``committed_offsets``; the checkpoint is what a restart resumes)."""
        self._properties["group.id"] = group_id
        return self

    def set_topics(self, *topics: str) -> "KafkaSourceBuilder":
        self._topics = list(topics)
        return self

    def set_topic_pattern(self, topic_pattern: str) -> "KafkaSourceBuilder":
        re.compile(topic_pattern)
        self._topic_pattern = topic_pattern
        return self

    def set_partitions(self, partitions: Set[KafkaTopicPartition]) -> "KafkaSourceBuilder":
        self._partitions = set(partitions)
        return self

    def set_starting_offsets(self, starting_offsets_initializer: KafkaOffsetsInitializer
                             ) -> "KafkaSourceBuilder":
        self._starting_offsets = starting_offsets_initializer
        return self

    def set_unbounded(self, stopping_offsets_initializer: KafkaOffsetsInitializer
                      ) -> "KafkaSourceBuilder":
        """Run unbounded, but stop reading each partition at the given offsets."""
        self._stopping_offsets = stopping_offsets_initializer
        self._bounded = False
        return self

    def set_bounded(self, stopping_offsets_initializer: KafkaOffsetsInitializer
                    ) -> "KafkaSourceBuilder":
        """End once every partition reached the given offsets (e.g. ``latest()``: what is
        in the topics when the job starts)."""
        self._stopping_offsets = stopping_offsets_initializer
        self._bounded = True
        return self

    def set_value_only_deserializer(self, deserialization_schema: DeserializationSchema
                                    ) -> "KafkaSourceBuilder":
        self._deserializer = deserialization_schema
        return self

    def set_client_id_prefix(self, prefix: str) -> "KafkaSourceBuilder":
        self._properties["client.id.prefix"] = prefix
        return self

    def set_property(self, key: str, value: str) -> "KafkaSourceBuilder":
        self._properties[key] = value
        if key == "commit.offsets.on.checkpoint":
            self._commit_offsets = str(value).lower() == "true"
        return self

    def set_properties(self, props: Dict) -> "KafkaSourceBuilder":
        for key, value in props.items():
            self.set_property(key, value)
        return self


class KafkaTopicSelector(ABC):
    """Chooses the topic of each record."""

    @abstractmethod
    def apply(self, data) -> str:
        pass


class _FunctionTopicSelector(KafkaTopicSelector):
    def __init__(self, f: Callable[[Any], str]):
        self._f = f

    def apply(self, data) -> str:
        return self._f(data)


class KafkaRecordSerializationSchema(SerializationSchema):
    """How a record becomes a Kafka record: its topic, key bytes and value bytes."""

    def __init__(self, topic: Optional[str], topic_selector: Optional[KafkaTopicSelector],
                 key_schema: Optional[SerializationSchema],
                 value_schema: SerializationSchema):
        self.topic = topic
        self.topic_selector = topic_selector
        self.key_schema = key_schema
        self.value_schema = value_schema

    @staticmethod
    def builder() -> "KafkaRecordSerializationSchemaBuilder":
        return KafkaRecordSerializationSchemaBuilder()

    def topic_of(self, value) -> str:
        return self.topic if self.topic_selector is None else self.topic_selector.apply(value)

    def serialize(self, value) -> bytes:
        return self.value_schema.serialize(value)


class KafkaRecordSerializationSchemaBuilder:
    """Builds a KafkaRecordSerializationSchema: a topic (or topic selector) and a value
    serialization schema are required, a key schema is optional."""

    def __init__(self):
        self._topic: Optional[str] = None
        self._topic_selector: Optional[KafkaTopicSelector] = None
        self._key_schema: Optional[SerializationSchema] = None
        self._value_schema: Optional[SerializationSchema] = None

    def build(self) -> KafkaRecordSerializationSchema:
        if self._topic is None and self._topic_selector is None:
            raise ValueError("No topic or topic selector is set")
        if self._value_schema is None:
            raise ValueError("No value serializer is set")
        return KafkaRecordSerializationSchema(self._topic, self._topic_selector,
                                              self._key_schema, self._value_schema)

    def set_topic(self, topic: str) -> "KafkaRecordSerializationSchemaBuilder":
        self._topic, self._topic_selector = topic, None
        return self

    def set_topic_selector(self, topic_selector: Union[Callable[[Any], str], KafkaTopicSelector]
                           ) -> "KafkaRecordSerializationSchemaBuilder":
        if not isinstance(topic_selector, KafkaTopicSelector) and not callable(topic_selector):
            raise TypeError("topic_selector must be KafkaTopicSelector or a callable")
        if not isinstance(topic_selector, KafkaTopicSelector):
            topic_selector = _FunctionTopicSelector(topic_selector)
        self._topic, self._topic_selector = None, topic_selector
        return self

    def set_key_serialization_schema(self, key_serialization_schema: SerializationSchema
                                     ) -> "KafkaRecordSerializationSchemaBuilder":
        self._key_schema = key_serialization_schema
        return self

    def set_value_serialization_schema(self, value_serialization_schema: SerializationSchema
                                       ) -> "KafkaRecordSerializationSchemaBuilder":
        self._value_schema = value_serialization_schema
        return self


class KafkaSink(Sink):
    """Writes records to Kafka. AT_LEAST_ONCE (the default) waits at the end of every
    micro-batch until Kafka acknowledged its records; NONE does not wait for
    acknowledgements; EXACTLY_ONCE writes each task's records of a micro-batch in one Kafka
    transaction, which a replay of the micro-batch does not write again (consumers read them
    with ``isolation.level=read_committed``)."""

    name = "KafkaSink"

    def __init__(self, config: "KafkaSinkBuilder"):
        self.bootstrap_servers: str = config._bootstrap_servers
        self.delivery_guarantee: DeliveryGuarantee = config._delivery_guarantee
        self.record_serializer: KafkaRecordSerializationSchema = config._record_serializer
        self.transactional_id_prefix: str = config._transactional_id_prefix
        self.properties: Dict[str, str] = dict(config._properties)

    @staticmethod
    def builder() -> "KafkaSinkBuilder":
        return KafkaSinkBuilder()

    def __repr__(self):
        return "KafkaSink(%s)" % (self.record_serializer.topic or "topic selector")

    def get_transformer(self) -> None:
        """The stream transformer PyFlink applies before the sink (for topic selectors): none,
        pystream's sink applies the record serializer itself."""
        return None


class KafkaSinkBuilder:
    """Configures a KafkaSink; ``build()`` checks that it is complete."""

    def __init__(self):
        self._bootstrap_servers: Optional[str] = None
        self._delivery_guarantee = DeliveryGuarantee.AT_LEAST_ONCE
        self._record_serializer: Optional[KafkaRecordSerializationSchema] = None
        self._transactional_id_prefix = "kafka-sink"
        self._properties: Dict[str, str] = {}

    def build(self) -> KafkaSink:
        if not self._bootstrap_servers:
            raise ValueError("Bootstrap servers are not set: call set_bootstrap_servers")
        if self._record_serializer is None:
            raise ValueError("Record serializer is required: call set_record_serializer")
        return KafkaSink(self)

    def set_bootstrap_servers(self, bootstrap_servers: str) -> "KafkaSinkBuilder":
        self._bootstrap_servers = bootstrap_servers
        return self

    def set_delivery_guarantee(self, delivery_guarantee: DeliveryGuarantee
                               ) -> "KafkaSinkBuilder":
        self._delivery_guarantee = delivery_guarantee
        return self

    def set_transactional_id_prefix(self, transactional_id_prefix: str) -> "KafkaSinkBuilder":
        """The start of the transactional ids (and marker groups) of EXACTLY_ONCE; default
        ``"kafka-sink"``. Keep it stable across restarts of a job."""
        self._transactional_id_prefix = transactional_id_prefix
        return self

    def set_record_serializer(self, record_serializer: KafkaRecordSerializationSchema
                              ) -> "KafkaSinkBuilder":
        self._record_serializer = record_serializer
        return self

    def set_property(self, key: str, value: str) -> "KafkaSinkBuilder":
        self._properties[key] = value
        return self


# ---------------------------------------------------------------------------------------------
# the legacy API


class FlinkKafkaConsumerBase(KafkaSource):
    """Base of the legacy Kafka consumers: where they start and whether they commit
    offsets."""

    def set_commit_offsets_on_checkpoints(self, commit_on_checkpoints: bool
                                          ) -> "FlinkKafkaConsumer":
        self.commit_offsets = commit_on_checkpoints
        return self

    def set_start_from_earliest(self) -> "FlinkKafkaConsumer":
        self.starting_offsets = KafkaOffsetsInitializer.earliest()
        return self

    def set_start_from_latest(self) -> "FlinkKafkaConsumer":
        self.starting_offsets = KafkaOffsetsInitializer.latest()
        return self

    def set_start_from_timestamp(self, startup_offsets_timestamp: int) -> "FlinkKafkaConsumer":
        self.starting_offsets = KafkaOffsetsInitializer.timestamp(startup_offsets_timestamp)
        return self

    def set_start_from_group_offsets(self) -> "FlinkKafkaConsumer":
        if not self.group_id:
            raise ValueError("set_start_from_group_offsets needs 'group.id' in the properties")
        self.starting_offsets = KafkaOffsetsInitializer.committed_offsets(
            KafkaOffsetResetStrategy.LATEST)
        return self

    def disable_filter_restored_partitions_with_subscribed_topics(self) -> "FlinkKafkaConsumer":
        return self

    def get_produced_type(self) -> TypeInformation:
        return self.produced_type


class FlinkKafkaConsumer(FlinkKafkaConsumerBase):
    """The legacy Kafka source for ``env.add_source`` (deprecated in Flink 1.16): starts
    from the group's committed offsets (falling back to ``auto.offset.reset``, default
    latest) unless told otherwise."""

    def __init__(self, topics: Union[str, List[str]],
                 deserialization_schema: DeserializationSchema, properties: Dict):
        warnings.warn("Deprecated in 1.16. Use KafkaSource instead.", DeprecationWarning,
                      stacklevel=2)
        if "bootstrap.servers" not in properties:
            raise ValueError("properties must contain 'bootstrap.servers'")
        builder = (KafkaSource.builder().set_bootstrap_servers(properties["bootstrap.servers"])
                   .set_topics(*([topics] if isinstance(topics, str) else topics))
                   .set_value_only_deserializer(deserialization_schema)
                   .set_properties({k: v for k, v in properties.items()
                                    if k != "bootstrap.servers"}))
        reset = {"earliest": KafkaOffsetResetStrategy.EARLIEST,
                 "none": KafkaOffsetResetStrategy.NONE}.get(
            str(properties.get("auto.offset.reset", "latest")).lower(),
            KafkaOffsetResetStrategy.LATEST)
        builder.set_starting_offsets(KafkaOffsetsInitializer.committed_offsets(reset)
                                     if "group.id" in properties
                                     else KafkaOffsetsInitializer(
                                         "earliest" if reset is KafkaOffsetResetStrategy.EARLIEST
                                         else "latest"))
        super().__init__(builder)


class Semantic(Enum):
    """The delivery guarantee of a FlinkKafkaProducer."""

    EXACTLY_ONCE = 0
    AT_LEAST_ONCE = 1
    NONE = 2


class FlinkKafkaProducerBase(KafkaSink):
    """Base of the legacy Kafka producers."""

    def set_log_failures_only(self, log_failures_only: bool) -> "FlinkKafkaProducer":
        self.properties["log.failures.only"] = str(log_failures_only).lower()
        return self

    def set_flush_on_checkpoint(self, flush_on_checkpoint: bool) -> "FlinkKafkaProducer":
        return self

    def set_write_timestamp_to_kafka(self, write_timestamp_to_kafka: bool
                                     ) -> "FlinkKafkaProducer":
        self.properties["write.timestamp"] = str(write_timestamp_to_kafka).lower()
        return self

    def ignore_failures_after_transaction_timeout(self) -> "FlinkKafkaProducer":
        return self


class FlinkKafkaProducer(FlinkKafkaProducerBase):
    """The legacy Kafka sink for ``add_sink`` (deprecated in Flink 1.15)."""

    name = "FlinkKafkaProducer"

    def __init__(self, topic: str, serialization_schema: SerializationSchema,
                 producer_config: Dict, kafka_producer_pool_size: int = 5,
                 semantic: Semantic = Semantic.AT_LEAST_ONCE):
        if "bootstrap.servers" not in producer_config:
            raise ValueError("producer_config must contain 'bootstrap.servers'")
        builder = (KafkaSink.builder()
                   .set_bootstrap_servers(producer_config["bootstrap.servers"])
                   .set_delivery_guarantee(DeliveryGuarantee[semantic.name])
                   .set_record_serializer(KafkaRecordSerializationSchema.builder()
                                          .set_topic(topic)
                                          .set_value_serialization_schema(serialization_schema)
                                          .build()))
        for key, value in producer_config.items():
            if key != "bootstrap.servers":
                builder.set_property(key, value)
        super().__init__(builder)
