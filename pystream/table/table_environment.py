"""``TableEnvironment`` and ``StreamTableEnvironment``, as in PyFlink.

A TableEnvironment holds the catalogs, the configuration and the mode; it turns Python data,
catalog tables and SQL into ``Table``s (relational trees), and runs them through
``pystream.compiler.table_job`` (the only place that touches Spark).
"""
from __future__ import annotations

import itertools
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Union

from pystream.common.data_types import (
    DataType,
    DataTypes,
    RowField,
    RowType,
    from_type_info,
    infer_data_type,
    verify_value,
)
from pystream.common.typeinfo import RowTypeInfo, Types
from pystream.common.types import Row, RowKind
from pystream.core.connectors.table import TableSource
from pystream.datastream import StreamExecutionEnvironment
from pystream.dependencies import add_python_archive, add_python_file, set_python_requirements
from pystream.errors import UnsupportedFeatureError
from pystream.relational import build
from pystream.relational import expressions as ex
from pystream.relational import operations as ops
from pystream.relational.catalog import view_not_enriched, written_columns
from pystream.relational.explain import explain
from pystream.relational.functions import FUNCTIONS
from pystream.relational.schema import Field, Schema
from pystream.table.catalog import (
    Catalog,
    CatalogDescriptor,
    CatalogManager,
    CatalogTable,
    CatalogView,
    HintedTable,
    check_catalog_type,
)
from pystream.table.environment_settings import EnvironmentSettings
from pystream.table.planning import TableQuery, query_plan
from pystream.table.result_kind import ResultKind
from pystream.table.schema import Schema as DeclaredSchema
from pystream.table.statement_set import StatementSet
from pystream.table.table import Table
from pystream.table.table_config import TableConfig
from pystream.table.table_descriptor import TableDescriptor
from pystream.table.table_result import TableResult
from pystream.table.table_schema import TableSchema
from pystream.table.udf import (
    AggregateFunction,
    TableAggregateFunction,
    UserDefinedAggregateFunctionWrapper,
    UserDefinedScalarFunctionWrapper,
    UserDefinedTableFunctionWrapper,
    udaf,
    udtaf,
)
from pystream.table.upsert_changelog import upserts_as_changes
from pystream.util.exceptions import CatalogException, ValidationException

if TYPE_CHECKING:
    from pystream.table.planning import TableQuery

__all__ = ["TableEnvironment", "StreamTableEnvironment", "StatementSet"]

_anonymous = itertools.count()


