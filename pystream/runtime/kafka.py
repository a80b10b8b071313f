"""Kafka with the kafka-python client: the source's offsets and reads, the sink's writes.

The source is a Python data source (``KafkaRead``): its offsets are ``{topic: {partition:
next offset}}``, which Spark keeps in the query's checkpoint, so a restarted job resumes
where the last committed micro-batch ended, and a replayed batch reads exactly the same
records. Each Spark partition reads one Kafka partition's offset range in assign mode (no
consumer group membership); with a group id, the offsets of every finished micro-batch are
committed to the group for monitoring and for ``committed_offsets()``.

Raw records travel as ``key, value, topic, partition, offset`` plus the record timestamp;
the source's deserializer turns them into records in the fused Python stage.
"""
from __future__ import annotations

import hashlib
import itertools
import re
import time
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Optional, Tuple

import pyarrow as pa
from pyspark.sql.datasource import DataSourceStreamReader, InputPartition
from pyspark.sql.streaming.datasource import SupportsTriggerAvailableNow

from pystream.common.codecs import DeserializationError
from pystream.common.typeinfo import Types
from pystream.errors import UnsupportedFeatureError
from pystream.runtime import records
from pystream.runtime.errors import operator_failure
from pystream.runtime.layout import Layout, timestamps_to_arrow
from pystream.runtime.pysource import ReadSpec

RAW = Types.ROW_NAMED(["key", "value", "topic", "partition", "offset", "headers"],
                      [Types.PRIMITIVE_ARRAY(Types.BYTE()), Types.PRIMITIVE_ARRAY(Types.BYTE()),
                       Types.STRING(), Types.INT(), Types.LONG(),
                       Types.MAP(Types.STRING(), Types.PRIMITIVE_ARRAY(Types.BYTE()))])
BATCH_ROWS = 10_000
READ_TIMEOUT_S = 60.0
DEFAULT_BOOTSTRAP_TIMEOUT_MS = 10_000

Offsets = Dict[str, Dict[str, int]]  # topic -> partition (as text) -> next offset


class KafkaConnectionError(ConnectionError):
    """Kafka cannot be reached or refused a request."""


def _client_config(properties: Dict[str, str], allowed, **fixed) -> dict:
    """kafka-python keyword arguments from Kafka's property names (``a.b`` -> ``a_b``);
    properties the client does not know are left out."""
    config = {}
    for key, value in properties.items():
        name = key.replace(".", "_")
        if name in allowed and name not in fixed:
            config[name] = _typed(value, allowed[name])
    if "bootstrap_timeout_ms" in allowed:
        config.setdefault("bootstrap_timeout_ms", DEFAULT_BOOTSTRAP_TIMEOUT_MS)
    config.update(fixed)
    return config


def _typed(value, default):
    if isinstance(value, str) and isinstance(default, bool):
        return value.lower() == "true"
    if isinstance(value, str) and isinstance(default, int):
        return int(value)
    return value


def _kafka():
    try:
        import kafka
    except ImportError:  # pragma: no cover - kafka-python is a dependency of the kafka extra

        raise UnsupportedFeatureError("Kafka needs the 'kafka-python' package: pip install "
                                      "kafka-python (or pystream[kafka])") from None
    return kafka


def _connect(make, servers: str, what: str):
    """A client from ``make()``; a clear KafkaConnectionError when Kafka is unreachable."""
    kafka = _kafka()
    try:
        return make()
    except (kafka.errors.KafkaError, OSError) as e:
        raise KafkaConnectionError("%s cannot connect to Kafka at %s: %s"
                                   % (what, servers, e)) from None


# ---------------------------------------------------------------------------------------------
# offsets


