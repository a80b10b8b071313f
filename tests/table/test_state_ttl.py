"""``table.exec.state.ttl`` bounds the state of a streaming GROUP BY over an unbounded table:
a key idle for longer than the TTL starts over, as in Flink (+I again, not -U/+U).

The TTL is 10 s: a key updated again "within the TTL" is, on a loaded machine, updated by a
micro-batch some seconds after the file arrives."""
from __future__ import annotations

import os
import time
from pathlib import Path

from pystream.table import EnvironmentSettings, TableEnvironment

TTL, IDLE = "10 s", 12.5


def _drop(inbox: Path, name: str, text: str) -> None:
    (inbox / (name + ".tmp")).write_text(text)
    os.replace(inbox / (name + ".tmp"), inbox / (name + ".csv"))


def test_a_key_idle_longer_than_the_state_ttl_starts_over(tmp_path):
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.get_config().set("table.exec.state.ttl", TTL)
    t_env.execute_sql("""CREATE TABLE clicks (k STRING) WITH ('connector' = 'filesystem',
        'path' = '%s', 'format' = 'csv', 'source.monitor-interval' = '1 s')""" % tmp_path)
    _drop(tmp_path, "1", "a\nb\n")
    changes = []
    with t_env.execute_sql("SELECT k, COUNT(*) AS n FROM clicks GROUP BY k").collect() as rows:
        for row in rows:
            changes.append((str(row.get_row_kind()),) + tuple(row))
            if len(changes) == 2:
                _drop(tmp_path, "2", "b\n")  # within the TTL: b goes on counting
            elif len(changes) == 4:
                time.sleep(IDLE)  # a and b idle past the TTL
                _drop(tmp_path, "3", "a\n")
            elif len(changes) == 5:
                break
    assert sorted(changes[:2]) == [("+I", "a", 1), ("+I", "b", 1)]
    assert changes[2:] == [("-U", "b", 1), ("+U", "b", 2), ("+I", "a", 1)]


def test_a_join_forgets_the_rows_of_a_key_idle_longer_than_the_state_ttl(tmp_path):
    """A LEFT join over unbounded tables: an order padded with NULLs is retracted when its
    price comes within the TTL, and is not when the price comes after (its row forgotten)."""
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.get_config().set("table.exec.state.ttl", TTL)
    for name, columns in (("orders", "item STRING"), ("prices", "item STRING, price INT")):
        (tmp_path / name).mkdir()
        t_env.execute_sql("""CREATE TABLE %s (%s) WITH ('connector' = 'filesystem',
            'path' = '%s', 'format' = 'csv', 'source.monitor-interval' = '1 s')"""
                          % (name, columns, tmp_path / name))
    _drop(tmp_path / "orders", "1", "a\nb\n")
    changes = []
    with t_env.execute_sql("SELECT o.item, p.price FROM orders o LEFT JOIN prices p "
                           "ON o.item = p.item").collect() as rows:
        for row in rows:
            changes.append((str(row.get_row_kind()),) + tuple(row))
            if len(changes) == 2:
                _drop(tmp_path / "prices", "1", "b,5\n")  # within the TTL
            elif len(changes) == 4:
                time.sleep(IDLE)  # a idle past the TTL
                _drop(tmp_path / "prices", "2", "a,7\n")
                time.sleep(3)
                _drop(tmp_path / "orders", "2", "c\n")
            elif row[0] == "c":
                break
    assert sorted(changes[:2]) == [("+I", "a", None), ("+I", "b", None)]
    assert changes[2:] == [("-D", "b", None), ("+I", "b", 5), ("+I", "c", None)]
