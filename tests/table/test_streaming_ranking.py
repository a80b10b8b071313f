"""Top-N and deduplication over unbounded tables (monitored directories): the buffer of each
partition's best rows, or its kept row, in Spark's state store (``transformWithState``).
Each key's changes are PyFlink's for the same rows (recorded over bounded tables in
tests/sql/programs/top_n_streaming.py and dedup_streaming.py); keys interleave as Spark's
micro-batches fall."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.connectors.test_kafka_tables import _env, _take
from tests.oracle.runner import recorded_changes

PROGRAMS = Path(__file__).resolve().parents[1] / "sql" / "programs"


def _per_key(changes: list, key: int = 1) -> dict:
    keyed: dict = {}
    for change in changes:
        keyed.setdefault(change[key], []).append(change)
    return keyed


def _as_text(rows: list) -> list:
    return [tuple(str(v) for v in r) for r in rows]


@pytest.mark.parametrize("table, select", [(0, "shop, item, amount"),
                                           (1, "shop, item, amount, rn")])
def test_top_n_of_an_unbounded_table_follows_the_ranking(tmp_path, table, select):
    (tmp_path / "part-0.csv").write_text("a,x,10\na,y,30\na,z,20\nb,x,5\na,w,40\nb,y,7\n")
    t_env = _env()
    t_env.execute_sql("""CREATE TABLE sales (shop STRING, item STRING, amount INT) WITH (
        'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv',
        'source.monitor-interval' = '1 s')""" % tmp_path)
    expected = recorded_changes(PROGRAMS / "top_n_streaming.py")[table]
    result = t_env.execute_sql("""SELECT %s FROM (SELECT *, ROW_NUMBER() OVER (
        PARTITION BY shop ORDER BY amount DESC) AS rn FROM sales) WHERE rn <= 2""" % select)
    assert _per_key(_as_text(_take(result, len(expected)))) == _per_key(expected)


def test_deduplication_of_an_unbounded_table_keeps_each_keys_last_row(tmp_path):
    (tmp_path / "orders.csv").write_text(
        "1,alice,10\n2,bob,5\n3,alice,30\n4,carol,7\n5,bob,8\n6,alice,20\n")
    t_env = _env()
    t_env.execute_sql("""CREATE TABLE orders (id INT, customer STRING, amount INT,
        pt AS PROCTIME()) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv',
        'source.monitor-interval' = '1 s')""" % tmp_path)
    recorded = recorded_changes(PROGRAMS / "dedup_streaming.py")
    for table, order in ((0, "ASC"), (1, "DESC")):
        result = t_env.execute_sql("""SELECT id, customer, amount FROM (
            SELECT *, ROW_NUMBER() OVER (PARTITION BY customer ORDER BY pt %s) AS rn
            FROM orders) WHERE rn = 1""" % order)
        changes = _as_text(_take(result, len(recorded[table])))
        assert _per_key(changes, 2) == _per_key(recorded[table], 2)


def test_deduplication_on_event_time_of_an_unbounded_table(tmp_path):
    (tmp_path / "orders.csv").write_text(
        "1,alice,10,2024-04-15 10:00:05\n2,bob,5,2024-04-15 10:00:01\n"
        "3,alice,30,2024-04-15 10:00:02\n4,carol,7,2024-04-15 10:00:09\n"
        "5,bob,8,2024-04-15 10:00:07\n6,alice,20,2024-04-15 10:00:08\n")
    t_env = _env()
    t_env.execute_sql("""CREATE TABLE orders (id INT, customer STRING, amount INT,
        ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH (
        'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv',
        'source.monitor-interval' = '1 s')""" % tmp_path)
    recorded = recorded_changes(PROGRAMS / "dedup_rowtime.py")
    query = """SELECT id, customer, amount, ts FROM (SELECT *, ROW_NUMBER() OVER (
        PARTITION BY customer ORDER BY ts %s) AS rn FROM orders) WHERE rn = 1"""
    last = _as_text(_take(t_env.execute_sql(query % "DESC"), len(recorded[1])))
    assert _per_key(last, 2) == _per_key(_trimmed(recorded[1]), 2)
    first = t_env.execute_sql(query % "ASC")  # each key's earliest, once the watermark passes
    (tmp_path / "later.csv").write_text("7,dave,1,2024-04-15 11:00:00\n")
    assert sorted(_as_text(_take(first, 3))) == sorted(_trimmed(recorded[0]))


def _trimmed(changes: list) -> list:
    """Recorded timestamps as Python prints them (no milliseconds)."""
    return [tuple(c[:19] if c.startswith("2024") else c for c in r) for r in changes]


BIDS = ["2024-04-15 08:05:00,A,4.0,s1", "2024-04-15 08:07:00,B,2.0,s2",
        "2024-04-15 08:09:00,C,5.0,s1", "2024-04-15 08:11:00,D,3.0,s3",
        "2024-04-15 08:13:00,E,1.0,s2", "2024-04-15 08:17:00,F,6.0,s3",
        "2024-04-15 08:19:00,G,7.0,s3", "2024-04-15 08:21:00,H,2.5,s1"]


def test_window_top_n_of_an_unbounded_table_emits_each_window_once_it_closes(tmp_path):
    (tmp_path / "part-0.csv").write_text("\n".join(BIDS) + "\n")
    t_env = _env()
    t_env.execute_sql("""CREATE TABLE bids (bidtime TIMESTAMP(3), item STRING, price DOUBLE,
        supplier STRING, WATERMARK FOR bidtime AS bidtime - INTERVAL '1' SECOND)
        WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv',
        'source.monitor-interval' = '1 s')""" % tmp_path)
    result = t_env.execute_sql("""SELECT * FROM (
        SELECT window_start, window_end, item, price, ROW_NUMBER() OVER (
            PARTITION BY window_start, window_end ORDER BY price DESC) AS rownum
        FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES)))
        WHERE rownum <= 2""")
    (tmp_path / "part-1.csv").write_text("2024-04-15 09:00:00,Z,1.0,s9\n")  # the watermark
    program = PROGRAMS / "window_top_n.py"
    assert sorted(_as_text(_take(result, 5))) == sorted(_trimmed(
        recorded_changes(program)[0]))
