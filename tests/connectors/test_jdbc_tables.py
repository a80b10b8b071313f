"""Flink SQL's jdbc connector against a real PostgreSQL server: scans, appends, and a STREAMING
changelog applied as upserts and deletes by primary key."""
from __future__ import annotations

import time
import uuid

import pytest

from pystream.table import EnvironmentSettings, TableEnvironment
from pystream.util.exceptions import TableException, ValidationException
from tests.connectors.test_jdbc import sql


def _env(batch: bool) -> TableEnvironment:
    settings = EnvironmentSettings.in_batch_mode() if batch else \
        EnvironmentSettings.in_streaming_mode()
    t_env = TableEnvironment.create(settings)
    t_env.get_config().set("parallelism.default", "1")
    return t_env


@pytest.fixture
def books(postgres) -> str:
    name = "books_" + uuid.uuid4().hex[:8]
    sql(postgres, "CREATE TABLE %s (id INT PRIMARY KEY, title TEXT, price NUMERIC(6, 2))" % name)
    sql(postgres, "INSERT INTO %s VALUES (1, 'Dune', 9.50), (2, 'Emma', 4.25)" % name)
    return name


def _declare(t_env, postgres, name: str, table: str, key: bool = True) -> None:
    primary = ", PRIMARY KEY (id) NOT ENFORCED" if key else ""
    t_env.execute_sql(f"""
        CREATE TABLE {name} (id INT, title STRING, price DECIMAL(6, 2){primary})
        WITH ('connector' = 'jdbc', 'url' = '{postgres["url"]}', 'table-name' = '{table}',
              'username' = '{postgres["user"]}')""")


@pytest.mark.parametrize("batch", [True, False], ids=["batch", "streaming"])
def test_a_jdbc_table_is_scanned(postgres, books, batch):
    t_env = _env(batch)
    _declare(t_env, postgres, "books", books)
    with t_env.execute_sql("SELECT title, price * 2 FROM books WHERE id > 0").collect() as rows:
        assert sorted(tuple(r) for r in rows) == [("Dune", pytest.approx(19)),
                                                  ("Emma", pytest.approx(8.5))]


def test_insert_appends_and_a_changelog_upserts_by_primary_key(postgres, books):
    t_env = _env(batch=True)
    _declare(t_env, postgres, "books", books)
    t_env.execute_sql("INSERT INTO books VALUES (3, 'Ulysses', 12.00)").wait()
    streaming = _env(batch=False)
    _declare(streaming, postgres, "books", books)
    streaming.execute_sql("""
        INSERT INTO books SELECT id, MAX(title), SUM(price) FROM (VALUES
            (1, 'Dune', 1.00), (4, 'Odyssey', 2.00), (1, 'Dune', 3.00)) AS T(id, title, price)
        GROUP BY id""").wait()
    assert sql(postgres, "SELECT id, title, price::float FROM %s ORDER BY id" % books) == [
        [1, "Dune", 4.0], [2, "Emma", 4.25], [3, "Ulysses", 12.0], [4, "Odyssey", 2.0]]


def test_an_unbounded_changelog_into_jdbc_upserts_continuously(postgres, books):
    t_env = _env(batch=False)
    _declare(t_env, postgres, "books", books)
    t_env.execute_sql("""CREATE TABLE ticks (n INT) WITH ('connector' = 'datagen',
        'rows-per-second' = '20', 'fields.n.min' = '1', 'fields.n.max' = '2')""")
    result = t_env.execute_sql("INSERT INTO books SELECT n, 'tick', CAST(COUNT(*) AS "
                               "DECIMAL(6, 2)) FROM ticks GROUP BY n")
    deadline, counts = time.time() + 120, []
    while time.time() < deadline:
        time.sleep(1)
        counts = sql(postgres, "SELECT id, title, price::float FROM %s ORDER BY id" % books)
        if all(r[1] == "tick" and r[2] >= 3 for r in counts):
            break
    result.get_job_client().cancel()
    assert [(r[0], r[1]) for r in counts] == [(1, "tick"), (2, "tick")]
    assert all(r[2] >= 3 for r in counts)