class KafkaOffsetResolver:
    """Finds a source's partitions and turns offsets initializers into offsets (driver side)."""

    def __init__(self, source, label: str):
        self.source = source
        self.label = label
        self._consumer = None

    @property
    def consumer(self):
        if self._consumer is None:
            kafka = _kafka()
            config = _client_config(self.source.properties, kafka.KafkaConsumer.DEFAULT_CONFIG,
                                    bootstrap_servers=self.source.bootstrap_servers,
                                    enable_auto_commit=False,
                                    group_id=self.source.group_id)
            self._consumer = _connect(lambda: kafka.KafkaConsumer(**config),
                                      self.source.bootstrap_servers, "KafkaSource " + self.label)
        return self._consumer

    def close(self) -> None:
        if self._consumer is not None:
            self._consumer.close()
            self._consumer = None

    def partitions(self) -> List:
        """The TopicPartitions the source reads now."""
        kafka = _kafka()
        source = self.source
        if source.partitions:
            return sorted(kafka.TopicPartition(p.topic, p.partition) for p in source.partitions)
        if source.topic_pattern:
            pattern = re.compile(source.topic_pattern)
            topics = sorted(t for t in self.consumer.topics() if pattern.fullmatch(t))
        else:
            topics = source.topics
        result = []
        for topic in topics:
            found = self.consumer.partitions_for_topic(topic)
            if found is None and topic in self.consumer.topics():  # refreshes the metadata
                found = self.consumer.partitions_for_topic(topic)
            if found is None:
                raise KafkaConnectionError("KafkaSource %s: topic '%s' does not exist on %s"
                                           % (self.label, topic, source.bootstrap_servers))
            result.extend(kafka.TopicPartition(topic, p) for p in sorted(found))
        return result

    def end_offsets(self, tps: List) -> Dict:
        """The next offset to be written of each partition. ListOffsets can undercount (a
        broker answering with the last batch's base offset), so the fetch high watermark
        is asked too."""
        if not tps:
            return {}
        consumer = self.consumer
        ends = consumer.end_offsets(tps)
        consumer.assign(tps)
        for tp in tps:
            consumer.seek(tp, max(ends[tp] - 1, 0))
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            consumer.poll(100, max_records=1, update_offsets=False)
            if all(consumer.highwater(tp) is not None for tp in tps):
                break
        return {tp: max(ends[tp], consumer.highwater(tp) or 0) for tp in tps}

    def resolve(self, initializer, tps: List) -> Dict:
        """The offsets ``initializer`` (a KafkaOffsetsInitializer) gives for ``tps``."""
        if not tps:
            return {}
        kind = initializer.kind
        consumer = self.consumer
        if kind == "earliest":
            return dict(consumer.beginning_offsets(tps))
        if kind == "latest":
            return self.end_offsets(tps)
        if kind == "timestamp":
            found = consumer.offsets_for_times({tp: initializer.timestamp for tp in tps})
            ends = None
            result = {}
            for tp in tps:
                if found.get(tp) is not None:
                    result[tp] = found[tp].offset
                else:
                    ends = ends or self.end_offsets(tps)
                    result[tp] = ends[tp]
            return result
        if kind == "committed":
            result = {tp: consumer.committed(tp) for tp in tps}
        else:
            given = {(p.topic, p.partition): o for p, o in initializer.offsets.items()}
            result = {tp: given.get((tp.topic, tp.partition)) for tp in tps}
        missing = [tp for tp, off in result.items() if off is None]
        if missing:
            reset = initializer.reset.name
            if reset == "NONE":
                raise KafkaConnectionError(
                    "KafkaSource %s: no committed offset for %s in group '%s' and the offset "
                    "reset strategy is NONE" % (self.label, ", ".join(map(_name, missing)),
                                                self.source.group_id))
            fallback = (dict(consumer.beginning_offsets(missing)) if reset == "EARLIEST"
                        else self.end_offsets(missing))
            result.update(fallback)
        return result

    def commit(self, offsets: Offsets) -> None:
        """Commit ``offsets`` to the source's consumer group (best effort, as Flink)."""
        kafka = _kafka()
        from kafka.structs import OffsetAndMetadata

        try:
            self.consumer.commit({kafka.TopicPartition(t, int(p)): OffsetAndMetadata(o, "", -1)
                                  for t, parts in offsets.items() for p, o in parts.items()})
        except Exception:  # noqa: BLE001 - committing is for monitoring only
            pass


def _name(tp) -> str:
    return "%s-%d" % (tp.topic, tp.partition)


def to_offsets(offsets: Dict) -> Offsets:
    result: Offsets = {}
    for tp, offset in offsets.items():
        result.setdefault(tp.topic, {})[str(tp.partition)] = int(offset)
    return result


def _get(offsets: Offsets, topic: str, partition: int) -> Optional[int]:
    return offsets.get(topic, {}).get(str(partition))


# ---------------------------------------------------------------------------------------------
# reading


