"""KafkaSource / KafkaSink against a real Kafka-protocol broker (tansu) on 127.0.0.1."""
from __future__ import annotations

import pytest

from pystream.common import Row, Types, WatermarkStrategy
from pystream.common.serialization import (
    JsonRowDeserializationSchema,
    RowFieldExtractorSchema,
    SimpleStringSchema,
)
from pystream.datastream import StreamExecutionEnvironment
from pystream.datastream.connectors import DeliveryGuarantee
from pystream.datastream.connectors.kafka import (
    FlinkKafkaConsumer,
    FlinkKafkaProducer,
    KafkaOffsetResetStrategy,
    KafkaOffsetsInitializer,
    KafkaRecordSerializationSchema,
    KafkaSink,
    KafkaSource,
    KafkaTopicPartition,
)
from pystream.datastream.formats.json import JsonRowSerializationSchema
from pystream.errors import JobExecutionError
from tests.connectors.conftest import consume, create_topic, produce
from tests.connectors.servers import free_port
from tests.helpers import collect_sorted

ROW = Types.ROW_NAMED(["id", "name"], [Types.INT(), Types.STRING()])


def bounded_source(bootstrap, topic, deserializer=None, **kwargs):
    builder = (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(topic)
               .set_starting_offsets(kwargs.get("start", KafkaOffsetsInitializer.earliest()))
               .set_bounded(KafkaOffsetsInitializer.latest())
               .set_value_only_deserializer(deserializer or SimpleStringSchema()))
    if "group" in kwargs:
        builder.set_group_id(kwargs["group"])
    return builder.build()


def read(env, source) -> list:
    return collect_sorted(env.from_source(source, WatermarkStrategy.no_watermarks(), "kafka"))


def test_bounded_source_reads_what_is_in_the_topic(env, kafka_servers, topic):
    produce(kafka_servers, topic, ["a", "b", "c", "d", "e"])
    assert read(env, bounded_source(kafka_servers, topic)) == ["a", "b", "c", "d", "e"]


def test_sink_writes_json_rows(env, kafka_servers, topic):
    sink = (KafkaSink.builder().set_bootstrap_servers(kafka_servers)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(topic)
                                   .set_value_serialization_schema(
                                       JsonRowSerializationSchema.builder()
                                       .with_type_info(ROW).build()).build())
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
    env.from_collection([Row(1, "a"), Row(2, "b,c")], ROW).sink_to(sink)
    env.execute("kafka sink")
    assert sorted(consume(kafka_servers, topic)) == ['{"id":1,"name":"a"}',
                                                     '{"id":2,"name":"b,c"}']


def test_sink_topic_selector_keys_and_transactions(batch_env, kafka_servers, topic):
    other = topic + "-odd"
    sink = (KafkaSink.builder().set_bootstrap_servers(kafka_servers)
            .set_record_serializer(KafkaRecordSerializationSchema.builder()
                                   .set_topic_selector(lambda r: other if r[0] % 2 else topic)
                                   .set_key_serialization_schema(RowFieldExtractorSchema(1))
                                   .set_value_serialization_schema(
                                       JsonRowSerializationSchema.builder()
                                       .with_type_info(ROW).build())
                                   .build())
            .set_delivery_guarantee(DeliveryGuarantee.EXACTLY_ONCE).build())
    batch_env.from_collection([Row(1, "a"), Row(2, "b"), Row(3, "c")], ROW).sink_to(sink)
    batch_env.execute("kafka topic selector")
    assert (consume(kafka_servers, topic, keys=True), consume(kafka_servers, other, keys=True)
            ) == ([("b", '{"id":2,"name":"b"}')],
                  [("a", '{"id":1,"name":"a"}'), ("c", '{"id":3,"name":"c"}')])


def test_restart_resumes_from_the_checkpointed_offsets(kafka_servers, topic, tmp_path):
    def run() -> list:
        env = StreamExecutionEnvironment.get_execution_environment()
        env.enable_checkpointing(500)
        env.get_checkpoint_config().set_checkpoint_storage_dir(str(tmp_path))
        ds = env.from_source(bounded_source(kafka_servers, topic),
                             WatermarkStrategy.no_watermarks(), "kafka")
        with ds.execute_and_collect("resume") as results:
            return sorted(results)

    produce(kafka_servers, topic, ["a", "b", "c"])
    first = run()
    produce(kafka_servers, topic, ["d", "e"])
    assert (first, run()) == (["a", "b", "c"], ["d", "e"])


