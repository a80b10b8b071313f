"""Apache Pulsar (PyFlink's ``pyflink.datastream.connectors.pulsar``).

``PulsarSource``/``PulsarSink`` are built as in PyFlink and hold their settings; a job using
them fails when compiled (``UnsupportedFeatureError``): pystream has no Pulsar connector for
Spark.
"""
from __future__ import annotations

import warnings
from enum import Enum
from typing import Any, Dict, List, Optional, Union

from pystream.common.config_options import ConfigOption
from pystream.common.serialization import DeserializationSchema, SerializationSchema
from pystream.common.time import Duration
from pystream.core.connectors.base import (
    Boundedness,
    DeliveryGuarantee,
    Sink,
    Source,
    UnsupportedConnector,
)

__all__ = ["PulsarSource", "PulsarSourceBuilder", "StartCursor", "StopCursor", "RangeGenerator",
           "PulsarSink", "PulsarSinkBuilder", "MessageDelayer", "TopicRoutingMode"]


class _Position:
    def __init__(self, kind: str, value: Any = None, inclusive: Optional[bool] = None):
        self.kind = kind
        self.value = value
        self.inclusive = inclusive

    def __repr__(self):
        return "%s.%s(%s)" % (type(self).__name__, self.kind,
                              "" if self.value is None else repr(self.value))


class StartCursor(_Position):
    """Where a Pulsar subscription starts."""

    @staticmethod
    def default_start_cursor() -> "StartCursor":
        return StartCursor.earliest()

    @staticmethod
    def earliest() -> "StartCursor":
        return StartCursor("earliest")

    @staticmethod
    def latest() -> "StartCursor":
        return StartCursor("latest")

    @staticmethod
    def from_message_id(message_id: bytes, inclusive: bool = True) -> "StartCursor":
        """Start from a (serialized) message id."""
        return StartCursor("from_message_id", message_id, inclusive)

    @staticmethod
    def from_publish_time(timestamp: int) -> "StartCursor":
        """Start at the messages published at ``timestamp`` or later."""
        return StartCursor("from_publish_time", timestamp)


class StopCursor(_Position):
    """Where a Pulsar subscription stops."""

    @staticmethod
    def default_stop_cursor() -> "StopCursor":
        return StopCursor.never()

    @staticmethod
    def never() -> "StopCursor":
        return StopCursor("never")

    @staticmethod
    def latest() -> "StopCursor":
        return StopCursor("latest")

    @staticmethod
    def at_event_time(timestamp: int) -> "StopCursor":
        """Stop when a message's event time is >= ``timestamp``."""
        return StopCursor("at_event_time", timestamp)

    @staticmethod
    def after_event_time(timestamp: int) -> "StopCursor":
        """Stop when a message's event time is > ``timestamp``."""
        return StopCursor("after_event_time", timestamp)

    @staticmethod
    def at_publish_time(timestamp: int) -> "StopCursor":
        """Stop when a message's publish time is >= ``timestamp``."""
        return StopCursor("at_publish_time", timestamp)

    @staticmethod
    def after_publish_time(timestamp: int) -> "StopCursor":
        """Stop when a message's publish time is > ``timestamp``."""
        return StopCursor("after_publish_time", timestamp)

    @staticmethod
    def at_message_id(message_id: bytes) -> "StopCursor":
        """Stop at the (serialized) message id, which is not consumed."""
        return StopCursor("at_message_id", message_id)

    @staticmethod
    def after_message_id(message_id: bytes) -> "StopCursor":
        """Stop after the (serialized) message id, which is consumed."""
        return StopCursor("after_message_id", message_id)


class RangeGenerator:
    """Generates the topic ranges of a Key_Shared subscription."""

    def __init__(self, kind: str, settings: Optional[Dict[str, Any]] = None):
        self.kind = kind
        self.settings = dict(settings or {})

    @staticmethod
    def full() -> "RangeGenerator":
        """The full range (Shared, Failover and Exclusive subscriptions)."""
        return RangeGenerator("full")

    @staticmethod
    def fixed_key(support_null_key: bool = False,
                  keys: Optional[Union[str, List[str]]] = None,
                  key_bytes: Optional[bytes] = None,
                  ordering_key_bytes: Optional[bytes] = None) -> "RangeGenerator":
        """The ranges of the given keys."""
        return RangeGenerator("fixed_key", {
            "support_null_key": support_null_key,
            "keys": [keys] if isinstance(keys, str) else keys,
            "key_bytes": key_bytes, "ordering_key_bytes": ordering_key_bytes})


