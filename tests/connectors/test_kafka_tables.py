"""Flink SQL's kafka connector on a real broker: unbounded STREAMING queries (collected, printed,
inserted into another kafka table), bounded reads in BATCH mode, formats, metadata, bad records."""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from pystream.table import EnvironmentSettings, TableEnvironment
from pystream.util.exceptions import TableException
from tests.connectors.conftest import consume, create_topic, produce
from tests.oracle.runner import recorded_changes

ORDERS = [{"name": "a", "amount": 1}, {"name": "b", "amount": 5}, {"name": "a", "amount": 7},
          {"name": "c", "amount": 2}, {"name": "a", "amount": 3}]


def _env(batch: bool = False) -> TableEnvironment:
    settings = EnvironmentSettings.in_batch_mode() if batch else \
        EnvironmentSettings.in_streaming_mode()
    t_env = TableEnvironment.create(settings)
    t_env.get_config().set("parallelism.default", "1")
    return t_env


def _orders_table(t_env, servers: str, topic: str, extra: str = "") -> None:
    t_env.execute_sql(f"""
        CREATE TABLE orders (name STRING, amount INT,
            part INT METADATA FROM 'partition', off BIGINT METADATA FROM 'offset')
        WITH ('connector' = 'kafka', 'topic' = '{topic}',
              'properties.bootstrap.servers' = '{servers}',
              'scan.startup.mode' = 'earliest-offset', 'format' = 'json'{extra})""")


def _orders(servers: str, partitions: int = 1) -> str:
    """A new topic holding ORDERS (on partition 0 when there is one)."""
    topic = create_topic(servers, "orders-%d" % time.time_ns(), partitions=partitions)
    produce(servers, topic, [json.dumps(o) for o in ORDERS],
            partition=0 if partitions == 1 else None)
    return topic


def _take(result, n: int) -> list:
    taken = []
    with result.collect() as rows:
        for row in rows:
            taken.append((str(row.get_row_kind()),) + tuple(row))
            if len(taken) == n:
                break
    return taken


def test_an_unbounded_kafka_table_is_read_as_a_stream(kafka_servers):
    topic = _orders(kafka_servers)
    t_env = _env()
    _orders_table(t_env, kafka_servers, topic)
    result = t_env.execute_sql("SELECT name, amount * 2 AS twice, off FROM orders "
                               "WHERE amount > 1")
    assert _take(result, 4) == [("+I", "b", 10, 1), ("+I", "a", 14, 2), ("+I", "c", 4, 3),
                                ("+I", "a", 6, 4)]


def test_a_streaming_group_by_over_kafka_emits_the_changelog_record_by_record(kafka_servers):
    topic = _orders(kafka_servers)
    t_env = _env()
    _orders_table(t_env, kafka_servers, topic)
    result = t_env.execute_sql("SELECT name, COUNT(*) AS n, SUM(amount) AS total FROM orders "
                               "GROUP BY name")
    changes = _take(result, 7)
    assert [c for c in changes if c[1] == "a"] == [
        ("+I", "a", 1, 1), ("-U", "a", 1, 1), ("+U", "a", 2, 8), ("-U", "a", 2, 8),
        ("+U", "a", 3, 11)]
    assert sorted(c for c in changes if c[1] != "a") == [("+I", "b", 1, 5), ("+I", "c", 1, 2)]


def test_insert_from_one_kafka_table_into_another(kafka_servers):
    source = _orders(kafka_servers)
    target = create_topic(kafka_servers, "big-%d" % time.time_ns(), partitions=1)
    t_env = _env()
    _orders_table(t_env, kafka_servers, source)
    t_env.execute_sql(f"""
        CREATE TABLE big (name STRING, amount INT) WITH ('connector' = 'kafka',
            'topic' = '{target}', 'properties.bootstrap.servers' = '{kafka_servers}',
            'key.format' = 'raw', 'key.fields' = 'name', 'value.format' = 'csv')""")
    result = t_env.execute_sql("INSERT INTO big SELECT name, amount FROM orders WHERE amount > 2")
    deadline = time.time() + 120
    written: list = []
    while time.time() < deadline and len(written) < 3:
        time.sleep(1)
        written = consume(kafka_servers, target, keys=True)
    result.get_job_client().cancel()
    assert written == [("a", "a,3"), ("a", "a,7"), ("b", "b,5")]


def test_a_bounded_kafka_table_in_batch_mode(kafka_servers):
    topic = _orders(kafka_servers, partitions=2)
    t_env = _env(batch=True)
    _orders_table(t_env, kafka_servers, topic, ", 'scan.bounded.mode' = 'latest-offset'")
    with t_env.execute_sql("SELECT name, SUM(amount) FROM orders GROUP BY name").collect() as r:
        assert sorted(tuple(x) for x in r) == [("a", 11), ("b", 5), ("c", 2)]


