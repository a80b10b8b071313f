"""The in-memory catalogs of a TableEnvironment: catalogs hold databases, databases hold tables,
views and functions; temporary objects shadow permanent ones, as in Flink."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

from pystream.relational.catalog import CatalogTable, CatalogView
from pystream.util.exceptions import (
    CatalogException,
    DatabaseNotExistException,
    TableAlreadyExistException,
    TableNotExistException,
    ValidationException,
)

__all__ = ["ObjectPath", "ObjectIdentifier", "CatalogTable", "CatalogView", "CatalogManager"]


@dataclass(frozen=True)
class QualifiedName:
    """``catalog.database.object``, each part resolved against the current catalog/database."""

    catalog: str
    database: str
    name: str

    def __str__(self) -> str:
        return "`%s`.`%s`.`%s`" % (self.catalog, self.database, self.name)


@dataclass(frozen=True)
class ObjectPath:
    """A database name and an object (table, view, function) name in a catalog: PyFlink's
    ``ObjectPath('db', 'orders')``, written ``db.orders``."""

    database_name: Optional[str] = None
    object_name: Optional[str] = None

    @staticmethod
    def from_string(full_name: str) -> "ObjectPath":
        """``db.orders`` as an ObjectPath (exactly two non-empty names)."""
        parts = full_name.split(".")
        if len(parts) != 2 or not all(parts):
            raise ValidationException(
                "Cannot get split '%s' to get database name and object name" % full_name)
        return ObjectPath(*parts)

    def get_database_name(self) -> Optional[str]:
        return self.database_name

    def get_object_name(self) -> Optional[str]:
        return self.object_name

    def get_full_name(self) -> str:
        return "%s.%s" % (self.database_name, self.object_name)

    def compare_to(self, other: "ObjectPath") -> int:
        """Negative, zero or positive as this path's full name sorts before, with or after
        ``other``'s."""
        mine, theirs = self.get_full_name(), other.get_full_name()
        return (mine > theirs) - (mine < theirs)

    def __lt__(self, other: "ObjectPath") -> bool:
        return self.compare_to(other) < 0

    def __le__(self, other: "ObjectPath") -> bool:
        return self.compare_to(other) <= 0

    def __gt__(self, other: "ObjectPath") -> bool:
        return self.compare_to(other) > 0

    def __ge__(self, other: "ObjectPath") -> bool:
        return self.compare_to(other) >= 0

    def __str__(self) -> str:
        return self.get_full_name()


@dataclass(frozen=True)
class ObjectIdentifier:
    """A table's full name: catalog, database and object (as ``get_sink_identifier()``
    gives it); its text is back-quoted, ``as_summary_string()`` is not."""

    catalog_name: str
    database_name: str
    object_name: str

    @staticmethod
    def of(catalog_name: str, database_name: str, object_name: str) -> "ObjectIdentifier":
        return ObjectIdentifier(catalog_name, database_name, object_name)

    def get_catalog_name(self) -> str:
        return self.catalog_name

    def get_database_name(self) -> str:
        return self.database_name

    def get_object_name(self) -> str:
        return self.object_name

    def to_list(self) -> List[str]:
        return [self.catalog_name, self.database_name, self.object_name]

    def as_serializable_string(self) -> str:
        return ".".join("`%s`" % part.replace("`", "``") for part in self.to_list())

    def as_summary_string(self) -> str:
        return ".".join(self.to_list())

    def to_object_path(self) -> ObjectPath:
        """Its database and object name."""
        return ObjectPath(self.database_name, self.object_name)

    def __str__(self) -> str:
        return self.as_serializable_string()


