"""What a catalog holds for a name: a connector table or a view (the Table API, SQL and the
compiler read them; ``pystream.table.catalog`` keeps them)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Optional, Tuple

from pystream.relational.schema import Field, Schema
from pystream.util.exceptions import ValidationException

__all__ = ["CatalogTable", "CatalogView", "written_columns", "view_not_enriched"]


@dataclass(frozen=True)
class CatalogTable:
    """A connector table: its declared ``schema`` (pystream.table.Schema) and ``options``."""

    schema: Any
    options: Dict[str, str] = field(hash=False)
    partition_keys: Tuple[str, ...] = ()
    comment: Optional[str] = None


@dataclass(frozen=True)
class CatalogView:
    """A view: the relational tree of its query (and the SQL text, when it came from SQL)."""

    rel: Any
    query: Optional[str] = None


def written_columns(target: CatalogTable) -> Tuple[Schema, Dict[str, str]]:
    """The columns an INSERT into ``target`` writes (its physical columns and persisted
    metadata columns; a VIRTUAL one is read only), and its metadata columns' keys."""
    written = [c for c in target.schema.columns
               if c.kind == "physical" or (c.kind == "metadata" and not c.virtual)]
    return (Schema(tuple(Field(c.name, c.data_type) for c in written)),
            {c.name: c.key for c in written if c.kind == "metadata"})


def view_not_enriched(view) -> ValidationException:
    """Flink's refusal of a statement's dynamic table options (an OPTIONS hint) on a view."""
    return ValidationException("View '%s' cannot be enriched with new options. Hints can only "
                               "be applied to tables." % view)
