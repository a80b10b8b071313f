"""Fixtures of the connector tests: one Kafka broker and one PostgreSQL server per test run
(started on first use, stopped at the end), and small clients to look at what jobs wrote."""
from __future__ import annotations

import uuid

import pytest

from tests.connectors import servers


@pytest.fixture(scope="session")
def kafka_servers():
    """The bootstrap servers of a real Kafka-protocol broker on 127.0.0.1."""
    with servers.kafka_broker() as bootstrap:
        yield bootstrap


@pytest.fixture
def topic(kafka_servers):
    """A new topic with two partitions."""
    return create_topic(kafka_servers, "t-" + uuid.uuid4().hex[:10])


def create_topic(bootstrap: str, name: str, partitions: int = 2) -> str:
    from kafka.admin import KafkaAdminClient, NewTopic

    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        admin.create_topics([NewTopic(name, num_partitions=partitions, replication_factor=1)])
    finally:
        admin.close()
    return name


def produce(bootstrap: str, topic: str, values, partition=None) -> None:
    """Write ``values`` (bytes or str) to ``topic``, alternating partitions unless given."""
    from kafka import KafkaProducer

    producer = KafkaProducer(bootstrap_servers=bootstrap)
    try:
        for i, value in enumerate(values):
            data = value.encode() if isinstance(value, str) else value
            producer.send(topic, value=data, partition=i % 2 if partition is None else partition)
        producer.flush()
    finally:
        producer.close()


def consume(bootstrap: str, topic: str, keys: bool = False, committed: bool = False,
            raw: bool = False) -> list:
    """Every value (or ``(key, value)`` with ``keys``) in ``topic`` as text (``raw``: the
    values' bytes), in partition then offset order; with ``committed`` only what committed
    transactions wrote."""
    from kafka import KafkaConsumer, TopicPartition

    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False,
                             isolation_level="read_committed" if committed else
                             "read_uncommitted")
    try:
        tps = [TopicPartition(topic, p) for p in sorted(consumer.partitions_for_topic(topic))]
        consumer.assign(tps)
        consumer.seek_to_beginning()
        found, idle = [], 0
        while idle < 3:
            polled = consumer.poll(300)
            idle = 0 if polled else idle + 1
            found.extend(r for records in polled.values() for r in records)
        ordered = sorted(found, key=lambda r: (r.partition, r.offset))
        if keys:
            return sorted((r.key.decode(), r.value.decode()) for r in ordered)
        return [r.value if raw else r.value.decode() for r in ordered]
    finally:
        consumer.close()


@pytest.fixture(scope="session")
def postgres():
    """Connection settings of a real PostgreSQL server on 127.0.0.1."""
    with servers.postgres_server() as settings:
        yield settings
