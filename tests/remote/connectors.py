"""The connectors job (``connectors_job.py``) run on a cluster or a Connect server, and what
it must leave behind: Kafka in; Kafka (EXACTLY_ONCE), files and PostgreSQL out."""
from __future__ import annotations

from pathlib import Path

from tests.connectors.conftest import consume, create_topic, produce
from tests.connectors.test_jdbc import sql
from tests.remote.materials import pystream_run, result_of

CONNECTORS_JOB = Path(__file__).with_name("connectors_job.py")


def check_connectors_job(where: str, url: str, kafka_servers: str, postgres: dict,
                         tmp_path: Path) -> None:
    """Runs the job with ``pystream run <where> <url>`` and checks its sinks' contents."""
    name = where.strip("-")
    topic, out = (create_topic(kafka_servers, "%s-%s" % (part, name)) for part in ("in", "out"))
    table = "words_" + name
    sql(postgres, "CREATE TABLE %s (word TEXT PRIMARY KEY)" % table)
    produce(kafka_servers, topic, ["a", "b", "c"])
    done = pystream_run([where, url, "-py", str(CONNECTORS_JOB), kafka_servers, topic, out,
                         str(tmp_path / "files"), str(tmp_path / "checkpoints"),
                         postgres["url"], table])
    written = sorted("%s-%s" % (v, mode) for v in "ABC" for mode in ("STREAMING", "BATCH"))
    assert (result_of(done), sorted(consume(kafka_servers, out)),
            sql(postgres, "SELECT word FROM %s ORDER BY word" % table)) == (
        {mode: ["%s-%s" % (v, mode) for v in "ABC"] for mode in ("STREAMING", "BATCH")},
        written, [[w] for w in written])
