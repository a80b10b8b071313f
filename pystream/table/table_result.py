"""``TableResult``: what ``execute()`` and ``execute_sql()`` return, as in PyFlink."""
from __future__ import annotations

from typing import Callable, List, Optional

from pystream.common.closeable_iterator import CloseableIterator
from pystream.common.job import CompletableFuture
from pystream.common.table_formatting import MAX_COLUMN_WIDTH, TableauWriter, tableau_lines
from pystream.common.types import Row
from pystream.table.result_kind import ResultKind
from pystream.table.table_schema import TableSchema

__all__ = ["TableResult", "CloseableIterator", "JobClients"]


class TableResult:
    """The result of a statement: a schema, a kind, rows, and the job that makes them."""

    def __init__(self, schema: TableSchema, kind: ResultKind,
                 rows: Callable[[], CloseableIterator], streaming: bool = False,
                 job_client=None, query: bool = True, unbounded: bool = False,
                 local_time_zone: Optional[str] = None):
        self._schema = schema
        self._kind = kind
        self._rows = rows
        self._streaming = streaming
        self._query = query  # a query's rows print in widths by type; SHOW's by content
        self._job_client = job_client
        self._unbounded = unbounded  # rows of an unbounded query: printed as they come
        self._taken = False
        self._max_column_width: Optional[int] = MAX_COLUMN_WIDTH  # None: no limit
        self._local_time_zone = local_time_zone  # TIMESTAMP_LTZ printed in it (None: ours)
        self._raw = False  # print() writes the values as they are (an INSERT's)

    @staticmethod
    def of_rows(names: List[str], types, rows: List[tuple], streaming: bool = False,
                kind: ResultKind = ResultKind.SUCCESS_WITH_CONTENT,
                max_column_width: Optional[int] = MAX_COLUMN_WIDTH,
                job_client=None, raw: bool = False) -> "TableResult":
        """A result of rows known already (DDL's ``OK``, SHOW, DESCRIBE, an INSERT's -1);
        ``print()`` cuts its cells at ``max_column_width`` (None: never, as for SHOW
        CREATE), or with ``raw`` writes each row's values as they are (an INSERT's
        ``-1``, two INSERTs' ``-1, -1``)."""
        schema = TableSchema(list(names), list(types))
        result = TableResult(schema, kind,
                             lambda: CloseableIterator(iter([Row(*r) for r in rows])),
                             streaming, job_client=job_client, query=False)
        result._max_column_width = max_column_width
        result._raw = raw
        return result

    # -- how the result prints (pystream's, for the shell's SQL modes)

    @property
    def is_query(self) -> bool:
        """The rows of a query (printed in widths by type), not of SHOW or DESCRIBE."""
        return self._query

    @property
    def is_changelog(self) -> bool:
        """Each row carries its row kind (+I/-U/+U/-D): a STREAMING query's changelog."""
        return self._streaming and self._query

    @property
    def local_time_zone(self) -> Optional[str]:
        """The time zone ``print()`` shows TIMESTAMP_LTZ values in (``table.local-time-zone``;
        None: this process's)."""
        return self._local_time_zone

    @property
    def is_unbounded(self) -> bool:
        """The rows of a query over an unbounded table: they come as the job runs."""
        return self._unbounded

    def get_job_client(self):
        return self._job_client

    def wait(self, timeout_ms: int | None = None) -> None:
        """Waits for the job to end (its rows are kept for ``collect()``)."""
        if self._job_client is not None:
            self._job_client.wait(timeout_ms)

    def get_table_schema(self) -> TableSchema:
        return self._schema

    def get_resolved_schema(self) -> TableSchema:
        return self._schema

    def get_result_kind(self) -> ResultKind:
        return self._kind

    def collect(self) -> CloseableIterator:
        """The rows, each with its row kind (``row.get_row_kind()``)."""
        return self._rows()

    def print(self, max_rows: Optional[int] = None) -> None:
        """Prints the rows as a table (PyFlink's tableau format; with the ``op`` column in
        STREAMING mode), or ``OK`` for a statement without rows. ``max_rows`` stops after
        that many rows (and stops the query)."""
        if self._kind is ResultKind.SUCCESS:
            print("OK")
            return
        if self._raw:
            with self.collect() as rows:
                for row in rows:
                    print(", ".join(str(v) for v in row))
            return
        if self._unbounded:
            self._print_as_they_come(max_rows)
            return
        with self.collect() as rows:
            taken = []
            for row in rows:
                taken.append(row)
                if max_rows is not None and len(taken) >= max_rows:
                    break
        for line in tableau_lines(self._schema, taken, op_column=self._streaming and self._query,
                                  widths_by_type=self._query,
                                  max_width=self._max_column_width,
                                  zone=self._local_time_zone):
            print(line)


    def _print_as_they_come(self, max_rows: Optional[int]) -> None:
        """An unbounded query: the header now, each row as it arrives; the job runs until
        ``max_rows`` rows came, or Ctrl-C (the job is cancelled; the interrupt goes on)."""
        writer = TableauWriter(self._schema, op_column=True, zone=self._local_time_zone)
        for line in writer.header():
            print(line, flush=True)
        try:
            with self.collect() as rows:
                for row in rows:
                    print(writer.row(row), flush=True)
                    if max_rows is not None and writer.count >= max_rows:
                        break
        finally:
            for line in writer.footer():
                print(line, flush=True)


class JobClients:
    """The job client of a statement set's streaming INSERTs: ``wait`` waits for all of them,
    ``cancel`` cancels all of them."""

    def __init__(self, clients: list):
        self.clients = clients

    def get_job_id(self):
        return self.clients[0].get_job_id()

    def get_job_status(self):
        return self.clients[0].get_job_status()

    def cancel(self):
        for client in self.clients:
            client.cancel()
        return CompletableFuture.completed(None)

    def wait(self, timeout_ms: Optional[int] = None) -> None:
        try:
            for client in self.clients:
                client.wait(timeout_ms)
        except KeyboardInterrupt:
            self.cancel()
            raise
