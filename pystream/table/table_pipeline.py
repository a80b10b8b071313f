"""``TablePipeline``: a table's INSERT into a sink, described and not yet run."""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Union

from pystream.table.catalog import ObjectIdentifier
from pystream.table.table_descriptor import TableDescriptor

if TYPE_CHECKING:
    from pystream.table.table import Table
    from pystream.table.table_result import TableResult

__all__ = ["TablePipeline"]


class TablePipeline:
    """What ``Table.insert_into`` returns: run it with ``execute()``, or add it to a
    StatementSet to run with other INSERTs in one job."""

    def __init__(self, table: "Table", target: Union[str, TableDescriptor],
                 overwrite: bool = False):
        self._table = table
        self._target = target
        self._overwrite = overwrite

    def execute(self) -> "TableResult":
        """Runs the INSERT (a streaming one runs on: ``wait()`` on the result)."""
        return self._table.execute_insert(self._target, self._overwrite)

    def explain(self, *extra_details) -> str:
        """The plan of the INSERT's query."""
        return self._table.explain(*extra_details)

    def print_explain(self, *extra_details) -> None:
        print(self.explain(*extra_details))

    def get_sink_identifier(self) -> Optional[ObjectIdentifier]:
        """The sink table's identifier; None for a sink given by a TableDescriptor."""
        if isinstance(self._target, TableDescriptor):
            return None
        path = self._table._t_env.catalog_manager.path(self._target)
        return ObjectIdentifier.of(path.catalog, path.database, path.name)

    def __str__(self) -> str:
        target = self.get_sink_identifier() or "an anonymous sink"
        return "INSERT%s INTO %s" % (" OVERWRITE" if self._overwrite else "", target)
