"""JDBC: ``JdbcSink.sink`` runs a SQL statement (INSERT, UPSERT, UPDATE, ...) once per record,
with the record's fields as the statement's ``?`` parameters.

>>> sink = JdbcSink.sink(
...     "INSERT INTO books (id, title) VALUES (?, ?) "
...     "ON CONFLICT (id) DO UPDATE SET title = EXCLUDED.title",
...     Types.ROW([Types.INT(), Types.STRING()]),
...     JdbcConnectionOptions.JdbcConnectionOptionsBuilder()
...     .with_url('jdbc:postgresql://localhost:5432/library')
...     .with_driver_name('org.postgresql.Driver')
...     .with_user_name('app').with_password('secret').build(),
...     JdbcExecutionOptions.builder().with_batch_size(200).build())
>>> ds.add_sink(sink)                                                # doctest: +SKIP

Statements run in Spark's Python workers through a Python database driver chosen by the
URL: ``jdbc:postgresql://`` (pg8000) and ``jdbc:sqlite:`` (sqlite3). Writes are at least
once: a replayed micro-batch runs its statements again, so write upserts keyed by the
primary key (``ON CONFLICT ... DO UPDATE``) and a replay changes nothing.
"""
from __future__ import annotations

from typing import Optional

from pystream.common.typeinfo import RowTypeInfo, TypeInformation
from pystream.core.connectors.base import Sink
from pystream.errors import UnsupportedFeatureError

__all__ = ["JdbcSink", "JdbcConnectionOptions", "JdbcExecutionOptions"]

SUPPORTED_URLS = ("jdbc:postgresql:", "jdbc:sqlite:")


class JdbcConnectionOptions:
    """Where the database is: URL, driver class name, user and password."""

    def __init__(self, url: str, driver_name: Optional[str], user_name: Optional[str],
                 password: Optional[str]):
        self._url = url
        self._driver_name = driver_name
        self._user_name = user_name
        self._password = password

    def get_db_url(self) -> str:
        return self._url

    def get_driver_name(self) -> Optional[str]:
        return self._driver_name

    def get_user_name(self) -> Optional[str]:
        return self._user_name

    def get_password(self) -> Optional[str]:
        return self._password

    def __repr__(self):  # never shows the password
        return "JdbcConnectionOptions(%s, user=%s)" % (self._url, self._user_name)

    class JdbcConnectionOptionsBuilder:
        def __init__(self):
            self._url: Optional[str] = None
            self._driver_name: Optional[str] = None
            self._user_name: Optional[str] = None
            self._password: Optional[str] = None

        def with_url(self, url: str) -> "JdbcConnectionOptions.JdbcConnectionOptionsBuilder":
            self._url = url
            return self

        def with_driver_name(self, driver_name: str
                             ) -> "JdbcConnectionOptions.JdbcConnectionOptionsBuilder":
            self._driver_name = driver_name
            return self

        def with_user_name(self, user_name: str
                           ) -> "JdbcConnectionOptions.JdbcConnectionOptionsBuilder":
            self._user_name = user_name
            return self

        def with_password(self, password: str
                          ) -> "JdbcConnectionOptions.JdbcConnectionOptionsBuilder":
            self._password = password
            return self

        def build(self) -> "JdbcConnectionOptions":
            if not self._url:
                raise ValueError("jdbc url is empty")
            if not self._url.startswith(SUPPORTED_URLS):
                raise UnsupportedFeatureError(
                    "JDBC url %r: pystream writes through Python database drivers and "
                    "supports %s URLs" % (self._url, " and ".join(SUPPORTED_URLS)))
            return JdbcConnectionOptions(self._url, self._driver_name, self._user_name,
                                         self._password)


class JdbcExecutionOptions:
    """How records are written: transactions of ``batch_size`` records, retried up to
    ``max_retries`` times when the connection fails."""

    def __init__(self, batch_size: int = 5000, batch_interval_ms: int = 0,
                 max_retries: int = 3):
        self._batch_size = batch_size
        self._batch_interval_ms = batch_interval_ms
        self._max_retries = max_retries

    def get_batch_interval_ms(self) -> int:
        return self._batch_interval_ms

    def get_batch_size(self) -> int:
        return self._batch_size

    def get_max_retries(self) -> int:
        return self._max_retries

    @staticmethod
    def defaults() -> "JdbcExecutionOptions":
        return JdbcExecutionOptions()

    @staticmethod
    def builder() -> "JdbcExecutionOptions.Builder":
        return JdbcExecutionOptions.Builder()

    class Builder:
        def __init__(self):
            self._options = {}

        def with_batch_size(self, size: int) -> "JdbcExecutionOptions.Builder":
            if size <= 0:
                raise ValueError("batch size must be positive")
            self._options["batch_size"] = size
            return self

        def with_batch_interval_ms(self, interval_ms: int) -> "JdbcExecutionOptions.Builder":
            self._options["batch_interval_ms"] = interval_ms
            return self

        def with_max_retries(self, max_retries: int) -> "JdbcExecutionOptions.Builder":
            if max_retries < 0:
                raise ValueError("max retries must be >= 0")
            self._options["max_retries"] = max_retries
            return self

        def build(self) -> "JdbcExecutionOptions":
            return JdbcExecutionOptions(**self._options)


class JdbcSink(Sink):
    """Runs ``sql`` for every record (see the module docstring); for ``add_sink``."""

    name = "JdbcSink"

    def __init__(self, sql: str, type_info: TypeInformation,
                 connection_options: JdbcConnectionOptions,
                 execution_options: JdbcExecutionOptions):
        self.sql = sql
        self.type_info = type_info
        self.connection_options = connection_options
        self.execution_options = execution_options

    @staticmethod
    def sink(sql: str, type_info: RowTypeInfo, jdbc_connection_options: JdbcConnectionOptions,
             jdbc_execution_options: Optional[JdbcExecutionOptions] = None) -> "JdbcSink":
        if not hasattr(type_info, "get_field_types"):
            raise TypeError("JdbcSink.sink needs a ROW type_info, got %s" % type_info)
        return JdbcSink(sql, type_info, jdbc_connection_options,
                        jdbc_execution_options or JdbcExecutionOptions.defaults())

    def __repr__(self):
        return "JdbcSink(%s)" % self.connection_options.get_db_url()