class TableEnvironment:
    """The entry point of the Table API and SQL."""

    def __init__(self, settings: EnvironmentSettings, stream_env=None):
        self._settings = settings
        self._config = TableConfig(settings.get_configuration())
        self._catalogs = CatalogManager(settings.get_built_in_catalog_name(),
                                        settings.get_built_in_database_name())
        self._stream_env = stream_env
        self._anonymous: Dict[str, Table] = {}
        self._functions: Dict[str, Any] = {}  # lower-case name -> user-defined function

    @staticmethod
    def create(environment_settings=None) -> "TableEnvironment":
        """A TableEnvironment: ``TableEnvironment.create(EnvironmentSettings.in_batch_mode())``
        (a ``Configuration`` is accepted as well)."""
        if environment_settings is None:
            environment_settings = EnvironmentSettings.in_streaming_mode()
        elif not isinstance(environment_settings, EnvironmentSettings):  # a Configuration
            environment_settings = EnvironmentSettings.new_instance() \
                .with_configuration(environment_settings).build()
        return TableEnvironment(environment_settings)

    # -- configuration -----------------------------------------------------------------------
    def get_config(self) -> TableConfig:
        return self._config

    @property
    def _streaming(self) -> bool:
        mode = self._config.get("execution.runtime-mode")
        if mode:
            return mode.lower() != "batch"
        return self._settings.is_streaming_mode()

    # -- tables from data --------------------------------------------------------------------
    def from_elements(self, elements: List, schema: Union[DataType, List[str]] = None,
                      verify_schema: bool = True) -> Table:
        """A table of Python values (tuples, lists, Rows, or single values)."""
        rows = [_as_tuple(e) for e in elements]
        if isinstance(schema, RowType):
            names = schema.field_names()
            types = schema.field_types()
        elif isinstance(schema, DataType):
            names, types = ["f0"], [schema]
            rows = [(e,) if not isinstance(e, tuple) else e for e in rows]
        else:
            if not rows:
                raise ValidationException("from_elements of no elements needs a schema.")
            width = len(rows[0])
            names = list(schema) if schema else ["_%d" % (i + 1) for i in range(width)]
            types = [_infer_column([r[i] for r in rows if i < len(r)]) for i in range(width)]
        if verify_schema:
            row_type = RowType([RowField(n, t) for n, t in zip(names, types)])
            for row in rows:
                verify_value(row_type, row, "row")
        return Table(ops.Values(schema=Schema.of(names, types), rows=tuple(rows)), self)

    def from_pandas(self, pdf, schema: Union[RowType, List[str], List[DataType]] = None,
                    splits_num: int = 1) -> Table:
        """A table of a pandas DataFrame's rows."""
        rows = [tuple(None if _is_missing(v) else _plain(v) for v in r)
                for r in pdf.itertuples(index=False, name=None)]
        if isinstance(schema, RowType):
            return self.from_elements(rows, schema)
        names = [str(c) for c in pdf.columns]
        if isinstance(schema, list) and schema and isinstance(schema[0], str):
            names = schema
            schema = None
        if isinstance(schema, list):  # data types
            row_type = DataTypes.ROW([DataTypes.FIELD(n, t) for n, t in zip(names, schema)])
            return self.from_elements(rows, row_type)
        types = [_pandas_type(pdf[c]) for c in pdf.columns]
        row_type = DataTypes.ROW([DataTypes.FIELD(n, t) for n, t in zip(names, types)])
        return self.from_elements(rows, row_type)

    def from_path(self, path: str) -> Table:
        """The table or view registered under ``path``."""
        return Table(self.scan_internal(path), self)

    def from_descriptor(self, descriptor: TableDescriptor) -> Table:
        name = "*anonymous_%s$%d*" % (descriptor.get_options().get("connector"),
                                      next(_anonymous))
        entry = _catalog_table(descriptor)
        return Table(self._connector_scan(name, entry), self)

    def sql_query(self, query: str) -> Table:
        """The Table of a SELECT query in Flink SQL."""
        from pystream.sql import statements  # the SQL front end, when SQL is used

        return Table(statements.query(self, query), self)

    def execute_sql(self, stmt: str) -> TableResult:
        """Runs one SQL statement (DDL, DML, SHOW, DESCRIBE, SET, a query...)."""
        from pystream.sql import statements

        return statements.execute(self, stmt)

    def explain_sql(self, stmt: str, *extra_details) -> str:
        from pystream.sql import statements

        return self.explain_internal(statements.explained(self, stmt))

    def create_statement_set(self) -> "StatementSet":
        return StatementSet(self)

    # -- catalog -----------------------------------------------------------------------------
    def create_temporary_view(self, view_path: str, table_or_data_stream, *fields) -> None:
        """Registers a Table (or a DataStream) under ``view_path``."""
        if not isinstance(table_or_data_stream, Table):
            table_or_data_stream = self.from_data_stream(table_or_data_stream, *fields)
        self._catalogs.create(view_path, CatalogView(table_or_data_stream._rel), temporary=True)

    def create_view(self, view_path: str, table: Table, ignore_if_exists: bool = False) -> None:
        self._catalogs.create(view_path, CatalogView(table._rel), temporary=False,
                              if_not_exists=ignore_if_exists)

    def drop_temporary_view(self, view_path: str) -> bool:
        return self._catalogs.drop(view_path, temporary=True, if_exists=True, view=True)

    def drop_view(self, view_path: str, ignore_if_not_exists: bool = True) -> bool:
        return self._catalogs.drop(view_path, temporary=False, if_exists=ignore_if_not_exists,
                                   view=True)

    def create_temporary_table(self, path: str, descriptor: TableDescriptor,
                               ignoreIfExists: bool = False) -> None:  # PyFlink's name
        self._catalogs.create(path, _catalog_table(descriptor), temporary=True,
                              if_not_exists=ignoreIfExists)

    def create_table(self, path: str, descriptor: TableDescriptor,
                     ignoreIfExists: bool = False) -> None:  # PyFlink's parameter name
        self._catalogs.create(path, _catalog_table(descriptor), temporary=False,
                              if_not_exists=ignoreIfExists)

    def drop_temporary_table(self, table_path: str) -> bool:
        return self._catalogs.drop(table_path, temporary=True, if_exists=True, view=False)

    def drop_table(self, table_path: str, ignore_if_not_exists: bool = True) -> bool:
        return self._catalogs.drop(table_path, temporary=False, if_exists=ignore_if_not_exists,
                                   view=False)

    def list_catalogs(self) -> List[str]:
        return self._catalogs.list_catalogs()

    def get_catalog(self, catalog_name: str) -> Optional[Catalog]:
        """The catalog of that name, or None."""
        if catalog_name not in self._catalogs.list_catalogs():
            return None
        return Catalog(self._catalogs, catalog_name)

    def create_catalog(self, catalog_name: str, catalog_descriptor: CatalogDescriptor) -> None:
        """A new in-memory catalog (``type`` = ``generic_in_memory``), with its database
        ``default``."""
        check_catalog_type(catalog_descriptor.configuration.get_string("type", None))
        if catalog_name in self._catalogs.list_catalogs():
            raise CatalogException("Catalog %s already exists." % catalog_name)
        self._catalogs.create_catalog(catalog_name)

    def list_databases(self) -> List[str]:
        return self._catalogs.list_databases()

    def list_tables(self) -> List[str]:
        return self._catalogs.list_tables()

    def list_views(self) -> List[str]:
        return self._catalogs.list_views()

    def list_temporary_tables(self) -> List[str]:
        return self._catalogs.list_temporary_tables()

    def list_temporary_views(self) -> List[str]:
        return self._catalogs.list_temporary_views()

    def list_user_defined_functions(self) -> List[str]:
        return sorted(self._functions)

    def list_functions(self) -> List[str]:
        return sorted(set(FUNCTIONS) | set(self._functions))

    # -- user-defined functions --------------------------------------------------------------
    def create_temporary_system_function(self, name: str, function) -> None:
        """Registers a user-defined function under ``name`` (``call('name', ...)``, SQL)."""
        self._register_function(name, function)

    def create_temporary_function(self, path: str, function) -> None:
        self._register_function(path, function)

    def create_function(self, path: str, function_class_name, ignore_if_exists: bool = False):
        if isinstance(function_class_name, str):
            function_class_name = _load_function(function_class_name)
        if ignore_if_exists and path.split(".")[-1].lower() in self._functions:
            return
        self._register_function(path, function_class_name)

    def drop_temporary_system_function(self, name: str) -> bool:
        return self._functions.pop(name.lower(), None) is not None

    def drop_function(self, path: str) -> bool:
        return self.drop_temporary_system_function(path.split(".")[-1])

    drop_temporary_function = drop_function

    def _register_function(self, path: str, function) -> None:
        if isinstance(function, AggregateFunction):  # an instance, as PyFlink wraps it
            function = udaf(function, name=type(function).__name__)
        elif isinstance(function, TableAggregateFunction):
            function = udtaf(function, name=type(function).__name__)
        if not isinstance(function, (UserDefinedScalarFunctionWrapper,
                                     UserDefinedTableFunctionWrapper,
                                     UserDefinedAggregateFunctionWrapper)):
            raise ValidationException(
                "%s is not a user-defined function: make one with udf(...), udtf(...) or "
                "udaf(...)" % (function,))
        self._functions[path.split(".")[-1].lower()] = function

    def _with_user_functions(self, node: ex.Expr) -> ex.Expr:
        """``node`` with calls of registered functions by name made calls of them, and
        ``current_database()`` the name of this environment's current database."""
        def resolve(e: ex.Expr) -> ex.Expr:
            if isinstance(e, ex.Call) and e.name in self._functions:
                return ex.UserCall(self._functions[e.name], e.args)
            if isinstance(e, ex.Call) and e.name == "current_database" and not e.args:
                return ex.Literal(self.get_current_database(), DataTypes.STRING().not_null())
            return e

        return ex.transform(node, resolve)

    def get_current_catalog(self) -> str:
        return self._catalogs.current_catalog

    def use_catalog(self, catalog_name: str) -> None:
        self._catalogs.use_catalog(catalog_name)

    def get_current_database(self) -> str:
        return self._catalogs.current_database

    def use_database(self, database_name: str) -> None:
        self._catalogs.use_database(database_name)

    # -- what the Table and SQL front ends call (not PyFlink's API: Flink's Java
    # TableEnvironmentInternal): the catalogs, the scan of a table, running a query or an
    # INSERT, explaining one ------------------------------------------------------------------
    @property
    def catalog_manager(self) -> CatalogManager:
        return self._catalogs

    def is_inline_table(self, name: str) -> bool:
        """Whether ``name`` is the generated name of a Table object used in SQL."""
        return name in self._anonymous

    def scan_internal(self, path: str, options: Optional[Dict[str, str]] = None) -> ops.Rel:
        """The table or view at ``path``; a table with ``options`` (a statement's dynamic
        table options) over its own."""
        if path in self._anonymous:
            if options is not None:
                raise view_not_enriched(path)
            return self._anonymous[path]._rel
        object_path, entry = self._catalogs.lookup(path)
        if isinstance(entry, CatalogView):
            if options is not None:
                raise view_not_enriched(object_path)
            return entry.rel
        return self._connector_scan(object_path.name, _with_options(entry, options))

    def _connector_scan(self, name: str, entry: CatalogTable) -> ops.Rel:
        from pystream.compiler.table_connectors import is_bounded

        return connector_scan(name, entry, is_bounded)

    def _anonymous_name(self, table: Table) -> str:
        for name, known in self._anonymous.items():
            if known is table:
                return name
        name = "UnnamedTable$%d" % next(_anonymous)
        self._anonymous[name] = table
        return name

    def _query(self) -> "TableQuery":
        env = self._stream_env
        explicit = env._config.get_parallelism() if env is not None else -1
        settings = (env or StreamExecutionEnvironment.get_execution_environment()).job_settings()
        return TableQuery(self._streaming, self._config, explicit if explicit > 0 else None,
                          stream_settings=settings)

    def _job(self, rel: ops.Rel):
        """The job that runs query ``rel``'s plan (the plan ``%explain`` shows)."""
        from pystream.compiler.table_job import TableJob  # Spark: imported when a job runs

        self._config.check_values()
        return TableJob(query_plan(rel, self._query()))

    def execute_query_internal(self, rel: ops.Rel) -> TableResult:
        job = self._job(rel)
        query = job.query_rows()
        return TableResult(TableSchema.of(rel.schema.without_time_attributes()),
                           ResultKind.SUCCESS_WITH_CONTENT, query.rows, job.streaming,
                           job_client=query.client, unbounded=query.unbounded,
                           local_time_zone=self._local_time_zone())

    def _local_time_zone(self) -> Optional[str]:
        zone = self._config.get("table.local-time-zone")
        return None if not zone or zone == "default" else zone

    def execute_insert_internal(self, rel: ops.Rel, target, overwrite: bool) -> TableResult:
        if isinstance(target, TableDescriptor):
            name = "*anonymous_sink$%d*" % next(_anonymous)
            entry = _catalog_table(target, rel.schema)
        else:
            target, options = (target.path, target.options) \
                if isinstance(target, HintedTable) else (target, None)
            object_path, entry = self._catalogs.lookup(target)
            name = object_path.name
            if isinstance(entry, CatalogView) and options is not None:
                raise view_not_enriched(object_path)
            entry = _with_options(entry, options)
        if not isinstance(entry, CatalogTable):
            raise ValidationException("INSERT into a view is not supported: '%s'." % target)
        columns = written_columns(entry)[0]
        if len(rel.schema) == len(columns):  # (else the job says so)
            not_null = (self._config.get("table.exec.sink.not-null-enforcer") or "ERROR")
            rel = build.into_sink(rel, columns, not_null.strip().upper())
        job = self._job(rel)
        client = job.insert(name, entry, overwrite)
        return TableResult.of_rows(["default_catalog.default_database.%s" % name],
                                   [DataTypes.BIGINT()], [(-1,)], job.streaming,
                                   job_client=client, raw=True)

    def _to_pandas(self, rel: ops.Rel):
        return self._job(rel).to_pandas()

    def explain_internal(self, rel: ops.Rel) -> str:
        """Flink's sections: the relational tree, then the Spark plan that runs it."""
        return "%s\n\n== Optimized Execution Plan ==\n%s" % (
            explain(rel), self._job(rel).spark_plan())

    # -- dependencies ------------------------------------------------------------------------
    def add_python_file(self, file_path: str) -> None:
        """Ship a Python file, package directory or .zip/.whl to the workers: the job's
        functions can import it (as ``StreamExecutionEnvironment.add_python_file``)."""
        add_python_file(self._config.get_configuration(), file_path)

    def set_python_requirements(self, requirements_file_path: str,
                                requirements_cache_dir: str | None = None) -> None:
        """Install a requirements.txt's packages for the workers (pip, on the client, once
        per content; offline from ``requirements_cache_dir`` if given)."""
        set_python_requirements(self._config.get_configuration(), requirements_file_path,
                                requirements_cache_dir)

    def add_python_archive(self, archive_path: str, target_dir: str | None = None) -> None:
        """Ship an archive, extracted in the workers' working directory under
        ``target_dir`` (default: its file name)."""
        add_python_archive(self._config.get_configuration(), archive_path, target_dir)


