"""The in-memory catalogs of a TableEnvironment: catalogs hold databases, databases hold tables,
views and functions; temporary objects shadow permanent ones, as in Flink."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Tuple

from pystream.common.configuration import Configuration
from pystream.errors import UnsupportedFeatureError
from pystream.relational.catalog import CatalogTable, CatalogView
from pystream.table.schema import Schema
from pystream.table.table_schema import TableSchema
from pystream.util.exceptions import (
    CatalogException,
    DatabaseAlreadyExistException,
    DatabaseNotEmptyException,
    DatabaseNotExistException,
    TableAlreadyExistException,
    TableNotExistException,
    ValidationException,
)

__all__ = ["ObjectPath", "ObjectIdentifier", "CatalogTable", "CatalogView", "CatalogManager",
           "Catalog", "CatalogBaseTable", "CatalogDatabase", "CatalogDescriptor"]


@dataclass(frozen=True)
class QualifiedName:
    """``catalog.database.object``, each part resolved against the current catalog/database."""

    catalog: str
    database: str
    name: str

    def __str__(self) -> str:
        return "`%s`.`%s`.`%s`" % (self.catalog, self.database, self.name)


@dataclass(frozen=True)
class HintedTable:
    """A table's path with the options a statement's hints add to its own (an INSERT's
    ``target /*+ OPTIONS(...) */``)."""

    path: str
    options: Mapping[str, str]


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
        # a database's properties and comment, where it was created with them
        self.database_info: Dict[Tuple[str, str], CatalogDatabase] = {}
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
        self.database_info.pop((catalog, database), None)

    def _database_path(self, name: str) -> Tuple[str, str]:
        parts = split_identifier(name)
        if len(parts) == 1:
            return self.current_catalog, parts[0]
        if parts[0] not in self._catalogs:
            raise CatalogException("A catalog with name [%s] does not exist." % parts[0])
        return parts[0], parts[1]

    def list_catalogs(self) -> List[str]:
        return sorted(self._catalogs)

    def databases_of(self, catalog: str) -> Dict[str, Dict[str, Any]]:
        """The databases of ``catalog``, by name, each its objects by name."""
        if catalog not in self._catalogs:
            raise CatalogException("A catalog with name [%s] does not exist." % catalog)
        return self._catalogs[catalog]

    def default_database(self, catalog: str) -> str:
        """The database a catalog was created with (the one ``USE CATALOG`` starts in)."""
        return next(iter(self.databases_of(catalog)), "default")

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


@dataclass(frozen=True)
class CatalogDatabase:
    """A database's properties and comment (``CatalogDatabase.create_instance(...)``)."""

    properties: Dict[str, str]
    comment: Optional[str] = None

    @staticmethod
    def create_instance(properties: Dict[str, str],
                        comment: Optional[str] = None) -> "CatalogDatabase":
        return CatalogDatabase(dict(properties), comment)

    def get_properties(self) -> Dict[str, str]:
        return dict(self.properties)

    def get_comment(self) -> Optional[str]:
        return self.comment

    def copy(self) -> "CatalogDatabase":
        return CatalogDatabase(dict(self.properties), self.comment)

    def get_description(self) -> Optional[str]:
        return self.comment

    def get_detailed_description(self) -> Optional[str]:
        return self.comment


class CatalogBaseTable:
    """A catalog's table or view, as ``Catalog.get_table`` gives it and ``create_table``
    takes it: its options, schema and comment."""

    def __init__(self, entry: Any):
        self._entry = entry

    @staticmethod
    def create_table(schema: TableSchema, partition_keys: Optional[List[str]] = None,
                     properties: Optional[Dict[str, str]] = None,
                     comment: Optional[str] = None) -> "CatalogBaseTable":
        """A connector table: its fields, partition keys and connector options."""
        declared = Schema.new_builder().from_fields(
            schema.get_field_names(), schema.get_field_data_types()).build()
        return CatalogBaseTable(CatalogTable(declared, dict(properties or {}),
                                             tuple(partition_keys or ()), comment))

    @staticmethod
    def create_view(original_query: str, expanded_query: str, schema: TableSchema,
                    properties: Dict[str, str], comment: Optional[str] = None):
        raise UnsupportedFeatureError(
            "CatalogBaseTable.create_view (a view of SQL text made outside a TableEnvironment): "
            "create views with CREATE VIEW or TableEnvironment.create_view")

    @property
    def entry(self) -> Any:
        """The catalog's entry: a ``CatalogTable`` or a ``CatalogView``."""
        return self._entry

    def get_options(self) -> Dict[str, str]:
        return dict(getattr(self._entry, "options", {}))

    def get_unresolved_schema(self) -> Schema:
        if isinstance(self._entry, CatalogTable):
            return self._entry.schema
        fields = self._entry.rel.schema.fields
        return Schema.new_builder().from_fields(
            [f.name for f in fields], [f.data_type for f in fields]).build()

    def get_comment(self) -> str:
        return getattr(self._entry, "comment", None) or ""

    def copy(self) -> "CatalogBaseTable":
        return CatalogBaseTable(self._entry)

    def get_description(self) -> Optional[str]:
        return self.get_comment()

    def get_detailed_description(self) -> Optional[str]:
        return self.get_comment()