class KafkaRead(ReadSpec):
    """The ``pystream`` data source spec of a KafkaSource (BATCH reads and streams)."""

    def __init__(self, source, label: str):
        self.source = source
        self.label = label

    def schema(self):
        return Layout(RAW, timestamped=True).spark_schema()

    def splits(self) -> List[Tuple[str, int, int, int]]:
        """BATCH mode: each partition from its starting to its stopping offset."""
        resolver = KafkaOffsetResolver(self.source, self.label)
        try:
            tps = resolver.partitions()
            start = resolver.resolve(self.source.starting_offsets, tps)
            stop = resolver.resolve(self.source.stopping_offsets, tps)
        except KafkaConnectionError as e:
            raise _failure(e, self.label) from None
        finally:
            resolver.close()
        return [(tp.topic, tp.partition, start[tp], stop[tp]) for tp in tps
                if stop[tp] > start[tp]]

    def read(self, split) -> Iterator[pa.RecordBatch]:
        try:
            yield from read_range(self.source, *split)
        except KafkaConnectionError as e:
            raise _failure(e, self.label) from None

    def stream_reader(self):
        return KafkaStreamReader(self)


def _failure(error: Exception, label: str):
    return operator_failure(error, label, None)


class KafkaStreamReader(DataSourceStreamReader, SupportsTriggerAvailableNow):
    """Offsets per partition; ``availableNow`` reads up to the end (or stopping) offsets
    found when the query starts."""

    def __init__(self, spec: KafkaRead):
        self.spec = spec
        self.source = spec.source
        self.resolver = KafkaOffsetResolver(spec.source, spec.label)
        self._target: Optional[Offsets] = None
        self._stops: Optional[Dict] = None

    def _guarded(self, call):
        try:
            return call()
        except KafkaConnectionError as e:
            raise _failure(e, self.spec.label) from None

    def initialOffset(self) -> Offsets:
        def initial():
            tps = self.resolver.partitions()
            return to_offsets(self.resolver.resolve(self.source.starting_offsets, tps))
        return self._guarded(initial)

    def _latest(self) -> Offsets:
        tps = self.resolver.partitions()
        ends = self.resolver.end_offsets(tps)
        if self.source.stopping_offsets is not None:
            if self._stops is None or set(self._stops) != set(tps):
                self._stops = self.resolver.resolve(self.source.stopping_offsets, tps)
            ends = {tp: min(end, self._stops[tp]) for tp, end in ends.items()}
        return to_offsets(ends)

    def prepareForTriggerAvailableNow(self) -> None:
        self._target = self._guarded(self._latest)

    def latestOffset(self, start=None, limit=None) -> Offsets:
        if self._target is not None:
            return self._target
        return self._guarded(self._latest)

    def partitions(self, start: Offsets, end: Offsets):
        splits = []
        for topic, parts in end.items():
            for partition, stop in parts.items():
                begin = _get(start, topic, int(partition))
                if begin is None:  # a partition that appeared later: from its beginning
                    begin = self._guarded(lambda t=topic, p=int(partition): self._earliest(t, p))
                if stop > begin:
                    splits.append(InputPartition((topic, int(partition), begin, stop)))
        return splits

    def _earliest(self, topic: str, partition: int) -> int:
        tp = _kafka().TopicPartition(topic, partition)
        return self.resolver.consumer.beginning_offsets([tp])[tp]

    def read(self, partition) -> Iterator[pa.RecordBatch]:
        return self.spec.read(partition.value)

    def commit(self, end: Offsets) -> None:
        if self.source.group_id and self.source.commit_offsets:
            self.resolver.commit(end)

    def stop(self) -> None:
        self.resolver.close()


def read_range(source, topic: str, partition: int, start: int, stop: int
               ) -> Iterator[pa.RecordBatch]:
    """The records of one partition from offset ``start`` to ``stop`` (exclusive)."""
    kafka = _kafka()
    config = _client_config(source.properties, kafka.KafkaConsumer.DEFAULT_CONFIG,
                            bootstrap_servers=source.bootstrap_servers, enable_auto_commit=False,
                            group_id=None)
    consumer = _connect(lambda: kafka.KafkaConsumer(**config), source.bootstrap_servers,
                        "KafkaSource reader")
    tp = kafka.TopicPartition(topic, partition)
    schema = _raw_schema()
    try:
        consumer.assign([tp])
        consumer.seek(tp, start)
        rows: List = []
        last_progress = time.monotonic()
        while consumer.position(tp) < stop:
            polled = consumer.poll(500, max_records=BATCH_ROWS).get(tp, [])
            if polled:
                last_progress = time.monotonic()
            elif time.monotonic() - last_progress > READ_TIMEOUT_S:
                raise KafkaConnectionError("KafkaSource reader: no records from %s-%d at offset "
                                           "%d for %ds (expected up to offset %d)"
                                           % (topic, partition, consumer.position(tp),
                                              READ_TIMEOUT_S, stop))
            rows.extend(r for r in polled if r.offset < stop)
            if len(rows) >= BATCH_ROWS:
                yield _raw_batch(rows, schema)
                rows = []
        if rows:
            yield _raw_batch(rows, schema)
    finally:
        consumer.close()