class CatalogManager:
    """Catalogs, the current catalog and database, and the temporary objects of a session."""

    def __init__(self, catalog: str = "default_catalog", database: str = "default_database"):
        self._catalogs: Dict[str, Dict[str, Dict[str, Any]]] = {catalog: {database: {}}}
        self._temporary: Dict[QualifiedName, Any] = {}
        self.current_catalog = catalog
        self.current_database = database

    # names
    def path(self, name: str) -> QualifiedName:
        """The full path of a possibly qualified, possibly back-quoted name."""
        parts = split_identifier(name)
        if not 1 <= len(parts) <= 3:
            raise ValidationException("Invalid path '%s'." % name)
        parts = [self.current_catalog, self.current_database][:3 - len(parts)] + parts
        return QualifiedName(*parts)

    # catalogs and databases
    def use_catalog(self, name: str) -> None:
        if name not in self._catalogs:
            raise CatalogException("A catalog with name [%s] does not exist." % name)
        self.current_catalog = name
        self.current_database = next(iter(self._catalogs[name]), "default")

    def use_database(self, name: str) -> None:
        if name not in self._catalogs[self.current_catalog]:
            raise DatabaseNotExistException("A database with name [%s] does not exist in the "
                                            "catalog: [%s]." % (name, self.current_catalog))
        self.current_database = name

    def create_catalog(self, name: str) -> None:
        self._catalogs.setdefault(name, {"default": {}})

    def create_database(self, name: str, if_not_exists: bool = False) -> None:
        catalog, database = self._database_path(name)
        databases = self._catalogs[catalog]
        if database in databases:
            if if_not_exists:
                return
            raise CatalogException("Database %s already exists in Catalog %s." %
                                   (database, catalog))
        databases[database] = {}

    def drop_database(self, name: str, if_exists: bool = False, cascade: bool = False) -> None:
        catalog, database = self._database_path(name)
        databases = self._catalogs[catalog]
        if database not in databases:
            if if_exists:
                return
            raise DatabaseNotExistException("Database %s does not exist in Catalog %s." %
                                            (database, catalog))
        if database == self.current_database and catalog == self.current_catalog:
            raise ValidationException("Cannot drop a database which is currently in use.")
        if databases[database] and not cascade:
            raise ValidationException("Cannot drop a database which is not empty: %s." % database)
        del databases[database]

    def _database_path(self, name: str) -> Tuple[str, str]:
        parts = split_identifier(name)
        if len(parts) == 1:
            return self.current_catalog, parts[0]
        if parts[0] not in self._catalogs:
            raise CatalogException("A catalog with name [%s] does not exist." % parts[0])
        return parts[0], parts[1]

    def list_catalogs(self) -> List[str]:
        return sorted(self._catalogs)

    def list_databases(self) -> List[str]:
        return sorted(self._catalogs[self.current_catalog])

    # tables and views
    def lookup(self, name: str) -> Tuple[QualifiedName, Any]:
        path = self.path(name)
        if path in self._temporary:
            return path, self._temporary[path]
        entry = self._objects(path).get(path.name)
        if entry is None:
            raise TableNotExistException(
                "Table `%s` was not found. Known tables: [%s]." % (
                    name, ", ".join(self.list_tables())))
        return path, entry

    def exists(self, name: str) -> bool:
        path = self.path(name)
        return path in self._temporary or path.name in self._objects(path)

    def is_temporary(self, name: str) -> bool:
        return self.path(name) in self._temporary

    def create(self, name: str, entry: Any, temporary: bool, if_not_exists: bool = False,
               replace: bool = False) -> None:
        path = self.path(name)
        store_has = path in self._temporary if temporary else path.name in self._objects(path)
        if store_has and not replace:
            if if_not_exists:
                return
            kind = "view" if isinstance(entry, CatalogView) else "table"
            prefix = "Temporary %s" % kind if temporary else "Table or view"
            raise TableAlreadyExistException("%s '%s' already exists." % (prefix, path))
        if temporary:
            self._temporary[path] = entry
        else:
            self._objects(path)[path.name] = entry

    def drop(self, name: str, temporary: bool, if_exists: bool = False,
             view: Optional[bool] = None) -> bool:
        path = self.path(name)
        store = self._temporary if temporary else self._objects(path)
        key = path if temporary else path.name
        entry = store.get(key)
        if entry is None or (view is not None and isinstance(entry, CatalogView) != view):
            if if_exists:
                return False
            what = "View" if view else "Table"
            raise ValidationException(
                "%s with identifier '%s' does not exist." % (
                    ("Temporary " + what.lower()) if temporary else what, path_text(path)))
        del store[key]
        return True

    def replace(self, name: str, entry: Any) -> None:
        """Put ``entry`` where ``name``'s table is (ALTER TABLE)."""
        path = self.path(name)
        if path in self._temporary:
            self._temporary[path] = entry
        else:
            self._objects(path)[path.name] = entry

    def rename(self, name: str, new_name: str) -> None:
        """``ALTER TABLE name RENAME TO new_name``, in the same catalog and database."""
        path, entry = self.lookup(name)
        target = self.path(new_name)
        if self.exists(new_name):
            raise TableAlreadyExistException("Table or view '%s' already exists." % target)
        if path in self._temporary:
            del self._temporary[path]
            self._temporary[QualifiedName(path.catalog, path.database, target.name)] = entry
        else:
            objects = self._objects(path)
            del objects[path.name]
            objects[target.name] = entry

    def _objects(self, path: QualifiedName) -> Dict[str, Any]:
        catalog = self._catalogs.get(path.catalog)
        if catalog is None:
            raise CatalogException("A catalog with name [%s] does not exist." % path.catalog)
        database = catalog.get(path.database)
        if database is None:
            raise DatabaseNotExistException("A database with name [%s] does not exist in the "
                                            "catalog: [%s]." % (path.database, path.catalog))
        return database

    def _visible(self) -> Dict[str, Any]:
        here = QualifiedName(self.current_catalog, self.current_database, "")
        objects = dict(self._objects(here))
        objects.update({p.name: e for p, e in self._temporary.items()
                        if (p.catalog, p.database) == (here.catalog, here.database)})
        return objects

    def list_tables(self) -> List[str]:
        return sorted(self._visible())

    def list_views(self) -> List[str]:
        return sorted(n for n, e in self._visible().items() if isinstance(e, CatalogView))

    def list_temporary_tables(self) -> List[str]:
        return sorted(p.name for p in self._temporary if p.catalog == self.current_catalog
                      and p.database == self.current_database)

    def list_temporary_views(self) -> List[str]:
        return sorted(p.name for p, e in self._temporary.items()
                      if isinstance(e, CatalogView) and p.catalog == self.current_catalog
                      and p.database == self.current_database)


def path_text(path: QualifiedName) -> str:
    return "`%s`.`%s`.`%s`" % (path.catalog, path.database, path.name)


def split_identifier(name: str) -> List[str]:
    """``a.b.c``, ``a.`b.c``` -> the parts, back-quotes removed."""
    parts, current, quoted = [], [], False
    for ch in name:
        if ch == "`":
            quoted = not quoted
        elif ch == "." and not quoted:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return parts