class StreamTableEnvironment(TableEnvironment):
    """A TableEnvironment over a StreamExecutionEnvironment: tables and DataStreams mix."""

    @staticmethod
    def create(stream_execution_environment=None,
               environment_settings: EnvironmentSettings = None) -> "StreamTableEnvironment":
        if environment_settings is None:
            batch = False
            if stream_execution_environment is not None:
                batch = _is_batch_env(stream_execution_environment)
            environment_settings = EnvironmentSettings.in_batch_mode() if batch else \
                EnvironmentSettings.in_streaming_mode()
        return StreamTableEnvironment(environment_settings, stream_execution_environment)

    def from_data_stream(self, data_stream, *fields_or_schema) -> Table:
        """A table of a DataStream's records: the fields of a ROW type become columns, any
        other type one column ``f0``. Fields (``col('a'), col('b')``) rename the columns; a
        ``Schema`` adds computed columns and a watermark."""
        return self._from_stream(data_stream, fields_or_schema, changelog=False)

    def from_changelog_stream(self, data_stream, schema=None, changelog_mode=None) -> Table:
        """A table of a changelog: a stream of Rows whose ``get_row_kind()`` says what each
        one is (+I, -U, +U, -D), as ``to_changelog_stream`` gives them. In STREAMING mode the
        table is updating (its changes are the rows'); in BATCH mode each row is a row.
        With ``ChangelogMode.upsert()`` the rows are upserts by the schema's primary key."""
        unique_key: tuple = ()
        if changelog_mode is not None and changelog_mode.is_upsert:
            row = from_type_info(data_stream.get_type())
            names = row.field_names() if isinstance(row, RowType) else ["f0"]
            unique_key = tuple(schema.primary_key if schema else ())
            data_stream = upserts_as_changes(data_stream, names, unique_key)
        return self._from_stream(data_stream, (schema,) if schema else (), changelog=True,
                                 unique_key=unique_key)

    def _from_stream(self, data_stream, fields_or_schema, changelog: bool,
                     unique_key: tuple = ()) -> Table:
        row = from_type_info(data_stream.get_type())
        if not isinstance(row, RowType):
            row = RowType([RowField("f0", row)])
        rel: ops.Rel = ops.StreamScan(schema=Schema.of(row.field_names(), row.field_types()),
                                      node=data_stream._values_node(),
                                      settings=data_stream.get_execution_environment()
                                      .job_settings(), changelog=changelog,
                                      unique_key=unique_key)
        if fields_or_schema and isinstance(fields_or_schema[0], DeclaredSchema):
            rel = _with_declared_columns(rel, fields_or_schema[0])
        elif fields_or_schema:
            rel = _stream_fields(rel, fields_or_schema)
        return Table(rel, self)

    def to_data_stream(self, table: Table, target_data_type=None):
        """The table's rows as a DataStream of Rows (an insert-only table: a table with
        updates is ``to_changelog_stream``)."""
        return self._to_stream(table, changelog=False)

    def to_changelog_stream(self, table: Table, target_schema=None, changelog_mode=None):
        """The table's changes as a DataStream of Rows whose ``get_row_kind()`` says what
        each one is (an insert-only table gives +I rows)."""
        return self._to_stream(table, changelog=True)

    def to_append_stream(self, table: Table, type_info=None):
        return self._to_stream(table, changelog=False)

    def to_retract_stream(self, table: Table, type_info=None):
        """The table's changes as ``(flag, row)`` tuples: True adds the row (+I, +U), False
        retracts it (-U, -D)."""
        adds = (RowKind.INSERT, RowKind.UPDATE_AFTER)
        changes = self._to_stream(table, changelog=True)
        row_type = type_info if type_info is not None else changes.get_type()
        names = row_type.get_field_names() if isinstance(row_type, RowTypeInfo) else None

        def flagged(row: Row) -> tuple:
            kind = row.get_row_kind()
            return kind in adds, Row._make(list(row), names, kind) if names else row

        return changes.map(flagged, Types.TUPLE([Types.BOOLEAN(), row_type]))

    def _to_stream(self, table: Table, changelog: bool):
        job = self._job(table._rel)
        _, updating = job.frame()
        if updating and not changelog:
            raise ValidationException(
                "Table sink 'default_catalog.default_database.Unregistered_DataStream_Sink' "
                "doesn't support consuming update changes: the table is updating; use "
                "to_changelog_stream.")
        schema = table._rel.schema
        row_type = Types.ROW_NAMED(list(schema.names), [t.to_type_info() for t in schema.types])
        env = self._stream_env or StreamExecutionEnvironment.get_execution_environment()
        source = TableSource(job, job.rel, bounded=not job.unbounded)
        return env._source(source, "Source: Table", row_type)



