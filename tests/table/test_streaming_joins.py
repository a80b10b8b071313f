"""Joins over unbounded tables (monitored directories), against PyFlink's output for the same
rows over bounded tables (tests/sql/programs): interval and window joins as Spark's
stream-stream joins, their state dropped by the watermarks (each match once, an outer join's
row without a match once the watermark has passed its interval or window); event-time
temporal joins and regular joins in Spark's state store."""
from __future__ import annotations

import time
from pathlib import Path

from tests.connectors.test_kafka_tables import _env, _take
from tests.oracle.runner import recorded_changes

PROGRAM = Path(__file__).resolve().parents[1] / "sql" / "programs" / "interval_join.py"
ORDERS = ["1,apple,2024-04-15 08:00:00", "2,pear,2024-04-15 09:00:00",
          "3,plum,2024-04-15 10:00:00", "4,fig,2024-04-15 11:00:00"]
SHIPMENTS = ["1,2024-04-15 09:30:00", "2,2024-04-15 15:00:00", "3,2024-04-15 11:00:00",
             "3,2024-04-15 13:59:00", "1,2024-04-15 16:00:00"]


def _monitored(tmp_path: Path):
    """orders and shipments (the rows of interval_join.py) in monitored directories."""
    t_env = _env()
    for name, lines in (("orders", ORDERS), ("shipments", SHIPMENTS)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "part-0.csv").write_text("\n".join(lines) + "\n")
    t_env.execute_sql("""CREATE TABLE orders (id INT, item STRING, ts TIMESTAMP(3),
        WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem',
        'path' = '%s', 'format' = 'csv', 'source.monitor-interval' = '1 s')"""
                      % (tmp_path / "orders"))
    t_env.execute_sql("""CREATE TABLE shipments (order_id INT, ship_ts TIMESTAMP(3),
        WATERMARK FOR ship_ts AS ship_ts - INTERVAL '1' SECOND) WITH (
        'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv',
        'source.monitor-interval' = '1 s')""" % (tmp_path / "shipments"))
    return t_env


def _printed(rows: list) -> list:
    return sorted(tuple("<NULL>" if v is None else str(v)[:19] for v in r) for r in rows)


def _recorded(table: int) -> list:
    return sorted(tuple(c[:19] if c.startswith("2024") else c for c in r)
                  for r in recorded_changes(PROGRAM)[table])


def test_an_interval_join_of_unbounded_tables_emits_each_match_once(tmp_path):
    t_env = _monitored(tmp_path)
    result = t_env.execute_sql("""SELECT o.id, o.item, o.ts, s.ship_ts FROM orders o,
        shipments s WHERE o.id = s.order_id
        AND s.ship_ts BETWEEN o.ts AND o.ts + INTERVAL '4' HOUR""")
    assert _printed(_take(result, 3)) == _recorded(0)


def test_a_left_interval_join_emits_an_unmatched_row_once_the_watermark_passes(tmp_path):
    t_env = _monitored(tmp_path)
    result = t_env.execute_sql("""SELECT o.id, o.item, s.ship_ts FROM orders o
        LEFT JOIN shipments s ON o.id = s.order_id AND s.ship_ts >= o.ts
        AND s.ship_ts < o.ts + INTERVAL '4' HOUR""")
    # later rows on both sides move the watermarks past the unmatched orders' intervals
    (tmp_path / "orders" / "part-1.csv").write_text("5,kiwi,2024-04-15 20:00:00\n")
    (tmp_path / "shipments" / "part-1.csv").write_text("5,2024-04-15 20:30:00\n")
    kiwi = ("+I", "5", "kiwi", "2024-04-15 20:30:00")
    assert _printed(_take(result, 6)) == sorted(_recorded(1) + [kiwi])


def test_the_plan_names_an_interval_join_and_spark_drops_its_state_by_watermark(tmp_path):
    plan = _monitored(tmp_path).sql_query("""SELECT o.id, s.ship_ts FROM orders o, shipments s
        WHERE o.id = s.order_id AND s.ship_ts BETWEEN o.ts AND o.ts + INTERVAL '4' HOUR
        """).explain()
    assert "IntervalJoin(joinType=[INNER]" in plan
    assert "StreamingSymmetricHashJoin" in plan and "state cleanup [ left value predicate" \
        in plan


