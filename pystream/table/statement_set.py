"""``StatementSet``: several INSERTs run as one job."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, List

from pystream.common.data_types import DataTypes
from pystream.table.table_pipeline import TablePipeline
from pystream.table.table_result import JobClients, TableResult

if TYPE_CHECKING:
    from pystream.table.table import Table
    from pystream.table.table_environment import TableEnvironment

__all__ = ["StatementSet"]


class StatementSet:
    """Several INSERTs run as one job (``add_insert_sql``, ``add_insert``, ``execute``)."""

    def __init__(self, t_env: "TableEnvironment"):
        self._t_env = t_env
        self._inserts: List[Any] = []

    def add_insert_sql(self, stmt: str) -> "StatementSet":
        from pystream.sql import statements

        self._inserts.append(statements.insert_plan(self._t_env, stmt))
        return self

    def add_insert(self, target_path_or_descriptor, table: "Table",
                   overwrite: bool = False) -> "StatementSet":
        self._inserts.append((table._rel, target_path_or_descriptor, overwrite))
        return self

    def add_insert_internal(self, rel, target, overwrite: bool) -> "StatementSet":
        """An INSERT the SQL front end has translated (not PyFlink's API)."""
        self._inserts.append((rel, target, overwrite))
        return self

    def add(self, table_pipeline: TablePipeline) -> "StatementSet":
        """Adds a ``Table.insert_into(...)``."""
        return self.add_insert(table_pipeline._target, table_pipeline._table,
                               table_pipeline._overwrite)

    def explain(self, *extra_details) -> str:
        return "\n".join(self._t_env.explain_internal(rel) for rel, _, _ in self._inserts)

    def print_explain(self, *extra_details) -> None:
        print(self.explain(*extra_details))

    def execute(self) -> TableResult:
        results = [self._t_env.execute_insert_internal(rel, target, overwrite)
                   for rel, target, overwrite in self._inserts]
        self._inserts = []
        names = [n for r in results for n in r.get_table_schema().get_field_names()]
        values = tuple(v for r in results for row in r.collect() for v in row)
        result = TableResult.of_rows(names, [DataTypes.BIGINT().not_null()] * len(names),
                                     [values], raw=True)
        clients = [r.get_job_client() for r in results if r.get_job_client() is not None]
        if clients:  # streaming INSERTs: wait() waits for all of them
            result._job_client = JobClients(clients)
        return result