def _load_function(qualified_name: str):
    """``module.name`` of a user-defined function (``CREATE FUNCTION f AS 'm.f'``)."""
    import importlib

    module, _, name = qualified_name.rpartition(".")
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError, ValueError) as e:
        raise ValidationException("Cannot load the function '%s': %s" % (qualified_name, e)) \
            from None


def _stream_fields(rel: ops.Rel, fields) -> ops.Rel:
    """Flink's field expressions of ``from_data_stream``: when all name fields of the stream
    (``col('b'), col('a').alias('x')``) they pick and order them; otherwise they rename the
    fields by position (``col('id'), col('name')`` of a tuple's f0, f1)."""
    picked = [_picked_field(f) for f in fields]
    if all(p is not None and rel.schema.has(p[0]) for p in picked):
        return build.project(rel, [ex.Alias(ex.Column(source), (name,))
                                   for source, name in picked])
    return build.rename_all(rel, [_field_name(f) for f in fields])


def _picked_field(field):
    """(the stream's field, its name in the table) of ``col('a')`` or
    ``col('a').alias('b')``; None for other expressions."""
    node = field._node if hasattr(field, "_node") else field
    if isinstance(node, str):
        return node, node
    if isinstance(node, ex.Column):
        return node.name, node.name
    if isinstance(node, ex.Alias) and isinstance(node.expr, ex.Column):
        return node.expr.name, node.names[0]
    return None