def test_a_window_join_of_unbounded_tables_emits_each_window_once_it_closes(tmp_path):
    t_env = _env()
    for name, lines in (("lefts", ["2020-04-15 12:02:00,1,L1", "2020-04-15 12:06:00,2,L2",
                                   "2020-04-15 12:03:00,3,L3"]),
                        ("rights", ["2020-04-15 12:01:00,2,R2", "2020-04-15 12:04:00,3,R3",
                                    "2020-04-15 12:05:00,4,R4"])):
        (tmp_path / name).mkdir()
        (tmp_path / name / "part-0.csv").write_text("\n".join(lines) + "\n")
        t_env.execute_sql("""CREATE TABLE %s (row_time TIMESTAMP(3), num INT, id STRING,
            WATERMARK FOR row_time AS row_time - INTERVAL '1' SECOND) WITH (
            'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv',
            'source.monitor-interval' = '1 s')""" % (name, tmp_path / name))
    result = t_env.execute_sql("""SELECT L.num AS L_num, L.id AS L_id, R.num AS R_num,
        R.id AS R_id, COALESCE(L.window_start, R.window_start) AS window_start,
        COALESCE(L.window_end, R.window_end) AS window_end
        FROM (SELECT * FROM TABLE(TUMBLE(TABLE lefts, DESCRIPTOR(row_time),
                                         INTERVAL '5' MINUTES))) L
        FULL JOIN (SELECT * FROM TABLE(TUMBLE(TABLE rights, DESCRIPTOR(row_time),
                                              INTERVAL '5' MINUTES))) R
        ON L.num = R.num AND L.window_start = R.window_start
        AND L.window_end = R.window_end""")
    for name, num in (("lefts", 98), ("rights", 99)):  # later rows move the watermarks on
        (tmp_path / name / "part-1.csv").write_text("2020-04-15 13:00:00,%d,x\n" % num)
    program = PROGRAM.parent / "window_join.py"
    expected = sorted(tuple(c[:19] if c.startswith("20") else c for c in r)
                      for r in recorded_changes(program)[1])
    assert _printed(_take(result, 5)) == expected