def test_starts_from_the_group_committed_offsets(env, kafka_servers, topic):
    from kafka import KafkaConsumer, TopicPartition
    from kafka.structs import OffsetAndMetadata

    produce(kafka_servers, topic, ["a", "b", "c", "d"])
    consumer = KafkaConsumer(bootstrap_servers=kafka_servers, group_id="g1")
    consumer.commit({TopicPartition(topic, 0): OffsetAndMetadata(1, "", -1)})
    consumer.close()
    committed = KafkaOffsetsInitializer.committed_offsets(KafkaOffsetResetStrategy.EARLIEST)
    source = bounded_source(kafka_servers, topic, group="g1", start=committed)
    assert read(env, source) == ["b", "c", "d"]


def test_starts_from_given_offsets_per_partition(env, kafka_servers, topic):
    produce(kafka_servers, topic, ["a", "b", "c", "d", "e", "f"])  # a, c, e | b, d, f
    given = KafkaOffsetsInitializer.offsets({KafkaTopicPartition(topic, 0): 1,
                                             KafkaTopicPartition(topic, 1): 2})
    assert read(env, bounded_source(kafka_servers, topic, start=given)) == ["c", "e", "f"]


def test_legacy_producer_and_consumer(streaming_env, kafka_servers, topic):
    props = {"bootstrap.servers": kafka_servers}
    streaming_env.from_collection(["x", "y"], Types.STRING()).add_sink(
        FlinkKafkaProducer(topic, SimpleStringSchema(), props))
    streaming_env.execute("legacy producer")
    consumer = FlinkKafkaConsumer(topic, SimpleStringSchema(), props).set_start_from_earliest()
    env = StreamExecutionEnvironment.get_execution_environment()
    assert sorted(env.add_source(consumer).execute_and_collect(limit=2)) == ["x", "y"]


def test_malformed_json_names_the_record(batch_env, kafka_servers, topic):
    produce(kafka_servers, topic, ['{"id": 1, "name": "a"}', "not json"], partition=0)
    schema = JsonRowDeserializationSchema.builder().type_info(ROW).build()
    with pytest.raises(JobExecutionError, match=r"Failed to deserialize JSON 'not json'.*"
                                                + topic + r"-0@1"):
        read(batch_env, bounded_source(kafka_servers, topic, schema))


def test_ignore_parse_errors_skips_malformed_json(env, kafka_servers, topic):
    produce(kafka_servers, topic, ['{"id": 1, "name": "a"}', "not json", '{"id": "x"}'])
    schema = JsonRowDeserializationSchema.builder().type_info(ROW).ignore_parse_errors().build()
    assert read(env, bounded_source(kafka_servers, topic, schema)) == [Row(id=1, name="a"),
                                                                      Row(id=None, name=None)]


def test_server_down_is_a_clear_error(env):
    source = (KafkaSource.builder().set_bootstrap_servers("127.0.0.1:%d" % free_port())
              .set_topics("t").set_bounded(KafkaOffsetsInitializer.latest())
              .set_property("bootstrap.timeout.ms", "1000")
              .set_value_only_deserializer(SimpleStringSchema()).build())
    with pytest.raises(JobExecutionError, match=r"cannot connect to Kafka at 127\.0\.0\.1"):
        read(env, source)


class FailOnce:
    """Fails the job at ``value`` on its first run, once the sink's other task has written
    ``written`` records: so one partition of the micro-batch is in Kafka, the other is not."""

    def __init__(self, value: str, flag: str, bootstrap: str, topic: str, written: int):
        self.value, self.flag = value, flag
        self.bootstrap, self.topic, self.written = bootstrap, topic, written

    def __call__(self, value: str) -> str:
        import os
        import time

        if value == self.value and not os.path.exists(self.flag):
            deadline = time.monotonic() + 60
            while (len(consume(self.bootstrap, self.topic)) < self.written
                   and time.monotonic() < deadline):
                time.sleep(0.2)
            time.sleep(2)  # the other task commits right after its records are out
            open(self.flag, "w").close()
            raise RuntimeError("the first run fails here")
        return value