def _field_name(field) -> str:
    node = field._node if hasattr(field, "_node") else field
    if isinstance(node, ex.Alias):
        return node.names[0]
    if isinstance(node, ex.Column):
        return node.name
    if isinstance(node, str):
        return node
    raise ValidationException("from_data_stream takes field names (col('a')), not %r" % field)


def _with_declared_columns(rel: ops.Rel, declared: DeclaredSchema) -> ops.Rel:
    """The columns a Schema declares over a stream, as Flink's ``from_data_stream`` takes
    them: when it names physical columns, exactly the declared columns in their order
    (physical ones cast to the declared type); else every stream field, then the computed
    columns. A watermark makes its column the rowtime."""
    physical = any(c.kind == "physical" for c in declared.columns)
    exprs: List[ex.Expr] = [] if physical else [ex.Column(n) for n in rel.schema.names]
    for c in declared.columns:
        if c.kind == "computed":
            exprs.append(ex.Alias(_expression(c.expression), (c.name,)))
        elif c.kind == "physical":
            stream_type = rel.schema.field(c.name).data_type
            column = ex.Column(c.name)
            exprs.append(column if stream_type == c.data_type else
                         ex.Alias(ex.Cast(column, c.data_type), (c.name,)))
        else:
            raise UnsupportedFeatureError(
                "METADATA column %s in from_data_stream (the stream's rowtime as a column: "
                "not built yet)" % c.name)
    if exprs != [ex.Column(n) for n in rel.schema.names]:
        rel = build.project(rel, exprs)
    if declared.watermark_spec:
        column = declared.watermark_spec[0]
        rel.schema.field(column)  # raises, listing the fields, when it is not there
        fields = tuple(Field(f.name, f.data_type, "rowtime") if f.name == column else f
                       for f in rel.schema)
        rel = replace(rel, schema=Schema(fields))
    return rel


