"""Interval joins over unbounded tables (monitored directories): Spark's stream-stream join,
its state dropped by the watermarks; each match once, and an outer join's row without a match
once the watermark has passed its interval. (Bounded tables, STREAMING and BATCH, against
PyFlink's output: tests/sql/programs/interval_join.py and window_join.py.)"""
from __future__ import annotations

from pathlib import Path

import pytest

from pystream.errors import UnsupportedFeatureError
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


@pytest.mark.parametrize("query, construct", [
    ("""SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end
        ORDER BY id DESC) AS rn FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts),
        INTERVAL '1' HOUR))) WHERE rn <= 2""", "window Top-N"),
    ("""SELECT * FROM (SELECT * FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts),
        INTERVAL '1' HOUR))) L JOIN (SELECT * FROM TABLE(TUMBLE(TABLE shipments,
        DESCRIPTOR(ship_ts), INTERVAL '1' HOUR))) R ON L.id = R.order_id
        AND L.window_start = R.window_start AND L.window_end = R.window_end""", "window join"),
])
def test_window_top_n_and_window_joins_of_unbounded_tables_are_named(tmp_path, query,
                                                                      construct):
    with pytest.raises(UnsupportedFeatureError, match=construct):
        _monitored(tmp_path).execute_sql(query)