def _wait_for_watermark(rows, at_least: str, timeout: float = 60) -> None:
    """Returns once a micro-batch of the query whose rows come from ``rows`` ran with its
    watermark at ``at_least`` (ISO text, UTC) or later."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        marks = [p.get("eventTime", {}).get("watermark", "") for query in
                 rows._job.queries for p in query.recentProgress]
        if any(mark >= at_least for mark in marks):
            return
        time.sleep(0.1)
    raise AssertionError("the watermark never reached %s: %s" % (at_least, marks))


def test_a_window_join_drops_rows_behind_the_watermark(tmp_path):
    """Rows for a window the watermark has passed join nothing (Flink's window join drops
    them as late); rows for a later window still do."""
    t_env = _env()
    for name in ("lefts", "rights"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "part-0.csv").write_text("2020-04-15 12:02:00,1,%s1\n" % name)
        t_env.execute_sql("""CREATE TABLE %s (row_time TIMESTAMP(3), num INT, id STRING,
            WATERMARK FOR row_time AS row_time - INTERVAL '1' SECOND) WITH (
            'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv',
            'source.monitor-interval' = '1 s')""" % (name, tmp_path / name))
    result = t_env.execute_sql("""SELECT L.id AS L_id, R.id AS R_id
        FROM (SELECT * FROM TABLE(TUMBLE(TABLE lefts, DESCRIPTOR(row_time),
                                         INTERVAL '5' MINUTES))) L
        JOIN (SELECT * FROM TABLE(TUMBLE(TABLE rights, DESCRIPTOR(row_time),
                                         INTERVAL '5' MINUTES))) R
        ON L.num = R.num AND L.window_start = R.window_start
        AND L.window_end = R.window_end""")
    joined = []
    with result.collect() as rows:
        for row in rows:
            joined.append(tuple(row))
            if len(joined) == 1:  # the watermarks are at 12:01:59 now; then at 12:59:59
                for name in ("lefts", "rights"):
                    (tmp_path / name / "part-1.csv").write_text(
                        "2020-04-15 13:00:00,9,%s9\n" % name)
                _wait_for_watermark(rows, "2020-04-15T12:59:59")
                for name in ("lefts", "rights"):
                    (tmp_path / name / "part-2.csv").write_text(
                        "2020-04-15 12:03:00,2,late\n2020-04-15 14:00:00,3,%s3\n" % name)
            if ("lefts3", "rights3") in joined:
                break
    assert joined == [("lefts1", "rights1"), ("lefts9", "rights9"), ("lefts3", "rights3")]


def test_a_temporal_join_of_unbounded_tables_joins_each_order_once_the_watermark_passes(
        tmp_path):
    """The rows of tests/sql/programs/temporal_join.py, in monitored directories."""
    import json

    t_env = _env()
    (tmp_path / "orders").mkdir()
    (tmp_path / "rates").mkdir()
    (tmp_path / "orders" / "part-0.csv").write_text(
        "o1,10,EUR,2024-04-15 09:00:00\no2,20,EUR,2024-04-15 10:30:00\n"
        "o3,30,USD,2024-04-15 09:30:00\no4,40,GBP,2024-04-15 09:00:00\n"
        "o5,50,EUR,2024-04-15 07:00:00\n")

    def rate(currency, value, time):
        return {"currency": currency, "rate": value, "update_time": "2024-04-15 " + time}

    changes = [{"before": None, "after": rate("EUR", 1.10, "08:00:00"), "op": "c"},
               {"before": None, "after": rate("USD", 1.00, "08:00:00"), "op": "c"},
               {"before": rate("EUR", 1.10, "08:00:00"),
                "after": rate("EUR", 1.20, "10:00:00"), "op": "u"},
               {"before": None, "after": rate("GBP", 0.90, "12:00:00"), "op": "c"}]
    (tmp_path / "rates" / "part-0.json").write_text(
        "\n".join(json.dumps(c) for c in changes) + "\n")
    t_env.execute_sql("""CREATE TABLE orders (order_id STRING, price INT, currency STRING,
        order_time TIMESTAMP(3), WATERMARK FOR order_time AS order_time) WITH (
        'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv',
        'source.monitor-interval' = '1 s')""" % (tmp_path / "orders"))
    t_env.execute_sql("""CREATE TABLE rates (currency STRING, rate DOUBLE,
        update_time TIMESTAMP(3), WATERMARK FOR update_time AS update_time,
        PRIMARY KEY (currency) NOT ENFORCED) WITH ('connector' = 'filesystem', 'path' = '%s',
        'format' = 'debezium-json', 'source.monitor-interval' = '1 s')"""
                      % (tmp_path / "rates"))
    result = t_env.execute_sql("""SELECT o.order_id, o.price * r.rate AS converted
        FROM orders AS o LEFT JOIN rates FOR SYSTEM_TIME AS OF o.order_time AS r
        ON o.currency = r.currency""")
    # later rows on both sides move the watermark past every order
    (tmp_path / "orders" / "part-1.csv").write_text("o9,1,XXX,2024-04-15 23:00:00\n")
    (tmp_path / "rates" / "part-1.json").write_text(json.dumps(
        {"before": None, "after": rate("XXX", 1.0, "23:00:00"), "op": "c"}) + "\n")
    program = PROGRAM.parent / "temporal_join.py"
    assert _printed(_take(result, 5)) == sorted(recorded_changes(program)[1])


def test_regular_joins_of_unbounded_tables_end_with_pyflinks_rows(tmp_path):
    """The LEFT and FULL joins of tests/sql/programs/regular_joins_streaming.py over
    monitored directories: each changelog, applied, ends with the rows PyFlink's ends with."""
    import ast

    t_env = _env()
    for name, lines, columns in (
            ("orders", "1,apple,3\n2,pear,5\n3,plum,2\n4,apple,1\n5,fig,7\n",
             "id INT, item STRING, amount INT"),
            ("prices", "apple,10\npear,20\nkiwi,30\napple,11\n", "item STRING, price INT")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "part-0.csv").write_text(lines)
        t_env.execute_sql("""CREATE TABLE %s (%s) WITH ('connector' = 'filesystem',
            'path' = '%s', 'format' = 'csv', 'source.monitor-interval' = '1 s')"""
                          % (name, columns, tmp_path / name))
    recorded = (PROGRAM.parent / "regular_joins_streaming.out").read_text().split("retractions")
    for query, block in (
            ("SELECT o.id, o.item, p.price FROM orders o LEFT JOIN prices p "
             "ON o.item = p.item", 0),
            ("SELECT o.id, o.item, p.item AS p_item, p.price FROM orders o FULL JOIN prices p "
             "ON o.item = p.item", 2)):
        expected = sorted((ast.literal_eval(line.strip()) for line in
                           recorded[block].splitlines() if line.startswith("   (")), key=repr)
        final: list = []
        with t_env.execute_sql(query).collect() as rows:
            for row in rows:
                if str(row.get_row_kind()) in ("+I", "+U"):
                    final.append(tuple(row))
                else:
                    final.remove(tuple(row))  # a retraction of a row that is there
                if sorted(final, key=repr) == expected:
                    break
        assert sorted(final, key=repr) == expected