def _auth_settings(settings: Dict[str, Any], auth_plugin_class_name: str,
                   auth_params_string: Union[str, Dict[str, str]]) -> None:
    settings["auth_plugin_class_name"] = auth_plugin_class_name
    settings["auth_params"] = auth_params_string if isinstance(auth_params_string, str) \
        else dict(auth_params_string)


class PulsarSource(UnsupportedConnector, Source):
    """The Pulsar source (build it with ``PulsarSource.builder()``); jobs using it fail when
    compiled on pystream."""

    connector_name = "Pulsar"

    def __init__(self, settings: Optional[Dict[str, Any]] = None):
        super().__init__()
        self.settings = dict(settings or {})

    def get_boundedness(self) -> Boundedness:
        return Boundedness.BOUNDED if self.settings.get("bounded_stop_cursor") \
            else Boundedness.CONTINUOUS_UNBOUNDED

    @staticmethod
    def builder() -> "PulsarSourceBuilder":
        """A PulsarSourceBuilder to build a PulsarSource."""
        return PulsarSourceBuilder()


class PulsarSourceBuilder:
    """Builds a PulsarSource: the service url, admin url, subscription name, topics and
    deserialization schema are required."""

    def __init__(self):
        self._settings: Dict[str, Any] = {"start_cursor": StartCursor.default_start_cursor(),
                                          "config": {}}

    def _set(self, key: str, value) -> "PulsarSourceBuilder":
        self._settings[key] = value
        return self

    def set_admin_url(self, admin_url: str) -> "PulsarSourceBuilder":
        return self._set("admin_url", admin_url)

    def set_service_url(self, service_url: str) -> "PulsarSourceBuilder":
        return self._set("service_url", service_url)

    def set_subscription_name(self, subscription_name: str) -> "PulsarSourceBuilder":
        return self._set("subscription_name", subscription_name)

    def set_topics(self, topics: Union[str, List[str]]) -> "PulsarSourceBuilder":
        """The topics to consume (or ``set_topic_pattern``)."""
        return self._set("topics", topics if isinstance(topics, list) else [topics])

    def set_topic_pattern(self, topic_pattern: str) -> "PulsarSourceBuilder":
        """A regular expression of the topics to consume (or ``set_topics``)."""
        return self._set("topic_pattern", topic_pattern)

    def set_consumer_name(self, consumer_name: str) -> "PulsarSourceBuilder":
        return self._set("consumer_name", consumer_name)

    def set_range_generator(self, range_generator: RangeGenerator) -> "PulsarSourceBuilder":
        """Consume a subset of the keys."""
        return self._set("range_generator", range_generator)

    def set_start_cursor(self, start_cursor: StartCursor) -> "PulsarSourceBuilder":
        """Where the source starts (default: earliest)."""
        return self._set("start_cursor", start_cursor)

    def set_unbounded_stop_cursor(self, stop_cursor: StopCursor) -> "PulsarSourceBuilder":
        """Stop at ``stop_cursor``, the source staying CONTINUOUS_UNBOUNDED."""
        return self._set("unbounded_stop_cursor", stop_cursor)

    def set_bounded_stop_cursor(self, stop_cursor: StopCursor) -> "PulsarSourceBuilder":
        """Stop at ``stop_cursor``: a BOUNDED source."""
        return self._set("bounded_stop_cursor", stop_cursor)

    def set_deserialization_schema(self, deserialization_schema: DeserializationSchema
                                   ) -> "PulsarSourceBuilder":
        """The DeserializationSchema of the messages' values."""
        return self._set("deserialization_schema", deserialization_schema)

    def set_authentication(self, auth_plugin_class_name: str,
                           auth_params_string: Union[str, Dict[str, str]]
                           ) -> "PulsarSourceBuilder":
        """The authentication provider of the Pulsar client."""
        _auth_settings(self._settings, auth_plugin_class_name, auth_params_string)
        return self

    def set_config(self, key: Union[str, ConfigOption], value) -> "PulsarSourceBuilder":
        """An arbitrary property of the source and consumer."""
        if isinstance(key, ConfigOption):
            warnings.warn("set_config(key: ConfigOption, value) is deprecated. "
                          "Use set_config(key: str, value) instead.",
                          DeprecationWarning, stacklevel=2)
            key = key.key()
        self._settings["config"][key] = value
        return self

    def set_config_with_dict(self, config: Dict) -> "PulsarSourceBuilder":
        """Deprecated: use ``set_properties``."""
        warnings.warn("set_config_with_dict is deprecated. Use set_properties instead.",
                      DeprecationWarning, stacklevel=2)
        return self.set_properties(config)

    def set_properties(self, config: Dict) -> "PulsarSourceBuilder":
        """Arbitrary properties of the source and consumer."""
        self._settings["config"].update(config)
        return self

    def build(self) -> PulsarSource:
        return PulsarSource(self._settings)