def _raw_schema() -> pa.Schema:
    return Layout(RAW, timestamped=True).arrow_schema()


def _raw_batch(rows: list, schema: pa.Schema) -> pa.RecordBatch:
    return pa.RecordBatch.from_arrays([
        pa.array([r.key for r in rows], pa.binary()),
        pa.array([r.value for r in rows], pa.binary()),
        pa.array([r.topic for r in rows], pa.string()),
        pa.array([r.partition for r in rows], pa.int32()),
        pa.array([r.offset for r in rows], pa.int64()),
        pa.array([list(r.headers or ()) for r in rows], pa.map_(pa.string(), pa.binary())),
        pa.array([0] * len(rows), pa.int8()),  # the row kinds of RAW rows: +I
        timestamps_to_arrow([r.timestamp if r.timestamp >= 0 else None for r in rows]),
    ], schema=schema)


class KafkaRecordDecoder:
    """The flat_map turning raw Kafka records into the deserializer's records (None: none)."""

    def __init__(self, deserializer, label: str):
        self.deserializer = deserializer
        self.label = label

    def __call__(self, raw):
        if raw[1] is None:  # a tombstone
            return
        try:
            value = self.deserializer.deserialize(raw[1])
        except Exception as e:  # noqa: BLE001 - reported with the record's coordinates
            detail = str(e) if isinstance(e, DeserializationError) else "%s: %s" % (
                type(e).__name__, e)
            raise DeserializationError("%s (source %s, record %s-%d@%d, value %r)" % (
                detail, self.label, raw[2], raw[3], raw[4], bytes(raw[1])[:200])) from None
        if value is not None:
            yield value


# ---------------------------------------------------------------------------------------------
# writing


WRITE_RESULT = "records long"


def query_token(checkpoint: str) -> str:
    """The ``query`` of the Kafka writes of the streaming query checkpointed at
    ``checkpoint``: the same after a restart, different for another query."""
    return hashlib.sha1(checkpoint.encode()).hexdigest()[:12]