def _is_batch_env(env) -> bool:
    mode = getattr(env, "_runtime_mode", None)
    return str(mode).upper().endswith("BATCH")


# -- helpers ---------------------------------------------------------------------------------

def _catalog_table(descriptor: TableDescriptor, rows: Optional[Schema] = None) -> CatalogTable:
    """The catalog entry a descriptor describes; an INSERT's target descriptor without a
    schema takes the schema of the rows written (``rows``), as Flink does."""
    schema = descriptor.get_schema()
    if schema is None and rows is not None:
        schema = DeclaredSchema.new_builder().from_fields(
            list(rows.names), [f.data_type for f in rows]).build()
    if schema is None:
        raise ValidationException("A table descriptor needs a schema.")
    return CatalogTable(schema, descriptor.get_options(),
                        tuple(descriptor.get_partition_keys()), descriptor.get_comment())


def _with_options(entry, options: Optional[Mapping[str, str]]):
    """A table with a statement's dynamic ``options`` over its own (a view as it is)."""
    if options is None or not isinstance(entry, CatalogTable):
        return entry
    return replace(entry, options={**entry.options, **options})


def connector_scan(name: str, entry: CatalogTable, is_bounded) -> ops.ConnectorScan:
    """The scan of a connector table: its physical fields, computed columns and watermark."""
    declared: DeclaredSchema = entry.schema
    physical = Schema(tuple(Field(c.name, c.data_type) for c in declared.columns
                            if c.kind in ("physical", "metadata")))
    computed = []
    fields = []
    for c in declared.columns:
        if c.kind == "computed":
            expr = _expression(c.expression)
            computed.append((c.name, expr))
            fields.append(Field(c.name, build.type_of(expr, physical)))
        else:
            fields.append(Field(c.name, c.data_type))
    watermark = None
    if declared.watermark_spec:
        column, expression = declared.watermark_spec
        watermark = (column, _expression(expression))
        fields = [Field(f.name, f.data_type, "rowtime") if f.name == column else f
                  for f in fields]
    for i, f in enumerate(fields):
        node = dict(computed).get(f.name)
        if isinstance(node, ex.Call) and node.name == "proctime":
            fields[i] = Field(f.name, DataTypes.TIMESTAMP_LTZ(3).not_null(), "proctime")
    if declared.primary_key:
        fields = [Field(f.name, f.data_type.not_null(), f.time)
                  if f.name in declared.primary_key else f for f in fields]
    return ops.ConnectorScan(
        schema=Schema(tuple(fields)).check_unique(), name=name, options=dict(entry.options),
        physical=physical, computed=tuple(computed), watermark=watermark,
        primary_key=tuple(declared.primary_key), partition_keys=entry.partition_keys,
        bounded=is_bounded(entry.options, physical),
        metadata=tuple((c.name, c.key) for c in declared.columns if c.kind == "metadata"))