def test_a_malformed_record_fails_the_query_with_a_clear_error(kafka_servers):
    topic = create_topic(kafka_servers, "bad-%d" % time.time_ns(), partitions=1)
    produce(kafka_servers, topic, ['{"name": "a", "amount": 1}', "not json"], partition=0)
    t_env = _env(batch=True)
    _orders_table(t_env, kafka_servers, topic, ", 'scan.bounded.mode' = 'latest-offset'")
    with pytest.raises(TableException, match=r"Table 'orders' \(json\): the record at topic "
                       r"%s partition 0 offset 1 does not parse: 'not json'" % topic):
        with t_env.execute_sql("SELECT * FROM orders").collect() as rows:
            list(rows)
    with t_env.execute_sql("SELECT 1").collect() as rows:  # the environment still works
        assert [tuple(r) for r in rows] == [(1,)]


def test_ignore_parse_errors_reads_the_fields_that_parse_and_skips_what_is_not_json(
        kafka_servers):
    topic = create_topic(kafka_servers, "lenient-%d" % time.time_ns(), partitions=1)
    produce(kafka_servers, topic, ['{"name": "a", "amount": 1}', "not json",
                                   '{"name": "b", "amount": "many"}'], partition=0)
    t_env = _env(batch=True)
    _orders_table(t_env, kafka_servers, topic, ", 'scan.bounded.mode' = 'latest-offset', "
                  "'json.ignore-parse-errors' = 'true'")
    with t_env.execute_sql("SELECT * FROM orders").collect() as rows:
        assert [tuple(r) for r in rows] == [("a", 1, 0, 0), ("b", None, 0, 2)]


def _produce_keyed(servers: str, topic: str, records) -> None:
    """(key, value or None for a deletion) records, on partition 0."""
    from kafka import KafkaProducer

    producer = KafkaProducer(bootstrap_servers=servers)
    try:
        for key, value in records:
            producer.send(topic, key=key.encode(), partition=0,
                          value=None if value is None else json.dumps(value).encode())
        producer.flush()
    finally:
        producer.close()


USERS = [("u1", {"id": "u1", "city": "Oslo"}), ("u2", {"id": "u2", "city": "Rome"}),
         ("u1", {"id": "u1", "city": "Lima"}), ("u2", None), ("u1", {"id": "u1", "city": "Lima"})]


def _users_table(t_env, servers: str, topic: str, extra: str = "") -> None:
    t_env.execute_sql(f"""
        CREATE TABLE users (id STRING, city STRING, PRIMARY KEY (id) NOT ENFORCED)
        WITH ('connector' = 'upsert-kafka', 'topic' = '{topic}',
              'properties.bootstrap.servers' = '{servers}',
              'key.format' = 'raw', 'value.format' = 'json'{extra})""")


def test_an_upsert_kafka_table_reads_as_a_changelog(kafka_servers):
    topic = create_topic(kafka_servers, "users-%d" % time.time_ns(), partitions=1)
    _produce_keyed(kafka_servers, topic, USERS)
    t_env = _env()
    _users_table(t_env, kafka_servers, topic)
    changes = _take(t_env.execute_sql("SELECT * FROM users"), 5)
    assert [c for c in changes if c[1] == "u1"] == [
        ("+I", "u1", "Oslo"), ("-U", "u1", "Oslo"), ("+U", "u1", "Lima")]
    assert [c for c in changes if c[1] == "u2"] == [("+I", "u2", "Rome"), ("-D", "u2", "Rome")]
    batch = _env(batch=True)
    _users_table(batch, kafka_servers, topic, ", 'scan.bounded.mode' = 'latest-offset'")
    with batch.execute_sql("SELECT * FROM users").collect() as rows:
        assert [tuple(r) for r in rows] == [("u1", "Lima")]


def test_a_streaming_aggregate_into_upsert_kafka_keeps_the_latest_value_per_key(kafka_servers):
    source = _orders(kafka_servers)
    target = create_topic(kafka_servers, "totals-%d" % time.time_ns(), partitions=1)
    t_env = _env()
    _orders_table(t_env, kafka_servers, source)
    t_env.execute_sql(f"""
        CREATE TABLE totals (name STRING, total INT, PRIMARY KEY (name) NOT ENFORCED)
        WITH ('connector' = 'upsert-kafka', 'topic' = '{target}',
              'properties.bootstrap.servers' = '{kafka_servers}',
              'key.format' = 'raw', 'value.format' = 'json')""")
    result = t_env.execute_sql("INSERT INTO totals SELECT name, SUM(amount) FROM orders "
                               "GROUP BY name")
    deadline, latest = time.time() + 120, {}
    while time.time() < deadline and latest != {"a": 11, "b": 5, "c": 2}:
        time.sleep(1)
        values = [json.loads(v) for v in consume(kafka_servers, target)]  # offset order
        latest = {v["name"]: v["total"] for v in values}
    result.get_job_client().cancel()
    assert latest == {"a": 11, "b": 5, "c": 2}


