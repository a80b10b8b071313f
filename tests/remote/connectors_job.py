"""The connector program the deployment tests run with ``pystream run`` on a standalone
cluster and over Spark Connect: in both runtime modes, it reads a Kafka topic (bounded),
writes the upper-cased records to another topic with EXACTLY_ONCE, to a FileSink and, with
upserts, to a PostgreSQL table ``(word TEXT PRIMARY KEY)``.

Arguments: bootstrap servers, input topic, output topic, output directory, checkpoint
directory, JDBC URL, table. Prints ``RESULT {"STREAMING": [...], "BATCH": [...]}``, the
lines of each mode's FileSink output.
"""
import glob
import json
import os
import sys

from pystream.common import Encoder, Row, Types, WatermarkStrategy
from pystream.common.serialization import SimpleStringSchema
from pystream.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pystream.datastream.connectors import DeliveryGuarantee
from pystream.datastream.connectors.file_system import FileSink
from pystream.datastream.connectors.jdbc import JdbcConnectionOptions, JdbcSink
from pystream.datastream.connectors.kafka import (
    KafkaOffsetsInitializer,
    KafkaRecordSerializationSchema,
    KafkaSink,
    KafkaSource,
)


def run(mode: str, servers: str, topic: str, out_topic: str, out_dir: str, checkpoints: str,
        jdbc_url: str, table: str):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(RuntimeExecutionMode[mode])
    env.enable_checkpointing(500)
    env.get_checkpoint_config().set_checkpoint_storage_dir(checkpoints)
    source = (KafkaSource.builder().set_bootstrap_servers(servers).set_topics(topic)
              .set_starting_offsets(KafkaOffsetsInitializer.earliest())
              .set_bounded(KafkaOffsetsInitializer.latest())
              .set_value_only_deserializer(SimpleStringSchema()).build())
    sink = (KafkaSink.builder().set_bootstrap_servers(servers)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(out_topic)
                                   .set_value_serialization_schema(SimpleStringSchema())
                                   .build())
            .set_delivery_guarantee(DeliveryGuarantee.EXACTLY_ONCE).build())
    upper = env.from_source(source, WatermarkStrategy.no_watermarks(), "kafka").map(
        lambda s: s.upper() + "-" + mode, Types.STRING())
    upper.sink_to(sink)
    upper.sink_to(FileSink.for_row_format(os.path.join(out_dir, mode),
                                          Encoder.simple_string_encoder()).build())
    word = Types.ROW([Types.STRING()])
    upper.map(lambda s: Row(s), word).add_sink(JdbcSink.sink(
        "INSERT INTO %s (word) VALUES (?) ON CONFLICT (word) DO NOTHING" % table, word,
        JdbcConnectionOptions.JdbcConnectionOptionsBuilder().with_url(jdbc_url)
        .with_user_name("postgres").build()))
    env.execute("connectors " + mode)
    return sorted(line for path in glob.glob(os.path.join(out_dir, mode, "*", "part-*"))
                  for line in open(path).read().split())


if __name__ == "__main__":
    print("RESULT " + json.dumps({mode: run(mode, *sys.argv[1:]) for mode in ("STREAMING",
                                                                          "BATCH")}))
