"""RabbitMQ (PyFlink's ``pyflink.datastream.connectors.rabbitmq``).

``RMQSource``/``RMQSink`` are built as in PyFlink and hold their settings; a job using them fails
when compiled (``UnsupportedFeatureError``): Spark has no RabbitMQ connector.
"""
from __future__ import annotations

from typing import Any, Dict, Optional

from pystream.common.serialization import DeserializationSchema, SerializationSchema
from pystream.core.connectors.base import (
    Boundedness,
    Sink,
    Source,
    UnsupportedConnector,
)

__all__ = ["RMQConnectionConfig", "RMQSource", "RMQSink"]


class RMQConnectionConfig:
    """Connection Configuration for RMQ (build it with ``RMQConnectionConfig.Builder()``)."""

    def __init__(self, settings: Optional[Dict[str, Any]] = None):
        self._settings = dict(settings or {})

    def _get(self, key: str):
        return self._settings.get(key)

    def get_host(self) -> str:
        return self._get("host")

    def get_port(self) -> int:
        return self._get("port")

    def get_virtual_host(self) -> str:
        return self._get("virtual_host")

    def get_user_name(self) -> str:
        return self._get("user_name")

    def get_password(self) -> str:
        return self._get("password")

    def get_uri(self) -> str:
        return self._get("uri")

    def get_network_recovery_interval(self) -> int:
        return self._get("network_recovery_interval")

    def is_automatic_recovery(self) -> bool:
        return self._get("automatic_recovery")

    def is_topology_recovery(self) -> bool:
        return self._get("topology_recovery")

    def get_connection_timeout(self) -> int:
        return self._get("connection_timeout")

    def get_requested_channel_max(self) -> int:
        return self._get("requested_channel_max")

    def get_requested_frame_max(self) -> int:
        return self._get("requested_frame_max")

    def get_requested_heartbeat(self) -> int:
        return self._get("requested_heartbeat")

    def __repr__(self):
        return "RMQConnectionConfig(%s)" % ", ".join(
            "%s=%r" % (k, v) for k, v in self._settings.items() if k != "password")

    class Builder:
        """Builder for RMQConnectionConfig."""

        def __init__(self):
            self._settings: Dict[str, Any] = {}

        def _set(self, key: str, value) -> "RMQConnectionConfig.Builder":
            self._settings[key] = value
            return self

        def set_port(self, port: int) -> "RMQConnectionConfig.Builder":
            return self._set("port", port)

        def set_host(self, host: str) -> "RMQConnectionConfig.Builder":
            return self._set("host", host)

        def set_virtual_host(self, vhost: str) -> "RMQConnectionConfig.Builder":
            return self._set("virtual_host", vhost)

        def set_user_name(self, user_name: str) -> "RMQConnectionConfig.Builder":
            return self._set("user_name", user_name)

        def set_password(self, password: str) -> "RMQConnectionConfig.Builder":
            return self._set("password", password)

        def set_uri(self, uri: str) -> "RMQConnectionConfig.Builder":
            return self._set("uri", uri)

        def set_topology_recovery_enabled(self, topology_recovery_enabled: bool
                                          ) -> "RMQConnectionConfig.Builder":
            return self._set("topology_recovery", topology_recovery_enabled)

        def set_requested_heartbeat(self, requested_heartbeat: int
                                    ) -> "RMQConnectionConfig.Builder":
            return self._set("requested_heartbeat", requested_heartbeat)

        def set_requested_frame_max(self, requested_frame_max: int
                                    ) -> "RMQConnectionConfig.Builder":
            return self._set("requested_frame_max", requested_frame_max)

        def set_requested_channel_max(self, requested_channel_max: int
                                      ) -> "RMQConnectionConfig.Builder":
            return self._set("requested_channel_max", requested_channel_max)

        def set_network_recovery_interval(self, network_recovery_interval: int
                                          ) -> "RMQConnectionConfig.Builder":
            return self._set("network_recovery_interval", network_recovery_interval)

        def set_connection_timeout(self, connection_timeout: int
                                   ) -> "RMQConnectionConfig.Builder":
            return self._set("connection_timeout", connection_timeout)

        def set_automatic_recovery(self, automatic_recovery: bool
                                   ) -> "RMQConnectionConfig.Builder":
            return self._set("automatic_recovery", automatic_recovery)

        def set_prefetch_count(self, prefetch_count: int) -> "RMQConnectionConfig.Builder":
            return self._set("prefetch_count", prefetch_count)

        def build(self) -> "RMQConnectionConfig":
            if not self._settings.get("uri") and (self._settings.get("host") is None
                                                  or self._settings.get("port") is None):
                raise ValueError("Either URI or host/port must be set")
            return RMQConnectionConfig(self._settings)


class RMQSource(UnsupportedConnector, Source):
    """A RabbitMQ source (``env.add_source``); jobs using it fail when compiled on pystream."""

    connector_name = "RabbitMQ"

    def __init__(self, connection_config: RMQConnectionConfig, queue_name: str,
                 use_correlation_id: bool, deserialization_schema: DeserializationSchema):
        """``use_correlation_id``: whether messages carry a unique id to deduplicate them."""
        super().__init__()
        self.connection_config = connection_config
        self.queue_name = queue_name
        self.use_correlation_id = use_correlation_id
        self.deserialization_schema = deserialization_schema

    def get_boundedness(self) -> Boundedness:
        return Boundedness.CONTINUOUS_UNBOUNDED


class RMQSink(UnsupportedConnector, Sink):
    """A RabbitMQ sink (``ds.add_sink``); jobs using it fail when compiled on pystream."""

    connector_name = "RabbitMQ"

    def __init__(self, connection_config: RMQConnectionConfig, queue_name: str,
                 serialization_schema: SerializationSchema):
        super().__init__()
        self.connection_config = connection_config
        self.queue_name = queue_name
        self.serialization_schema = serialization_schema
