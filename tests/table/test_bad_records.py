"""A record that does not parse fails the job with an error that names the table, the file and
line (or topic, partition and offset: tests/connectors/test_kafka_tables.py) and shows the
record; a checkpointed job fixed and started again loses and doubles nothing. What PyFlink
reads with 'ignore-parse-errors' is the recorded program tests/sql/programs/bad_records.py."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from pystream.table import EnvironmentSettings, TableEnvironment
from pystream.util.exceptions import TableException

LINES = {"csv": ["1,apple,1.5", "2,pear,oops", "3,fig,3.0"],
         "json": ['{"id":1,"name":"apple","price":1.5}', '{"id":2,"name":"pear","price":"oops"}',
                  '{"id":3,"name":"fig","price":3.0}']}


def _products(t_env, directory: Path, fmt: str, extra: str = "") -> None:
    t_env.execute_sql("""CREATE TABLE products (id INT, name STRING, price DOUBLE)
        WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = '%s'%s)"""
                      % (directory, fmt, extra))


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_the_error_names_the_table_the_file_and_line_and_shows_the_record(t_env, tmp_path, fmt):
    data = tmp_path / ("part-0." + fmt)
    data.write_text("\n".join(LINES[fmt]) + "\n")
    _products(t_env, tmp_path, fmt)
    expected = ("The Table job failed: Table 'products' (%s): the record at line 2 of %s does "
                "not parse: '%s' (read as (2, pear, NULL); set '%s.ignore-parse-errors' = "
                "'true' to read its fields that parse and NULL for the others)"
                % (fmt, data, LINES[fmt][1], fmt))
    with pytest.raises(TableException) as failed:
        t_env.execute_sql("SELECT name FROM products").print()  # price is parsed all the same
    assert str(failed.value) == expected


def _drop(inbox: Path, name: str, lines: list) -> Path:
    path = inbox / (name + ".csv")
    (inbox / (name + ".tmp")).write_text("\n".join(lines) + "\n")
    os.replace(inbox / (name + ".tmp"), path)  # whole files only
    return path


def test_a_checkpointed_job_fails_on_a_bad_record_and_resumes_once_the_file_is_fixed(tmp_path):
    inbox, outbox = tmp_path / "in", tmp_path / "out"
    inbox.mkdir()

    def start():
        t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
        t_env.execute_sql("SET 'execution.checkpointing.interval' = '1 s'")
        t_env.execute_sql("SET 'execution.checkpointing.dir' = '%s'" % (tmp_path / "ckpt"))
        t_env.execute_sql("""CREATE TABLE clicks (k STRING, n INT) WITH (
            'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv',
            'source.monitor-interval' = '1 s')""" % inbox)
        t_env.execute_sql("""CREATE TABLE copied (k STRING, n INT) WITH (
            'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')""" % outbox)
        return t_env.execute_sql("INSERT INTO copied SELECT k, n FROM clicks WHERE n > 0")

    _drop(inbox, "1", ["a,1", "b,2"])
    bad = _drop(inbox, "2", ["c,3", "d,four"])
    with pytest.raises(TableException, match=r"Table 'clicks' \(csv\): the record at line 2 of "
                       r"%s does not parse: 'd,four'" % bad):
        start().wait()
    _drop(inbox, "2", ["c,3", "d,4"])  # fixed where it was
    job = start()
    _drop(inbox, "3", ["e,5"])
    written = _wait_for(outbox, 5)
    job.get_job_client().cancel()
    assert written == [("a", 1), ("b", 2), ("c", 3), ("d", 4), ("e", 5)]


def _committed(outbox: Path) -> list:
    from pystream.session import get_session

    if not (outbox / "_spark_metadata").exists():
        return []
    df = get_session().read.schema("k STRING, n INT").csv(str(outbox))
    return sorted(tuple(r) for r in df.collect())


def _wait_for(outbox: Path, count: int, timeout: float = 120) -> list:
    import time

    deadline, rows = time.monotonic() + timeout, []
    while time.monotonic() < deadline:
        rows = _committed(outbox)
        if len(rows) >= count:
            time.sleep(2)  # and nothing more comes
            return _committed(outbox)
        time.sleep(0.5)
    return rows


def test_a_lenient_streaming_job_counts_the_records_that_did_not_parse(tmp_path, capsys):
    inbox, outbox = tmp_path / "in", tmp_path / "out"
    inbox.mkdir()
    _drop(inbox, "1", ["a,1", "b,two", "c,3", "d"])
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.execute_sql("""CREATE TABLE clicks (k STRING, n INT) WITH (
        'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv',
        'csv.ignore-parse-errors' = 'true', 'source.monitor-interval' = '1 s')""" % inbox)
    t_env.execute_sql("""CREATE TABLE copied (k STRING, n INT) WITH (
        'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')""" % outbox)
    job = t_env.execute_sql("INSERT INTO copied SELECT k, n FROM clicks")
    written = _wait_for(outbox, 4)
    job.get_job_client().cancel()
    assert written == [("a", 1), ("b", None), ("c", 3), ("d", None)]
    assert "pystream: 2 record(s) of table clicks (csv) did not parse in micro-batch 0 (read " \
           "with NULL fields or skipped; 2 in all)" in capsys.readouterr().err