@dataclass(frozen=True)
class KafkaWriteStage:
    """The mapInArrow function of a KafkaSink: sends each task's records. AT_LEAST_ONCE waits
    until Kafka acknowledged all of them; EXACTLY_ONCE sends them in one Kafka transaction
    per task, committed together with a marker of the micro-batch (see ``_transactional``).

    ``query`` tells this sink's transactions apart from other queries' (a hash of the
    checkpoint, so a restarted query finds its own markers), ``batch_id`` is the micro-batch.
    ``with_metadata``: each record is a row (key, value, headers, timestamp): a table's
    ``headers`` (a map of name to bytes) and ``timestamp`` (epoch milliseconds) go into
    Kafka's record, None leaves them to Kafka.
    """

    sink: Any
    type_info: Any
    label: str
    query: str = ""
    batch_id: int = 0
    with_metadata: bool = False

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        kafka = _kafka()
        guarantee = self.sink.delivery_guarantee.name
        try:
            if guarantee == "EXACTLY_ONCE":
                count = self._transactional(kafka, self._records(batches))
            else:
                count = self._plain(kafka, self._records(batches), guarantee == "AT_LEAST_ONCE")
        except KafkaConnectionError as e:
            raise operator_failure(e, self.label, None) from None
        except kafka.errors.KafkaError as e:
            raise operator_failure(KafkaConnectionError(
                "KafkaSink could not write to Kafka at %s: %s"
                % (self.sink.bootstrap_servers, e)), self.label, None) from None
        yield pa.RecordBatch.from_arrays([pa.array([count], pa.int64())], names=["records"])

    def _records(self, batches: Iterator[pa.RecordBatch]) -> Iterator[tuple]:
        """``(topic, key, value, headers, timestamp)`` of each record, serialized by the
        sink's schemas."""
        serializer = self.sink.record_serializer
        key_schema = serializer.key_schema
        decode = records.batch_decoder(self.type_info)
        for batch in batches:
            for value in decode(batch.columns) if batch.num_rows else ():
                try:
                    yield (serializer.topic_of(value),
                           key_schema.serialize(value) if key_schema is not None else None,
                           serializer.value_schema.serialize(value),
                           *(_record_metadata(value) if self.with_metadata else (None, None)))
                except Exception as e:  # noqa: BLE001 - the user's schema or selector
                    raise operator_failure(e, self.label, value) from None

    def _plain(self, kafka, records: Iterator[tuple], wait: bool) -> int:
        first = next(records, None)
        if first is None:
            return 0
        producer = self._producer(kafka)
        try:
            sent = [producer.send(topic, value=data, key=key, headers=headers,
                                  timestamp_ms=timestamp)
                    for topic, key, data, headers, timestamp in itertools.chain([first], records)]
            producer.flush()
            if wait:
                for future in sent:
                    future.get(timeout=0)
            return len(sent)
        finally:
            producer.close(timeout=5)

    def _transactional(self, kafka, records: Iterator[tuple]) -> int:
        """Exactly once: the task's records go out in one transaction whose id names the
        sink, the query and the Spark partition, so a new attempt fences an old one (Kafka
        aborts the old one's open transaction). The transaction also commits the offset
        ``batch_id + 1`` for a consumer group of the same name: the marker that this
        partition of this micro-batch is written. A replayed micro-batch (the query failed or
        was stopped before Spark recorded it as done) finds the marker and sends nothing
        again; its records are still drained, so the operators before the sink run as
        usual. That relies on a replayed micro-batch giving each partition the same
        records, as Spark's replay from the checkpointed offsets does."""
        from pyspark import TaskContext

        first = next(records, None)
        if first is None:
            return 0
        name = "%s-%s-%d" % (self.sink.transactional_id_prefix, self.query,
                             TaskContext.get().partitionId())
        producer = self._producer(kafka, transactional_id=name)
        try:
            producer.init_transactions()
            if self._written_batch(kafka, name) >= self.batch_id:
                for _ in records:
                    pass
                return 0
            producer.begin_transaction()
            count = 0
            try:
                for topic, key, data, headers, timestamp in itertools.chain([first], records):
                    producer.send(topic, value=data, key=key, headers=headers,
                                  timestamp_ms=timestamp)
                    count += 1
                marker = kafka.TopicPartition(first[0], 0)
                producer.send_offsets_to_transaction(
                    {marker: kafka.structs.OffsetAndMetadata(self.batch_id + 1, "", -1)}, name)
                producer.commit_transaction()
            except BaseException:
                _quietly(producer.abort_transaction)
                raise
            return count
        finally:
            producer.close(timeout=5)

    def _written_batch(self, kafka, name: str) -> int:
        """The last micro-batch whose transaction ``name`` committed (-1 for none)."""
        config = _client_config(self.sink.properties, kafka.KafkaAdminClient.DEFAULT_CONFIG,
                                bootstrap_servers=self.sink.bootstrap_servers)
        admin = _connect(lambda: kafka.KafkaAdminClient(**config),
                         self.sink.bootstrap_servers, "KafkaSink")
        try:
            committed = admin.list_group_offsets(name).get(name, {})  # {group: {tp: offset}}
        finally:
            admin.close()
        return max((o.offset for o in committed.values()), default=0) - 1

    def _producer(self, kafka, **fixed):
        config = _client_config(self.sink.properties, kafka.KafkaProducer.DEFAULT_CONFIG,
                                bootstrap_servers=self.sink.bootstrap_servers, **fixed)
        return _connect(lambda: kafka.KafkaProducer(**config), self.sink.bootstrap_servers,
                        "KafkaSink")


def _quietly(call) -> None:
    try:
        call()
    except Exception:  # noqa: BLE001 - already failing; Kafka aborts it when fenced anyway
        pass


def _record_metadata(row) -> Tuple[Optional[list], Optional[int]]:
    """A table row's Kafka headers (a list of (name, bytes)) and timestamp (milliseconds)."""
    headers, timestamp = row[2], row[3]
    return ([(name, bytes(value) if value is not None else None)
             for name, value in dict(headers).items()] if headers else None,
            int(timestamp) if timestamp is not None else None)


def write_batch(df, stage: KafkaWriteStage) -> int:
    """Send the records of ``df`` (typed columns); how many were sent."""
    return sum(row.records for row in df.mapInArrow(stage, WRITE_RESULT).collect())
