"""JdbcSink in Spark's Python workers: the sink's statement run for every record.

``JdbcWriteStage`` is a ``mapInArrow`` function: each task opens one connection, runs the
statement for its records in transactions of ``batch_size`` records and retries a
transaction whose connection failed (``max_retries`` times, reconnecting). The database
driver follows the JDBC URL: pg8000 for ``jdbc:postgresql:``, sqlite3 for ``jdbc:sqlite:``.
"""
from __future__ import annotations

import decimal
import getpass
import time
from typing import Iterator, List
from urllib.parse import parse_qs, urlsplit

import pyarrow as pa

from pystream.common.time import Instant
from pystream.common.types import Row
from pystream.errors import UnsupportedFeatureError
from pystream.runtime import records
from pystream.runtime.errors import operator_failure
from pystream.runtime.pysource import ReadSpec

WRITE_RESULT = "records long"


class JdbcConnectionError(ConnectionError):
    """The database cannot be reached."""


class JdbcWriteError(RuntimeError):
    """The database refused a record."""


def connect(options):
    """A DB-API connection for JdbcConnectionOptions (statements use ``?`` parameters)."""
    url = options.get_db_url()
    if url.startswith("jdbc:sqlite:"):
        import sqlite3

        return sqlite3.connect(url[len("jdbc:sqlite:"):])
    try:
        import pg8000.dbapi
    except ImportError:  # pragma: no cover - pg8000 is a dependency of the jdbc extra

        raise UnsupportedFeatureError("JDBC to PostgreSQL needs the 'pg8000' package: pip "
                                      "install pg8000 (or pystream[jdbc])") from None
    pg8000.dbapi.paramstyle = "qmark"  # JDBC's '?' placeholders
    parts = urlsplit(url[len("jdbc:"):])
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    try:
        return pg8000.dbapi.connect(
            user=options.get_user_name() or query.get("user") or getpass.getuser(),
            password=options.get_password() or query.get("password"),
            host=parts.hostname or "localhost", port=parts.port or 5432,
            database=parts.path.lstrip("/") or None, timeout=30)
    except (pg8000.dbapi.InterfaceError, OSError) as e:
        raise JdbcConnectionError("JdbcSink cannot connect to %s: %s" % (url, e)) from None


def _retryable() -> tuple:
    errors = [JdbcConnectionError, OSError]
    try:
        import pg8000.dbapi

        errors.append(pg8000.dbapi.InterfaceError)
    except ImportError:  # pragma: no cover
        pass
    return tuple(errors)


def _db_message(error: Exception) -> str:
    """A database error as one line (pg8000 gives the server's fields as a dict)."""
    fields = error.args[0] if error.args else None
    if isinstance(fields, dict) and "M" in fields:
        return fields["M"] + (". " + fields["D"] if fields.get("D") else "")
    return "%s: %s" % (type(error).__name__, error)


def _parameter(value, sqlite: bool):
    if isinstance(value, Instant):
        import datetime

        return datetime.datetime.fromtimestamp(value.to_epoch_milli() / 1000,
                                               datetime.timezone.utc)
    if sqlite and isinstance(value, decimal.Decimal):
        return str(value)
    return value


class JdbcWriteStage:
    """The mapInArrow function of a JdbcSink (see the module docstring)."""

    def __init__(self, sink, type_info, label: str):
        self.sink = sink
        self.type_info = type_info
        self.label = label

    def parameters(self, value) -> list:
        fields = value._values if isinstance(value, Row) else (
            list(value) if isinstance(value, (tuple, list)) else [value])
        sqlite = self.sink.connection_options.get_db_url().startswith("jdbc:sqlite:")
        return [_parameter(v, sqlite) for v in fields]

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        decode = records.batch_decoder(self.type_info)
        size = self.sink.execution_options.get_batch_size()
        self.connection = None
        pending: List = []
        count = 0
        try:
            for batch in batches:
                for value in decode(batch.columns):
                    pending.append(value)
                    if len(pending) >= size:
                        count += self._flush(pending)
                        pending = []
            count += self._flush(pending)
        finally:
            if self.connection is not None:
                self.connection.close()
        yield pa.RecordBatch.from_arrays([pa.array([count], pa.int64())], names=["records"])

    def _flush(self, values: list) -> int:
        """Run the statement for ``values`` in one transaction, retrying lost connections."""
        if not values:
            return 0
        retries = self.sink.execution_options.get_max_retries()
        for attempt in range(retries + 1):
            try:
                if self.connection is None:
                    self.connection = connect(self.sink.connection_options)
                self._execute(values)
                return len(values)
            except _retryable() as e:
                self._drop_connection()
                if attempt == retries:
                    if not isinstance(e, JdbcConnectionError):
                        e = JdbcConnectionError("JdbcSink lost its connection to %s: %s" % (
                            self.sink.connection_options.get_db_url(), e))
                    raise operator_failure(e, self.label, None) from None
                time.sleep(min(1.0 * (attempt + 1), 5.0))
        return 0  # pragma: no cover - the loop returns or raises

    def _execute(self, values: list) -> None:
        cursor = self.connection.cursor()
        for value in values:
            try:
                cursor.execute(self.sink.sql, self.parameters(value))
            except _retryable():
                raise
            except Exception as e:  # noqa: BLE001 - the database refused this record
                self.connection.rollback()
                error = JdbcWriteError("%s (statement: %s)" % (_db_message(e), self.sink.sql))
                raise operator_failure(error, self.label, value) from None
        self.connection.commit()

    def _drop_connection(self) -> None:
        if self.connection is not None:
            try:
                self.connection.close()
            except Exception:  # noqa: BLE001 - already broken
                pass
            self.connection = None


def write_batch(df, stage: JdbcWriteStage) -> int:
    """Write the records of ``df`` (typed columns); how many were written."""
    return sum(row.records for row in df.mapInArrow(stage, WRITE_RESULT).collect())


# ---------------------------------------------------------------------------------------------
# reading (the ``jdbc`` SQL connector's scan)


class JdbcTableRead(ReadSpec):
    """The ``pystream`` data source spec of a ``jdbc`` table's scan: ``SELECT`` its columns,
    in one split, fetched ``fetch_size`` rows at a time."""

    static = False

    def __init__(self, connection_options, table: str, columns: List[str], schema,
                 fetch_size: int = 10000):
        self.connection_options = connection_options
        self.table = table
        self.columns = columns
        self.spark_schema = schema  # a StructType of the columns
        self.fetch_size = fetch_size

    def schema(self):
        return self.spark_schema

    def splits(self) -> list:
        return [None]

    def read(self, split) -> Iterator[pa.RecordBatch]:
        from pyspark.sql.pandas.types import to_arrow_schema

        arrow = to_arrow_schema(self.spark_schema)
        connection = connect(self.connection_options)
        quoted = ", ".join('"%s"' % c.replace('"', '""') for c in self.columns)
        try:
            cursor = connection.cursor()
            try:
                cursor.execute("SELECT %s FROM %s" % (quoted, self.table))
            except _retryable():
                raise
            except Exception as e:  # noqa: BLE001 - the database refused the query
                raise JdbcWriteError("Cannot read table '%s': %s" % (self.table,
                                                                     _db_message(e))) from None
            while True:
                rows = cursor.fetchmany(self.fetch_size)
                if not rows:
                    break
                columns = list(zip(*rows))
                yield pa.RecordBatch.from_arrays(
                    [pa.array(list(values), type=field.type)
                     for values, field in zip(columns, arrow)], schema=arrow)
        finally:
            connection.close()
