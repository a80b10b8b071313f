"""Cassandra (PyFlink's ``pyflink.datastream.connectors.cassandra``).

``CassandraSink.add_sink(ds)`` builds the sink as in PyFlink and adds it to the job; the job
fails when compiled (``UnsupportedFeatureError``): pystream has no Cassandra writer for Spark.
"""
from __future__ import annotations

from enum import Enum
from typing import Any, Dict, Optional

from pystream.common.time import Duration
from pystream.core.connectors.base import Sink, UnsupportedConnector

__all__ = ["CassandraSink", "ConsistencyLevel", "MapperOptions", "ClusterBuilder",
           "CassandraCommitter", "CassandraFailureHandler"]


class ConsistencyLevel(Enum):
    """The consistency level."""

    ANY = 0
    ONE = 1
    TWO = 2
    THREE = 3
    QUORUM = 4
    ALL = 5
    LOCAL_QUORUM = 6
    EACH_QUORUM = 7
    SERIAL = 8
    LOCAL_SERIAL = 9
    LOCAL_ONE = 10


class MapperOptions:
    """Configures a Mapper after deployment.

    >>> mapper_option = MapperOptions().ttl(1800).timestamp(3600) \\
    ...     .consistency_level(ConsistencyLevel.ANY).tracing(True).save_null_fields(True)
    """

    def __init__(self):
        self.options: Dict[str, Any] = {}

    def _set(self, key: str, value) -> "MapperOptions":
        self.options[key] = value
        return self

    def ttl(self, ttl: int) -> "MapperOptions":
        """Time-to-live of a save operation."""
        return self._set("ttl", ttl)

    def timestamp(self, timestamp: int) -> "MapperOptions":
        """Timestamp of a save or delete operation."""
        return self._set("timestamp", timestamp)

    def consistency_level(self, cl: ConsistencyLevel) -> "MapperOptions":
        """Consistency level of save, delete and get operations."""
        return self._set("consistency_level", cl)

    def tracing(self, enabled: bool) -> "MapperOptions":
        """Query tracing for save, delete and get operations."""
        return self._set("tracing", enabled)

    def save_null_fields(self, enabled: bool) -> "MapperOptions":
        """Whether null entity fields are included in insert queries."""
        return self._set("save_null_fields", enabled)

    def if_not_exists(self, enabled: bool) -> "MapperOptions":
        """Whether an IF NOT EXISTS clause is included in insert queries (default False)."""
        return self._set("if_not_exists", enabled)


class ClusterBuilder:
    """Configures the connection to Cassandra (PyFlink wraps a Java ClusterBuilder)."""

    def __init__(self, cluster_builder: Any = None):
        self._cluster_builder = cluster_builder


class CassandraCommitter:
    """Saves information about completed checkpoints in a Cassandra table."""

    def __init__(self, builder: Optional[ClusterBuilder] = None, key_space: Optional[str] = None):
        self.builder = builder
        self.key_space = key_space

    @staticmethod
    def default_checkpoint_committer(builder: ClusterBuilder, key_space: Optional[str] = None
                                     ) -> "CassandraCommitter":
        """Entries are ``| operator_id | subtask_id | last_completed_checkpoint |``."""
        return CassandraCommitter(builder, key_space)


class CassandraFailureHandler:
    """Handles a failed request."""

    def __init__(self, kind: str = "no_op"):
        self.kind = kind

    @staticmethod
    def no_op() -> "CassandraFailureHandler":
        """Fails the sink on any failure (the default)."""
        return CassandraFailureHandler("no_op")


class CassandraSink(UnsupportedConnector, Sink):
    """A Cassandra sink, added to a stream with ``CassandraSink.add_sink(ds)...build()``."""

    connector_name = "Cassandra"

    def __init__(self, settings: Optional[Dict[str, Any]] = None, stream_sink=None):
        super().__init__()
        self.settings = dict(settings or {})
        self._stream_sink = stream_sink  # the DataStreamSink this sink configures

    def _configure(self, method: str, *args) -> "CassandraSink":
        if self._stream_sink is not None:
            getattr(self._stream_sink, method)(*args)
        return self

    def name(self, name: str) -> "CassandraSink":
        """The name of this sink (shown in plans and errors)."""
        return self._configure("name", name)

    def uid(self, uid: str) -> "CassandraSink":
        """An ID for this operator."""
        return self._configure("uid", uid)

    def set_uid_hash(self, uid_hash: str) -> "CassandraSink":
        """A user provided hash for this operator (recorded)."""
        return self._configure("set_uid_hash", uid_hash)

    def set_parallelism(self, parallelism: int) -> "CassandraSink":
        """The parallelism of this sink."""
        return self._configure("set_parallelism", parallelism)

    def disable_chaining(self) -> "CassandraSink":
        """Turns off chaining for this operator."""
        return self._configure("disable_chaining")

    def slot_sharing_group(self, slot_sharing_group: str) -> "CassandraSink":
        """The slot sharing group of this operation (recorded)."""
        return self._configure("slot_sharing_group", slot_sharing_group)

    @staticmethod
    def add_sink(input) -> "CassandraSink.CassandraSinkBuilder":
        """Writes a DataStream into a Cassandra database."""
        return CassandraSink.CassandraSinkBuilder(input)

    class CassandraSinkBuilder:
        """Builder for a CassandraSink."""

        def __init__(self, input):
            self._input = input
            self._settings: Dict[str, Any] = {}

        def _set(self, key: str, value) -> "CassandraSink.CassandraSinkBuilder":
            self._settings[key] = value
            return self

        def set_query(self, query: str) -> "CassandraSink.CassandraSinkBuilder":
            """The query that is executed for every record."""
            return self._set("query", query)

        def set_host(self, host: str, port: int = 9042) -> "CassandraSink.CassandraSinkBuilder":
            """The Cassandra host/port to connect to."""
            return self._set("host", (host, port))

        def set_cluster_builder(self, builder: ClusterBuilder
                                ) -> "CassandraSink.CassandraSinkBuilder":
            """The ClusterBuilder that configures the connection to Cassandra."""
            return self._set("cluster_builder", builder)

        def enable_write_ahead_log(self, committer: Optional[CassandraCommitter] = None
                                   ) -> "CassandraSink.CassandraSinkBuilder":
            """Enables the write-ahead log (exactly-once for idempotent updates)."""
            return self._set("write_ahead_log", committer or True)

        def set_mapper_options(self, options: MapperOptions
                               ) -> "CassandraSink.CassandraSinkBuilder":
            """The mapper options used when writing POJOs."""
            return self._set("mapper_options", options)

        def set_failure_handler(self, failure_handler: CassandraFailureHandler
                                ) -> "CassandraSink.CassandraSinkBuilder":
            """The failure handler of this sink."""
            return self._set("failure_handler", failure_handler)

        def set_max_concurrent_requests(self, max_concurrent_requests: int,
                                        duration: Optional[Duration] = None
                                        ) -> "CassandraSink.CassandraSinkBuilder":
            """The maximum number of concurrent requests of this sink."""
            return self._set("max_concurrent_requests", (max_concurrent_requests, duration))

        def enable_ignore_null_fields(self) -> "CassandraSink.CassandraSinkBuilder":
            """Treat null values as unset (no tombstones)."""
            return self._set("ignore_null_fields", True)

        def build(self) -> "CassandraSink":
            """Finalizes the configuration of this sink and adds it to the job."""
            sink = CassandraSink(self._settings)
            sink._stream_sink = self._input._sink(sink, "Cassandra Sink")
            return sink