def _expression(value) -> ex.Expr:
    if isinstance(value, str):
        from pystream.sql.translate import expression_from_sql

        return expression_from_sql(value)
    return value._node


def _as_tuple(element) -> tuple:
    if isinstance(element, tuple):
        return tuple(element)
    if isinstance(element, list):
        return tuple(element)
    if hasattr(element, "get_row_kind"):  # a Row
        return tuple(element)
    return (element,)


def _infer_column(values: List) -> DataType:
    known = [v for v in values if v is not None]
    if not known:
        return DataTypes.NULL()
    return infer_data_type(known[0])


def _is_missing(value) -> bool:
    """A value pandas marks missing: NaN, ``pd.NA`` (nullable integers, booleans, strings)
    and ``pd.NaT``."""
    import pandas as pd

    if isinstance(value, float):
        return value != value
    return value is pd.NA or value is pd.NaT


def _plain(value):
    """numpy scalars and pandas timestamps as plain Python values."""
    if hasattr(value, "to_pydatetime"):
        return value.to_pydatetime()
    if hasattr(value, "tolist") and getattr(value, "ndim", 0) > 0:  # an array's values
        return value.tolist()
    if hasattr(value, "item"):
        return value.item()
    return value


def _pandas_type(series) -> DataType:
    kind = series.dtype.kind
    if kind == "i":
        return {1: DataTypes.TINYINT(), 2: DataTypes.SMALLINT(), 4: DataTypes.INT()}.get(
            series.dtype.itemsize, DataTypes.BIGINT())
    if kind == "f":
        return DataTypes.FLOAT() if series.dtype.itemsize == 4 else DataTypes.DOUBLE()
    if kind == "b":
        return DataTypes.BOOLEAN()
    if kind == "M":
        return DataTypes.TIMESTAMP(3)
    if kind == "O" and series.notna().any():  # Python objects: typed as Arrow reads them
        import pyarrow as pa

        try:
            arrow = pa.array(series, from_pandas=True).type
        except (pa.ArrowInvalid, pa.ArrowTypeError):  # mixed objects
            return DataTypes.STRING()
        return _arrow_data_type(arrow)
    return DataTypes.STRING()


def _arrow_data_type(arrow) -> DataType:
    """The DataType of values Arrow read from pandas objects (STRING where none fits)."""
    import pyarrow as pa

    if pa.types.is_boolean(arrow):
        return DataTypes.BOOLEAN()
    if pa.types.is_integer(arrow):
        return DataTypes.BIGINT()
    if pa.types.is_floating(arrow):
        return DataTypes.DOUBLE()
    if pa.types.is_date(arrow):
        return DataTypes.DATE()
    if pa.types.is_timestamp(arrow):
        return DataTypes.TIMESTAMP(3)
    if pa.types.is_decimal(arrow):
        return DataTypes.DECIMAL(arrow.precision, arrow.scale)
    if pa.types.is_list(arrow):
        return DataTypes.ARRAY(_arrow_data_type(arrow.value_type))
    return DataTypes.STRING()