class TopicRoutingMode(Enum):
    """How the sink chooses the topic partition of a message.

    :data:`ROUND_ROBIN`: across all partitions in turn.
    :data:`MESSAGE_KEY_HASH`: by the hash of the message key.
    :data:`CUSTOM`: a custom topic router.
    """

    ROUND_ROBIN = 0
    MESSAGE_KEY_HASH = 1
    CUSTOM = 2


class MessageDelayer:
    """Delays the delivery of sent messages (Shared subscriptions)."""

    def __init__(self, delay: Optional[Duration] = None):
        self.delay = delay

    @staticmethod
    def never() -> "MessageDelayer":
        """Messages are consumed immediately."""
        return MessageDelayer()

    @staticmethod
    def fixed(duration: Duration) -> "MessageDelayer":
        """Messages are consumed after ``duration``."""
        return MessageDelayer(duration)


class PulsarSink(UnsupportedConnector, Sink):
    """The Pulsar sink (build it with ``PulsarSink.builder()``); jobs using it fail when
    compiled on pystream."""

    connector_name = "Pulsar"

    def __init__(self, settings: Optional[Dict[str, Any]] = None):
        super().__init__()
        self.settings = dict(settings or {})

    @staticmethod
    def builder() -> "PulsarSinkBuilder":
        """A PulsarSinkBuilder to build a PulsarSink."""
        return PulsarSinkBuilder()


class PulsarSinkBuilder:
    """Builds a PulsarSink: the service url, admin url and serialization schema are required
    (default delivery guarantee: NONE)."""

    def __init__(self):
        self._settings: Dict[str, Any] = {"delivery_guarantee": DeliveryGuarantee.NONE,
                                          "config": {}}

    def _set(self, key: str, value) -> "PulsarSinkBuilder":
        self._settings[key] = value
        return self

    def set_admin_url(self, admin_url: str) -> "PulsarSinkBuilder":
        return self._set("admin_url", admin_url)

    def set_service_url(self, service_url: str) -> "PulsarSinkBuilder":
        return self._set("service_url", service_url)

    def set_producer_name(self, producer_name: str) -> "PulsarSinkBuilder":
        return self._set("producer_name", producer_name)

    def set_topics(self, topics: Union[str, List[str]]) -> "PulsarSinkBuilder":
        return self._set("topics", topics if isinstance(topics, list) else [topics])

    def set_delivery_guarantee(self, delivery_guarantee: DeliveryGuarantee
                               ) -> "PulsarSinkBuilder":
        return self._set("delivery_guarantee", delivery_guarantee)

    def set_topic_routing_mode(self, topic_routing_mode: TopicRoutingMode
                               ) -> "PulsarSinkBuilder":
        return self._set("topic_routing_mode", topic_routing_mode)

    def set_topic_router(self, topic_router_class_name: str) -> "PulsarSinkBuilder":
        """A custom (Java) topic router."""
        return self._set("topic_router", topic_router_class_name)

    def set_serialization_schema(self, serialization_schema: SerializationSchema
                                 ) -> "PulsarSinkBuilder":
        return self._set("serialization_schema", serialization_schema)

    def set_authentication(self, auth_plugin_class_name: str,
                           auth_params_string: Union[str, Dict[str, str]]
                           ) -> "PulsarSinkBuilder":
        """The authentication provider of the Pulsar client."""
        _auth_settings(self._settings, auth_plugin_class_name, auth_params_string)
        return self

    def delay_sending_message(self, message_delayer: MessageDelayer) -> "PulsarSinkBuilder":
        """Delay the delivery of the messages."""
        return self._set("message_delayer", message_delayer)

    def set_config(self, key: str, value) -> "PulsarSinkBuilder":
        """An arbitrary property of the sink and producer."""
        self._settings["config"][key] = value
        return self

    def set_properties(self, config: Dict) -> "PulsarSinkBuilder":
        """Arbitrary properties of the sink and producer."""
        self._settings["config"].update(config)
        return self

    def build(self) -> PulsarSink:
        return PulsarSink(self._settings)