def test_a_changelog_into_a_jdbc_table_without_a_key_is_refused(postgres, books):
    t_env = _env(batch=False)
    _declare(t_env, postgres, "books", books, key=False)
    with pytest.raises(TableException, match="doesn't support consuming update changes"):
        t_env.execute_sql("INSERT INTO books SELECT id, MAX(title), SUM(price) FROM books "
                          "GROUP BY id")


def _orders(t_env, directory, monitored: bool = False) -> None:
    """orders (id, book_id, pt AS PROCTIME()) from csv files in ``directory``."""
    monitor = ", 'source.monitor-interval' = '1 s'" if monitored else ""
    t_env.execute_sql(f"""CREATE TABLE orders (id INT, book_id INT, pt AS PROCTIME())
        WITH ('connector' = 'filesystem', 'path' = '{directory}', 'format' = 'csv'{monitor})""")


@pytest.mark.parametrize("batch", [True, False], ids=["batch", "streaming"])
def test_a_lookup_join_reads_the_jdbc_table_as_it_is(postgres, books, tmp_path, batch):
    (tmp_path / "part-0.csv").write_text("10,1\n11,2\n12,7\n")
    t_env = _env(batch)
    _declare(t_env, postgres, "books", books)
    _orders(t_env, tmp_path)
    inner = t_env.execute_sql("""SELECT o.id, b.title FROM orders AS o
        JOIN books FOR SYSTEM_TIME AS OF o.pt AS b ON o.book_id = b.id""")
    left = t_env.execute_sql("""SELECT o.id, b.title FROM orders AS o
        LEFT JOIN books FOR SYSTEM_TIME AS OF o.pt AS b ON o.book_id = b.id""")
    with inner.collect() as rows:
        assert sorted(tuple(r) for r in rows) == [(10, "Dune"), (11, "Emma")]
    with left.collect() as rows:
        assert sorted(tuple(r) for r in rows) == [(10, "Dune"), (11, "Emma"), (12, None)]
    assert "LookupJoin(joinType=[INNER], time=[pt]" in t_env.sql_query(
        "SELECT * FROM orders AS o JOIN books FOR SYSTEM_TIME AS OF o.pt AS b "
        "ON o.book_id = b.id").explain()


def test_an_unbounded_lookup_join_sees_the_table_change(postgres, books, tmp_path):
    (tmp_path / "part-0.csv").write_text("10,1\n")
    t_env = _env(batch=False)
    _declare(t_env, postgres, "books", books)
    t_env.execute_sql(f"""CREATE TABLE books_cached (id INT, title STRING, price DECIMAL(6, 2),
        PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'jdbc',
        'url' = '{postgres["url"]}', 'table-name' = '{books}',
        'username' = '{postgres["user"]}', 'lookup.cache' = 'PARTIAL',
        'lookup.partial-cache.max-rows' = '100')""")
    _orders(t_env, tmp_path, monitored=True)
    result = t_env.execute_sql("""SELECT o.id, b.title FROM orders AS o
        JOIN books_cached FOR SYSTEM_TIME AS OF o.pt AS b ON o.book_id = b.id""")
    with result.collect() as rows:
        assert tuple(next(rows)) == (10, "Dune")
        sql(postgres, "UPDATE %s SET title = 'Dune Messiah' WHERE id = 1" % books)
        (tmp_path / "part-1.csv").write_text("11,1\n")
        assert tuple(next(rows)) == (11, "Dune Messiah")


def test_a_lookup_join_needs_a_table_that_can_be_looked_up(tmp_path):
    (tmp_path / "part-0.csv").write_text("1,1\n")
    t_env = _env(batch=False)
    _orders(t_env, tmp_path)
    t_env.execute_sql(f"""CREATE TABLE titles (id INT, title STRING) WITH (
        'connector' = 'filesystem', 'path' = '{tmp_path}', 'format' = 'csv')""")
    with pytest.raises(ValidationException, match="Processing-time temporal join is not "
                                                  "supported yet"):
        t_env.sql_query("""SELECT * FROM orders AS o JOIN titles FOR SYSTEM_TIME AS OF o.pt
            AS t ON o.book_id = t.id""")