@dataclass(frozen=True)
class CatalogDescriptor:
    """What ``TableEnvironment.create_catalog`` makes: a name and the catalog's options
    (``type`` = ``generic_in_memory``, the one kind pystream has)."""

    catalog_name: str
    configuration: Configuration
    comment: Optional[str] = None

    @staticmethod
    def of(catalog_name: str, configuration: Configuration,
           comment: Optional[str] = None) -> "CatalogDescriptor":
        return CatalogDescriptor(catalog_name, configuration, comment)


def check_catalog_type(kind: Optional[str]) -> None:
    """Refuses catalogs of other kinds than the in-memory one."""
    if kind != "generic_in_memory":
        raise UnsupportedFeatureError(
            "a catalog with 'type' = '%s' (in-memory catalogs only: 'type' = "
            "'generic_in_memory')" % kind)


class Catalog:
    """One catalog of a TableEnvironment (``t_env.get_catalog(name)``): its databases, and
    their tables and views, read and changed as Flink's in-memory catalog does (its
    exceptions and messages). Temporary objects are the TableEnvironment's, not a
    catalog's."""

    def __init__(self, manager: CatalogManager, name: str):
        self._manager, self._name = manager, name

    # databases
    def get_default_database(self) -> str:
        return self._manager.default_database(self._name)

    def list_databases(self) -> List[str]:
        return sorted(self._databases())

    def get_database(self, database_name: str) -> CatalogDatabase:
        self._objects(database_name)
        return self._manager.database_info.get((self._name, database_name),
                                               CatalogDatabase({}, None))

    def database_exists(self, database_name: str) -> bool:
        return database_name in self._databases()

    def create_database(self, name: str, database: CatalogDatabase,
                        ignore_if_exists: bool) -> None:
        if self.database_exists(name):
            if ignore_if_exists:
                return
            raise DatabaseAlreadyExistException(
                "Database %s already exists in Catalog %s." % (name, self._name))
        self._databases()[name] = {}
        self._manager.database_info[(self._name, name)] = database

    def drop_database(self, name: str, ignore_if_exists: bool) -> None:
        """Drops an empty database; ``ignore_if_exists`` (PyFlink's name): do nothing when
        there is none."""
        if not self.database_exists(name):
            if ignore_if_exists:
                return
            self._objects(name)
        if self._databases()[name]:
            raise DatabaseNotEmptyException(
                "Database %s in catalog %s is not empty." % (name, self._name))
        del self._databases()[name]
        self._manager.database_info.pop((self._name, name), None)

    def alter_database(self, name: str, new_database: CatalogDatabase,
                       ignore_if_not_exists: bool) -> None:
        if not self.database_exists(name):
            if ignore_if_not_exists:
                return
            self._objects(name)
        self._manager.database_info[(self._name, name)] = new_database

    # tables and views
    def list_tables(self, database_name: str) -> List[str]:
        """The tables and the views of the database."""
        return sorted(self._objects(database_name))

    def list_views(self, database_name: str) -> List[str]:
        return sorted(n for n, e in self._objects(database_name).items()
                      if isinstance(e, CatalogView))

    def get_table(self, table_path: ObjectPath) -> CatalogBaseTable:
        objects = self._objects(table_path.database_name)
        if table_path.object_name not in objects:
            raise self._no_table(table_path)
        return CatalogBaseTable(objects[table_path.object_name])

    def table_exists(self, table_path: ObjectPath) -> bool:
        return table_path.object_name in self._databases().get(table_path.database_name, {})

    def drop_table(self, table_path: ObjectPath, ignore_if_not_exists: bool) -> None:
        if not self.table_exists(table_path):
            if ignore_if_not_exists:
                return
            raise self._no_table(table_path)
        del self._objects(table_path.database_name)[table_path.object_name]

    def rename_table(self, table_path: ObjectPath, new_table_name: str,
                     ignore_if_not_exists: bool) -> None:
        if not self.table_exists(table_path):
            if ignore_if_not_exists:
                return
            raise self._no_table(table_path)
        target = ObjectPath(table_path.database_name, new_table_name)
        if self.table_exists(target):
            raise self._table_exists(target)
        objects = self._objects(table_path.database_name)
        objects[new_table_name] = objects.pop(table_path.object_name)

    def create_table(self, table_path: ObjectPath, table: CatalogBaseTable,
                     ignore_if_exists: bool) -> None:
        objects = self._objects(table_path.database_name)
        if table_path.object_name in objects:
            if ignore_if_exists:
                return
            raise self._table_exists(table_path)
        objects[table_path.object_name] = table.entry

    def alter_table(self, table_path: ObjectPath, new_table: CatalogBaseTable,
                    ignore_if_not_exists: bool) -> None:
        if not self.table_exists(table_path):
            if ignore_if_not_exists:
                return
            raise self._no_table(table_path)
        self._objects(table_path.database_name)[table_path.object_name] = new_table.entry

    def _databases(self) -> Dict[str, Dict[str, Any]]:
        return self._manager.databases_of(self._name)

    def _objects(self, database_name: Optional[str]) -> Dict[str, Any]:
        databases = self._databases()
        if database_name not in databases:
            raise DatabaseNotExistException(
                "Database %s does not exist in Catalog %s." % (database_name, self._name))
        return databases[database_name]

    def _no_table(self, path: ObjectPath) -> TableNotExistException:
        return TableNotExistException("Table (or view) %s does not exist in Catalog %s." % (
            path.get_full_name(), self._name))

    def _table_exists(self, path: ObjectPath) -> TableAlreadyExistException:
        return TableAlreadyExistException("Table (or view) %s already exists in Catalog %s." % (
            path.get_full_name(), self._name))
