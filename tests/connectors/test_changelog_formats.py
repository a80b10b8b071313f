"""Changelog formats over Kafka and over a monitored directory: an updating table written to a
topic as debezium-json is read back as its changelog; a directory of canal-json files is read
as a stream of changes. (Files read and written as the three formats, against PyFlink's
output: tests/sql/programs/changelog_formats.py.)"""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from pystream.util.exceptions import TableException
from tests.connectors.conftest import create_topic, produce
from tests.connectors.test_kafka_tables import _env, _take
from tests.oracle.runner import recorded_changes


def test_an_updating_table_written_as_debezium_json_to_kafka_reads_back_as_its_changelog(
        kafka_servers):
    topic = create_topic(kafka_servers, "totals-%d" % time.time_ns(), partitions=1)
    t_env = _env()
    t_env.execute_sql("""CREATE TABLE totals (k STRING, total INT) WITH (
        'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
        'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
        'format' = 'debezium-json')""" % (topic, kafka_servers))
    t_env.execute_sql("""INSERT INTO totals SELECT k, SUM(v) FROM (VALUES ('a', 1), ('b', 2),
        ('a', 3)) AS clicks(k, v) GROUP BY k""").wait()
    assert _take(t_env.execute_sql("SELECT * FROM totals"), 4) == [
        ("+I", "a", 1), ("+I", "b", 2), ("-D", "a", 1), ("+I", "a", 4)]


def test_a_malformed_debezium_record_names_topic_partition_and_offset(kafka_servers):
    topic = create_topic(kafka_servers, "cdc-%d" % time.time_ns(), partitions=1)
    produce(kafka_servers, topic, ['{"before":null,"after":{"k":"a","total":1},"op":"c"}',
                                   '{"before":null,"after":{"k":"b","total":2},"op":"x"}'],
            partition=0)
    t_env = _env()
    t_env.execute_sql("""CREATE TABLE totals (k STRING, total INT) WITH (
        'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
        'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
        'format' = 'debezium-json')""" % (topic, kafka_servers))
    with pytest.raises(TableException, match=r"Table 'totals' \(debezium-json\): the record at "
                       r"topic %s partition 0 offset 1 does not parse: '.*\"op\":\"x\"}'" % topic):
        _take(t_env.execute_sql("SELECT * FROM totals"), 2)


def test_a_monitored_directory_of_canal_json_is_a_stream_of_changes(tmp_path):
    (tmp_path / "1.json").write_text(
        '{"data":[{"id":1,"name":"apple"},{"id":2,"name":"pear"}],"type":"INSERT"}\n'
        '{"data":[{"id":1,"name":"fig"}],"old":[{"name":"apple"}],"type":"UPDATE"}\n'
        '{"type":"CREATE","sql":"CREATE TABLE t (id INT)"}\n'
        '{"data":[{"id":2,"name":"pear"}],"type":"DELETE"}\n')
    t_env = _env()
    t_env.execute_sql("""CREATE TABLE products (id INT, name STRING) WITH (
        'connector' = 'filesystem', 'path' = '%s', 'format' = 'canal-json',
        'source.monitor-interval' = '1 s')""" % tmp_path)
    assert _take(t_env.execute_sql("SELECT id, UPPER(name) AS name FROM products"), 5) == [
        ("+I", 1, "APPLE"), ("+I", 2, "PEAR"), ("-U", 1, "APPLE"), ("+U", 1, "FIG"),
        ("-D", 2, "PEAR")]


def _recorded_changes(table: int) -> list:
    """The ``table``-th changelog PyFlink printed for tests/sql/programs/changelog_formats.py."""
    return recorded_changes(Path(__file__).resolve().parents[1] / "sql" / "programs" /
                            "changelog_formats.py")[table]


def _products(tmp_path, changes: list):
    """An environment with ``products``: a monitored directory holding these debezium-json
    ``changes``."""
    (tmp_path / "changes.json").write_text("\n".join(changes) + "\n")
    t_env = _env()
    t_env.execute_sql("""CREATE TABLE products (id INT, name STRING, price DOUBLE) WITH (
        'connector' = 'filesystem', 'path' = '%s', 'format' = 'debezium-json',
        'source.monitor-interval' = '1 s')""" % tmp_path)
    return t_env


def _as_printed(changes: list) -> list:
    return [tuple("<NULL>" if v is None else str(v) for v in c) for c in changes]


def test_an_unbounded_debezium_stream_aggregates_with_retractions_as_pyflink_does(tmp_path):
    t_env = _products(tmp_path, [
        '{"before":null,"after":{"id":1,"name":"apple","price":1.5},"op":"c"}',
        '{"before":null,"after":{"id":2,"name":"pear","price":2.0},"op":"r"}',
        '{"before":{"id":1,"name":"apple","price":1.5},'
        '"after":{"id":1,"name":"apple","price":1.75},"op":"u"}',
        '{"before":{"id":2,"name":"pear","price":2.0},"after":null,"op":"d"}',
        '{"before":null,"after":{"id":3,"name":"fig","price":3.0},"op":"c"}'])
    totals = _take(t_env.execute_sql("SELECT COUNT(*) AS n, SUM(price) AS total, "
                                     "AVG(id) AS mean_id FROM products"), 11)
    by_name = _take(t_env.execute_sql("SELECT name, COUNT(*) AS n FROM products "
                                      "GROUP BY name"), 6)
    assert _as_printed(totals) == _recorded_changes(1)
    assert _per_key(_as_printed(by_name)) == \
        _per_key(_recorded_changes(2))  # keys' changes interleave as micro-batches fall


def _per_key(changes: list) -> dict:
    keyed: dict = {}
    for change in changes:
        keyed.setdefault(change[1], []).append(change)
    return keyed


def test_an_unbounded_sum_with_no_values_left_is_null_as_in_pyflink(tmp_path):
    t_env = _products(tmp_path, [
        '{"before":null,"after":{"id":1,"name":"apple","price":1.5},"op":"c"}',
        '{"before":null,"after":{"id":2,"name":"pear","price":2.0},"op":"r"}',
        '{"before":null,"after":{"id":4,"name":"kiwi","price":null},"op":"c"}',
        '{"before":{"id":1,"name":"apple","price":1.5},"after":null,"op":"d"}',
        '{"before":{"id":2,"name":"pear","price":2.0},"after":null,"op":"d"}'])
    totals = _take(t_env.execute_sql("SELECT COUNT(*) AS n, SUM(price) AS total "
                                     "FROM products"), 9)
    assert _as_printed(totals) == _recorded_changes(9)
