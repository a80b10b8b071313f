"""What a catalog holds for a name: a connector table or a view (the Table API, SQL and the
compiler read them; ``pystream.table.catalog`` keeps them)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Optional, Tuple

__all__ = ["CatalogTable", "CatalogView"]


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
