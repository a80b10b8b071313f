"""A bounded table that a query reads more than once (two views of one source, joined) is
read once: the plan says so and names the fields its uses need, Spark's plan scans the
files once, the rows are the same, and nothing stays in Spark's cache after the run."""
from __future__ import annotations

import json

import pytest

from pystream.compiler.table_job import TableJob
from pystream.plan.reads import shared_reads
from pystream.table import EnvironmentSettings, TableEnvironment
from pystream.table.planning import plan_of

EVENTS = [
    {"kind": 0, "person": {"id": 1, "name": "ann", "city": "Oslo"}, "item": None},
    {"kind": 1, "person": None, "item": {"id": 10, "seller": 1, "title": "lamp"}},
    {"kind": 1, "person": None, "item": {"id": 11, "seller": 2, "title": "desk"}},
    {"kind": 0, "person": {"id": 2, "name": "bo", "city": "Rome"}, "item": None},
    {"kind": 1, "person": None, "item": {"id": 12, "seller": 1, "title": "rug"}},
]
OTHERS = [{"kind": 2, "person": None, "item": None}] * 20  # rows neither use keeps


@pytest.fixture(params=["streaming", "batch"])
def joined(request, tmp_path):
    return _joined(request.param == "streaming", tmp_path, EVENTS + OTHERS)


def _joined(streaming: bool, tmp_path, events):
    path = tmp_path / "events.json"
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    settings = (EnvironmentSettings.in_streaming_mode() if streaming
                else EnvironmentSettings.in_batch_mode())
    t_env = TableEnvironment.create(settings)
    t_env.execute_sql("""
        CREATE TABLE events (
            kind INT,
            person ROW<id BIGINT, name STRING, city STRING>,
            item ROW<id BIGINT, seller BIGINT, title STRING>
        ) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'json')""" % path)
    t_env.execute_sql("CREATE VIEW people AS SELECT person.id, person.name, person.city "
                      "FROM events WHERE kind = 0")
    t_env.execute_sql("CREATE VIEW items AS SELECT item.id, item.seller, item.title "
                      "FROM events WHERE kind = 1")
    return t_env.sql_query("SELECT P.name, I.id FROM items AS I JOIN people AS P "
                           "ON I.seller = P.id WHERE I.title <> 'desk'")


def test_the_plan_reads_the_table_once_with_the_fields_its_uses_need(joined):
    plan = plan_of(joined)
    (read,) = shared_reads(plan.roots[0]).values()
    assert sorted(read.fields) == [("item", "id"), ("item", "seller"), ("item", "title"),
                             ("kind",), ("person", "id"), ("person", "name")]
    assert ("table 'events' is read once for all its uses when the query runs to its end "
            "and a sample shows they keep a quarter of its rows or less, into Spark's cache "
            "(item.id, item.seller, item.title, kind, person.id, person.name of the rows "
            "where or(equals(kind, 1), equals(kind, 0)))") in plan.reasons


def test_spark_scans_the_files_once_and_the_rows_are_the_same(joined):
    job = TableJob(plan_of(joined))
    spark_plan = job.spark_plan()
    assert spark_plan.count("InMemoryTableScan") == 2
    assert _scans_outside_the_cache(spark_plan) == 0
    rows = sorted((r[0], r[1]) for r in joined.execute().collect())
    assert rows == [("ann", 10), ("ann", 12)]


def test_a_table_whose_uses_keep_most_of_its_rows_is_read_by_each_use(tmp_path):
    """Caching most of a table costs more than reading it again."""
    joined = _joined(True, tmp_path, EVENTS)
    job = TableJob(plan_of(joined))
    spark_plan = job.spark_plan()
    assert "InMemoryTableScan" not in spark_plan and _scans_outside_the_cache(spark_plan) == 2
    job.frame(read_once=True)
    assert not job.cached_frames
    assert sorted((r[0], r[1]) for r in joined.execute().collect()) == [("ann", 10),
                                                                         ("ann", 12)]


def test_a_run_keeps_the_table_in_sparks_cache_until_it_ended(joined):
    job = TableJob(plan_of(joined))
    df, _ = job.frame(read_once=True)
    df.collect()
    (kept,) = job.cached_frames
    assert _in_cache(kept)
    job.ended("test", 0.0)
    assert not job.cached_frames and not _in_cache(kept)


def _scans_outside_the_cache(spark_plan: str) -> int:
    """The file scans of ``spark_plan`` not under a cached relation (Spark shows the plan
    of a cached relation, which runs once, under each of its uses)."""
    outside, cached_at = 0, None
    for line in spark_plan.splitlines():
        depth = len(line) - len(line.lstrip(" :+-"))
        if cached_at is not None and depth <= cached_at:
            cached_at = None
        if "InMemoryRelation" in line and cached_at is None:
            cached_at = depth
        elif "FileScan" in line and cached_at is None:
            outside += 1
    return outside


def _in_cache(df) -> bool:
    level = df.storageLevel
    return level.useMemory or level.useDisk


def test_a_run_that_fails_drops_the_table_from_sparks_cache(joined):
    from pystream.table.types import DataTypes
    from pystream.table.udf import udf

    @udf(result_type=DataTypes.STRING())
    def boom(name):
        raise ValueError("no names today")

    job = TableJob(plan_of(joined.select(boom(joined.name))))
    query = job.query_rows()
    assert job.cached_frames  # read once: the run keeps the table in Spark's cache
    with pytest.raises(Exception, match="no names today"):
        query.rows()
    assert not job.cached_frames


def test_a_malformed_record_among_the_leading_rows_fails_the_run_as_it_says(tmp_path):
    path = tmp_path / "events.json"
    joined = _joined(True, tmp_path, EVENTS + OTHERS)
    path.write_text(path.read_text() + "{not json\n")
    with pytest.raises(Exception, match="does not parse"):
        joined.execute().collect()
