"""JdbcSink against a real PostgreSQL server on 127.0.0.1."""
from __future__ import annotations

import uuid

import pytest

from pystream.common import Row, Types
from pystream.datastream.connectors.jdbc import (
    JdbcConnectionOptions,
    JdbcExecutionOptions,
    JdbcSink,
)
from pystream.errors import JobExecutionError, UnsupportedFeatureError
from tests.connectors.servers import free_port

ROW = Types.ROW([Types.INT(), Types.STRING()])


def sql(postgres, statement: str, *params) -> list:
    import pg8000.dbapi

    conn = pg8000.dbapi.connect(user=postgres["user"], host=postgres["host"],
                                port=postgres["port"], database=postgres["database"])
    try:
        cursor = conn.cursor()
        cursor.execute(statement, params)
        rows = cursor.fetchall() if cursor.description else []
        conn.commit()
        return [list(r) for r in rows]
    finally:
        conn.close()


@pytest.fixture
def table(postgres) -> str:
    name = "books_" + uuid.uuid4().hex[:8]
    sql(postgres, "CREATE TABLE %s (id INT PRIMARY KEY, title TEXT NOT NULL)" % name)
    return name


def options(url: str) -> JdbcConnectionOptions:
    return (JdbcConnectionOptions.JdbcConnectionOptionsBuilder().with_url(url)
            .with_driver_name("org.postgresql.Driver").with_user_name("postgres")
            .with_password("unused").build())


def upsert(table: str, url: str) -> JdbcSink:
    return JdbcSink.sink("INSERT INTO %s (id, title) VALUES (?, ?) ON CONFLICT (id) DO UPDATE "
                         "SET title = EXCLUDED.title" % table, ROW, options(url),
                         JdbcExecutionOptions.builder().with_batch_size(2).build())


def test_upserts_do_not_duplicate_rows_on_replay(env, postgres, table):
    for titles in (["a", "b", "c"], ["a", "b2", "c"]):  # the second run replays the input
        env.from_collection([Row(i, t) for i, t in enumerate(titles)], ROW).add_sink(
            upsert(table, postgres["url"]))
        env.execute("jdbc upsert")
    assert sql(postgres, "SELECT id, title FROM %s ORDER BY id" % table) == [
        [0, "a"], [1, "b2"], [2, "c"]]


def test_refused_record_names_the_record(batch_env, postgres, table):
    sink = JdbcSink.sink("INSERT INTO %s (id, title) VALUES (?, ?)" % table, ROW,
                         options(postgres["url"]))
    batch_env.from_collection([Row(1, None)], ROW).add_sink(sink)
    with pytest.raises(JobExecutionError,
                       match=r"(?s)violates not-null.*record: Row\(f0=1, f1=None\)"):
        batch_env.execute("jdbc refused")


def test_server_down_is_a_clear_error(batch_env):
    url = "jdbc:postgresql://127.0.0.1:%d/postgres" % free_port()
    sink = JdbcSink.sink("INSERT INTO t VALUES (?, ?)", ROW, options(url),
                         JdbcExecutionOptions.builder().with_max_retries(0).build())
    batch_env.from_collection([Row(1, "a")], ROW).add_sink(sink)
    with pytest.raises(JobExecutionError, match="JdbcSink cannot connect to " + url):
        batch_env.execute("jdbc down")


def test_unsupported_database_url():
    with pytest.raises(UnsupportedFeatureError, match="jdbc:mysql"):
        options("jdbc:mysql://localhost/db")
