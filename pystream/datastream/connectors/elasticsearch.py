"""Elasticsearch (PyFlink's ``pyflink.datastream.connectors.elasticsearch``).

The sink is built as in PyFlink and holds its settings; a job writing to it fails when compiled
(``UnsupportedFeatureError``): pystream has no Elasticsearch writer for Spark.
"""
from __future__ import annotations

import abc
from enum import Enum
from typing import Any, Dict, List, Optional, Union

from pystream.core.connectors.base import DeliveryGuarantee, Sink, UnsupportedConnector

__all__ = ["FlushBackoffType", "ElasticsearchEmitter", "Elasticsearch6SinkBuilder",
           "Elasticsearch7SinkBuilder", "ElasticsearchSink"]


class FlushBackoffType(Enum):
    """Whether and how failed requests are retried.

    :data:`CONSTANT`: wait a configured time after every failure, until retries are exhausted.
    :data:`EXPONENTIAL`: wait exponentially longer after every failure.
    :data:`NONE`: the failure is not retried.
    """

    CONSTANT = 0
    EXPONENTIAL = 1
    NONE = 2


class ElasticsearchEmitter:
    """Prepares elements for sending them to Elasticsearch."""

    def __init__(self, index: str, key_field: Optional[str] = None,
                 doc_type: Optional[str] = None, dynamic: bool = False):
        self.index = index
        self.key_field = key_field
        self.doc_type = doc_type
        self.dynamic = dynamic

    @staticmethod
    def static_index(index: str, key_field: Optional[str] = None,
                     doc_type: Optional[str] = None) -> "ElasticsearchEmitter":
        """An emitter writing every record to the index ``index``."""
        return ElasticsearchEmitter(index, key_field, doc_type, False)

    @staticmethod
    def dynamic_index(index_field: str, key_field: Optional[str] = None,
                      doc_type: Optional[str] = None) -> "ElasticsearchEmitter":
        """An emitter writing every record to the index named by its field ``index_field``."""
        return ElasticsearchEmitter(index_field, key_field, doc_type, True)


class ElasticsearchSink(UnsupportedConnector, Sink):
    """Inserts or updates data in an Elasticsearch index (``ds.sink_to``); jobs using it fail
    when compiled on pystream."""

    connector_name = "Elasticsearch"

    def __init__(self, settings: Optional[Dict[str, Any]] = None):
        super().__init__()
        self.settings = dict(settings or {})


class ElasticsearchSinkBuilderBase(abc.ABC):
    """Base builder to construct an ElasticsearchSink."""

    _version = 0

    @abc.abstractmethod
    def __init__(self):
        self._settings: Dict[str, Any] = {"version": self._version,
                                          "delivery_guarantee": DeliveryGuarantee.NONE}

    def _set(self, key: str, value) -> "ElasticsearchSinkBuilderBase":
        self._settings[key] = value
        return self

    def get_http_host_class(self) -> str:
        """The name of the HttpHost class of this Elasticsearch version."""
        return "org.apache.flink.elasticsearch%d.shaded.org.apache.http.HttpHost" % self._version

    def set_emitter(self, emitter: ElasticsearchEmitter) -> "ElasticsearchSinkBuilderBase":
        """The emitter invoked on every record to convert it to Elasticsearch actions."""
        return self._set("emitter", emitter)

    def set_hosts(self, hosts: Union[str, List[str]]) -> "ElasticsearchSinkBuilderBase":
        """The hosts where the Elasticsearch cluster nodes are reachable."""
        return self._set("hosts", hosts if isinstance(hosts, list) else [hosts])

    def set_delivery_guarantee(self, delivery_guarantee: DeliveryGuarantee
                               ) -> "ElasticsearchSinkBuilderBase":
        """The wanted DeliveryGuarantee (default NONE)."""
        return self._set("delivery_guarantee", delivery_guarantee)

    def set_bulk_flush_max_actions(self, num_max_actions: int) -> "ElasticsearchSinkBuilderBase":
        """The maximum number of actions to buffer per bulk request (-1: disabled)."""
        return self._set("bulk_flush_max_actions", num_max_actions)

    def set_bulk_flush_max_size_mb(self, max_size_mb: int) -> "ElasticsearchSinkBuilderBase":
        """The maximum size of buffered actions, in mb, per bulk request (-1: disabled)."""
        return self._set("bulk_flush_max_size_mb", max_size_mb)

    def set_bulk_flush_interval(self, interval_millis: int) -> "ElasticsearchSinkBuilderBase":
        """The bulk flush interval, in milliseconds (-1: disabled)."""
        return self._set("bulk_flush_interval", interval_millis)

    def set_bulk_flush_backoff_strategy(self, flush_backoff_type: FlushBackoffType,
                                        max_retries: int, delay_millis: int
                                        ) -> "ElasticsearchSinkBuilderBase":
        """How failed bulk requests are retried."""
        return self._set("bulk_flush_backoff", (flush_backoff_type, max_retries, delay_millis))

    def set_connection_username(self, username: str) -> "ElasticsearchSinkBuilderBase":
        return self._set("username", username)

    def set_connection_password(self, password: str) -> "ElasticsearchSinkBuilderBase":
        return self._set("password", password)

    def set_connection_path_prefix(self, prefix: str) -> "ElasticsearchSinkBuilderBase":
        """A prefix used for every REST communication with the cluster."""
        return self._set("path_prefix", prefix)

    def set_connection_request_timeout(self, timeout: int) -> "ElasticsearchSinkBuilderBase":
        return self._set("connection_request_timeout", timeout)

    def set_connection_timeout(self, timeout: int) -> "ElasticsearchSinkBuilderBase":
        return self._set("connection_timeout", timeout)

    def set_socket_timeout(self, timeout: int) -> "ElasticsearchSinkBuilderBase":
        return self._set("socket_timeout", timeout)

    def build(self) -> ElasticsearchSink:
        """The ElasticsearchSink with the properties configured in this builder."""
        return ElasticsearchSink(self._settings)


class Elasticsearch6SinkBuilder(ElasticsearchSinkBuilderBase):
    """Builds an Elasticsearch 6 compatible ElasticsearchSink.

    >>> sink = Elasticsearch6SinkBuilder().set_hosts('localhost:9200') \\
    ...     .set_emitter(ElasticsearchEmitter.static_index("user", "key_col")).build()
    """

    _version = 6

    def __init__(self):
        super().__init__()


class Elasticsearch7SinkBuilder(ElasticsearchSinkBuilderBase):
    """Builds an Elasticsearch 7 compatible ElasticsearchSink.

    >>> sink = Elasticsearch7SinkBuilder().set_hosts('localhost:9200') \\
    ...     .set_emitter(ElasticsearchEmitter.dynamic_index("index_col", "key_col")).build()
    """

    _version = 7

    def __init__(self):
        super().__init__()