def test_a_temporal_join_against_an_upsert_kafka_table_uses_the_version_at_each_order(
        kafka_servers):
    """The orders and rates of tests/sql/programs/temporal_join.py, on two topics: the rates
    an upsert-kafka table (the versioned table: a key and a watermark)."""
    stamp = time.time_ns()
    orders = create_topic(kafka_servers, "orders-%d" % stamp, partitions=1)
    rates = create_topic(kafka_servers, "rates-%d" % stamp, partitions=1)

    def rate(currency, value, hour):
        return currency, {"currency": currency, "rate": value,
                          "update_time": "2024-04-15 %s:00:00" % hour}

    _produce_keyed(kafka_servers, rates, [rate("EUR", 1.10, "08"), rate("USD", 1.00, "08"),
                                          rate("EUR", 1.20, "10"), rate("GBP", 0.90, "12")])
    produce(kafka_servers, orders, [json.dumps(
        {"order_id": o, "price": p, "currency": c, "order_time": "2024-04-15 " + t})
        for o, p, c, t in [("o1", 10, "EUR", "09:00:00"), ("o2", 20, "EUR", "10:30:00"),
                           ("o3", 30, "USD", "09:30:00"), ("o4", 40, "GBP", "09:00:00"),
                           ("o5", 50, "EUR", "07:00:00")]], partition=0)
    t_env = _env()
    t_env.execute_sql(f"""CREATE TABLE orders (order_id STRING, price INT, currency STRING,
        order_time TIMESTAMP(3), WATERMARK FOR order_time AS order_time) WITH (
        'connector' = 'kafka', 'topic' = '{orders}', 'properties.bootstrap.servers' =
        '{kafka_servers}', 'scan.startup.mode' = 'earliest-offset', 'format' = 'json')""")
    t_env.execute_sql(f"""CREATE TABLE rates (currency STRING, rate DOUBLE,
        update_time TIMESTAMP(3), WATERMARK FOR update_time AS update_time,
        PRIMARY KEY (currency) NOT ENFORCED) WITH ('connector' = 'upsert-kafka',
        'topic' = '{rates}', 'properties.bootstrap.servers' = '{kafka_servers}',
        'key.format' = 'raw', 'value.format' = 'json')""")
    result = t_env.execute_sql("""SELECT o.order_id, o.price * r.rate AS converted
        FROM orders AS o LEFT JOIN rates FOR SYSTEM_TIME AS OF o.order_time AS r
        ON o.currency = r.currency""")
    # later rows on both topics move the watermark past every order
    _produce_keyed(kafka_servers, rates, [rate("XXX", 1.0, "23")])
    produce(kafka_servers, orders, [json.dumps({"order_id": "o9", "price": 1, "currency":
                                                "XXX", "order_time": "2024-04-15 23:00:00"})],
            partition=0)
    program = Path(__file__).resolve().parents[1] / "sql" / "programs" / "temporal_join.py"
    expected = sorted(recorded_changes(program)[1])
    assert sorted(tuple("<NULL>" if v is None else str(v) for v in r)
                  for r in _take(result, 5)) == expected


# What Flink's AvroSchemaConverter derives for the table of the test below (Flink's rules,
# docs/sql.md; PyFlink's wheel has no avro format jar to record it with)
FLINK_AVRO_SCHEMA = {"type": "record", "name": "record", "fields": [
    {"name": "name", "type": ["null", "string"], "default": None},
    {"name": "amount", "type": "int"},
    {"name": "price", "type": ["null", {"type": "bytes", "logicalType": "decimal",
                                        "precision": 10, "scale": 2}], "default": None},
    {"name": "at", "type": ["null", {"type": "long", "logicalType": "timestamp-millis"}],
     "default": None},
    {"name": "tags", "type": ["null", {"type": "array", "items": ["null", "string"]}],
     "default": None}]}