@pytest.mark.parametrize("guarantee, written", [
    ("EXACTLY_ONCE", ["a", "b", "c", "d", "e"]),
    ("AT_LEAST_ONCE", ["a", "a", "b", "c", "c", "d", "e", "e"]),
])
def test_replayed_micro_batch(kafka_servers, topic, tmp_path, guarantee, written):
    """The micro-batch fails after one task's records are in Kafka; the restarted job replays
    it: EXACTLY_ONCE writes that task's records once, AT_LEAST_ONCE twice."""
    out = create_topic(kafka_servers, topic + "-out")
    fail = FailOnce("b", str(tmp_path / "failed"), kafka_servers, out, written=3)

    def run() -> None:
        env = StreamExecutionEnvironment.get_execution_environment()
        env.set_parallelism(2)
        env.enable_checkpointing(500)
        env.get_checkpoint_config().set_checkpoint_storage_dir(str(tmp_path / "checkpoints"))
        sink = (KafkaSink.builder().set_bootstrap_servers(kafka_servers)
                .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(out)
                                       .set_value_serialization_schema(SimpleStringSchema())
                                       .build())
                .set_delivery_guarantee(DeliveryGuarantee[guarantee])
                .set_transactional_id_prefix("replay").build())
        (env.from_source(bounded_source(kafka_servers, topic), WatermarkStrategy.no_watermarks(),
                         "kafka")
         .map(fail, Types.STRING()).sink_to(sink))
        env.execute("replay")

    produce(kafka_servers, topic, ["a", "b", "c", "d", "e"])  # partition 0: a c e; 1: b d
    with pytest.raises(JobExecutionError, match="the first run fails here"):
        run()
    run()
    assert sorted(consume(kafka_servers, out)) == written


def test_spark_kafka_options_when_the_connector_jar_is_present():
    from pystream.compiler.connectors.kafka import spark_kafka_options

    source = (KafkaSource.builder().set_bootstrap_servers("b:9092").set_topics("a", "b")
              .set_group_id("g").set_starting_offsets(KafkaOffsetsInitializer.earliest())
              .set_bounded(KafkaOffsetsInitializer.latest())
              .set_value_only_deserializer(SimpleStringSchema()).build())
    committed = (KafkaSource.builder().set_bootstrap_servers("b:9092").set_topics("a")
                 .set_group_id("g").set_starting_offsets(
                     KafkaOffsetsInitializer.committed_offsets())
                 .set_value_only_deserializer(SimpleStringSchema()).build())
    assert (spark_kafka_options(source, batch=True), spark_kafka_options(committed, False)) == (
        {"kafka.group.id": "g", "kafka.bootstrap.servers": "b:9092", "includeHeaders": "false",
         "subscribe": "a,b", "startingOffsets": "earliest", "endingOffsets": "latest"}, None)


def test_spark_kafka_connector_is_detected(spark):
    from pystream.compiler.connectors.kafka import has_spark_kafka

    jar = any("kafka" in j for j in spark.conf.get("spark.jars", "").split(","))
    assert has_spark_kafka(spark) == jar


@pytest.mark.parametrize("guarantee", ["AT_LEAST_ONCE", "EXACTLY_ONCE"])
def test_sink_server_down_is_a_clear_error(batch_env, guarantee):
    servers = "127.0.0.1:%d" % free_port()
    sink = (KafkaSink.builder().set_bootstrap_servers(servers)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic("t")
                                   .set_value_serialization_schema(SimpleStringSchema())
                                   .build())
            .set_delivery_guarantee(DeliveryGuarantee[guarantee])
            .set_property("bootstrap.timeout.ms", "1000").build())
    batch_env.from_collection(["a"], Types.STRING()).sink_to(sink)
    with pytest.raises(JobExecutionError, match="KafkaSink cannot connect to Kafka at " + servers):
        batch_env.execute("kafka down")