def test_the_avro_format_writes_flinks_records_and_reads_them_back(kafka_servers):
    import datetime
    import io
    from decimal import Decimal

    import fastavro

    topic = create_topic(kafka_servers, "avro-%d" % time.time_ns(), partitions=1)
    t_env = _env(batch=True)
    t_env.execute_sql(f"""
        CREATE TABLE priced (name STRING, amount INT NOT NULL, price DECIMAL(10, 2),
            at TIMESTAMP(3), tags ARRAY<STRING>)
        WITH ('connector' = 'kafka', 'topic' = '{topic}',
              'properties.bootstrap.servers' = '{kafka_servers}', 'format' = 'avro',
              'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')""")
    t_env.execute_sql("INSERT INTO priced VALUES ('a', 1, 2.50, TIMESTAMP '2026-11-26 "
                      "10:00:00.123', ARRAY['x', 'y']), (CAST(NULL AS STRING), 2, "
                      "CAST(NULL AS DECIMAL(10, 2)), CAST(NULL AS TIMESTAMP(3)), "
                      "CAST(NULL AS ARRAY<STRING>))").wait()
    schema = fastavro.parse_schema(FLINK_AVRO_SCHEMA)
    written = sorted((fastavro.schemaless_reader(io.BytesIO(v), schema)
                      for v in consume(kafka_servers, topic, raw=True)),
                     key=lambda r: r["amount"])  # the two rows go out in either order
    at = datetime.datetime(2026, 11, 26, 10, 0, 0, 123000)
    assert written == [
        {"name": "a", "amount": 1, "price": Decimal("2.50"),
         "at": at.replace(tzinfo=datetime.timezone.utc), "tags": ["x", "y"]},
        {"name": None, "amount": 2, "price": None, "at": None, "tags": None}]
    with t_env.execute_sql("SELECT * FROM priced ORDER BY amount").collect() as rows:
        assert [tuple(r) for r in rows] == [("a", 1, Decimal("2.50"), at, ["x", "y"]),
                                            (None, 2, None, None, None)]


def test_the_headers_metadata_column_reads_each_records_headers(kafka_servers):
    from kafka import KafkaProducer

    topic = create_topic(kafka_servers, "headers-%d" % time.time_ns(), partitions=1)
    producer = KafkaProducer(bootstrap_servers=kafka_servers)
    producer.send(topic, value=b'{"name": "a"}', partition=0,
                  headers=[("source", b"web"), ("trace", b"\x00\x01")])
    producer.send(topic, value=b'{"name": "b"}', partition=0)
    producer.flush()
    producer.close()
    t_env = _env(batch=True)
    t_env.execute_sql(f"""
        CREATE TABLE tagged (name STRING, hdrs MAP<STRING, BYTES> METADATA FROM 'headers')
        WITH ('connector' = 'kafka', 'topic' = '{topic}', 'format' = 'json',
              'properties.bootstrap.servers' = '{kafka_servers}',
              'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')""")
    with t_env.execute_sql("SELECT name, hdrs FROM tagged").collect() as rows:
        assert [tuple(r) for r in rows] == [
            ("a", {"source": b"web", "trace": b"\x00\x01"}), ("b", {})]


def test_an_insert_writes_the_headers_and_timestamp_metadata_columns(kafka_servers):
    """Persisted metadata columns are the record's headers and timestamp, not fields of its
    value; a VIRTUAL one (the offset) is read only, and an INSERT leaves it out."""
    from kafka import KafkaConsumer

    topic = create_topic(kafka_servers, "tagged-%d" % time.time_ns(), partitions=1)
    t_env = _env(batch=True)
    t_env.execute_sql(f"""
        CREATE TABLE tagged (name STRING, hdrs MAP<STRING, BYTES> METADATA FROM 'headers',
            ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp', off BIGINT METADATA FROM 'offset'
            VIRTUAL)
        WITH ('connector' = 'kafka', 'topic' = '{topic}', 'format' = 'json',
              'properties.bootstrap.servers' = '{kafka_servers}',
              'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')""")
    t_env.execute_sql("""INSERT INTO tagged VALUES
        ('a', MAP['source', CAST('web' AS BYTES)], TO_TIMESTAMP_LTZ(1700000000000, 3)),
        ('b', CAST(NULL AS MAP<STRING, BYTES>), TO_TIMESTAMP_LTZ(1700000001000, 3))""").wait()
    consumer = KafkaConsumer(topic, bootstrap_servers=kafka_servers,
                             auto_offset_reset="earliest", consumer_timeout_ms=5000)
    written = sorted((r.value, r.headers, r.timestamp) for r in consumer)
    consumer.close()
    assert written == [(b'{"name":"a"}', [("source", b"web")], 1700000000000),
                       (b'{"name":"b"}', [], 1700000001000)]
    with t_env.execute_sql("SELECT name, hdrs, off FROM tagged").collect() as rows:
        assert sorted(tuple(r) for r in rows) == [("a", {"source": b"web"}, 0), ("b", {}, 1)]
