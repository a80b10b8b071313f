"""Flink SQL statements: ``execute_sql`` runs one, ``query`` gives a SELECT's relational tree.

One function per statement kind in ``HANDLERS`` (keyed by the sqlglot node class); each returns
the ``TableResult`` PyFlink returns for that statement (``OK`` for DDL, a table for SHOW and
DESCRIBE, the rows of a query, ``-1`` per sink for an INSERT).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Dict, List, Optional, Tuple, Union

from sqlglot import exp

from pystream.common.data_types import DataTypes
from pystream.errors import UnsupportedFeatureError
from pystream.relational import build
from pystream.relational import expressions as ex
from pystream.relational import operations as ops
from pystream.sql import translate
from pystream.sql.dialect import Flink, MetadataColumnConstraint, WatermarkColumnConstraint, to_sql
from pystream.sql.parse import (
    AlterTable,
    CreateCatalog,
    CreateFunction,
    Explain,
    Reset,
    Show,
    StatementSet,
    parse_expression,
    parse_statement,
)
from pystream.sql.types import column_type
from pystream.table.catalog import (
    CatalogTable,
    CatalogView,
    HintedTable,
    check_catalog_type,
    path_text,
)
from pystream.table.result_kind import ResultKind
from pystream.table.schema import Schema as DeclaredSchema
from pystream.table.table_result import TableResult
from pystream.util.exceptions import ValidationException

__all__ = ["execute", "execute_parsed", "query", "insert_plan", "HANDLERS"]

QUERIES = (exp.Select, exp.Union, exp.Intersect, exp.Except, exp.Values, exp.Subquery)


def query(t_env, sql: str) -> ops.Rel:
    node = parse_statement(sql)
    if not isinstance(node, QUERIES):
        raise ValidationException("Only queries (SELECT, VALUES, set operations) can be given "
                                  "to sql_query; use execute_sql for: %s" % sql.strip()[:60])
    return translate.query_to_rel(t_env, node)


def execute(t_env, sql: str) -> TableResult:
    """Runs one statement given as text (``execute_sql``)."""
    return execute_parsed(t_env, parse_statement(sql))


def execute_parsed(t_env, node: exp.Expression) -> TableResult:
    """Runs one parsed statement (a script's statements come parsed, ``pystream sql -f``)."""
    for cls, handler in HANDLERS.items():
        if isinstance(node, cls):
            return handler(t_env, node)
    name = type(node).__name__
    handler = NAMED_HANDLERS.get(name)
    if handler is None:
        raise UnsupportedFeatureError("the SQL statement %s" % node.sql().split()[0].upper())
    return handler(t_env, node)


def ok() -> TableResult:
    return TableResult.of_rows(["result"], [DataTypes.STRING()], [("OK",)],
                               kind=ResultKind.SUCCESS)


def _query(t_env, node) -> TableResult:
    return t_env.execute_query_internal(translate.query_to_rel(t_env, node))


def insert_plan(t_env, sql: str) -> Tuple[ops.Rel, Union[str, HintedTable], bool]:
    node = parse_statement(sql)
    if not isinstance(node, exp.Insert):
        raise ValidationException("Only INSERT statements can be added to a statement set.")
    return _insert_parts(t_env, node)


def _insert_parts(t_env, node: exp.Insert) -> Tuple[ops.Rel, Union[str, HintedTable], bool]:
    target = node.this
    columns = None
    if isinstance(target, exp.Schema):
        columns = [c.name for c in target.expressions]
        target = target.this
    name = ".".join(p.name for p in target.parts) if isinstance(target, exp.Table) else \
        target.sql()
    rel = translate.query_to_rel(t_env, node.expression)
    if columns is not None:
        rel = _reorder_for_columns(t_env, rel, name, columns)
    options = translate.dynamic_options(t_env, target) if isinstance(target, exp.Table) \
        else None
    return rel, name if options is None else HintedTable(name, options), \
        bool(node.args.get("overwrite"))


def _reorder_for_columns(t_env, rel: ops.Rel, target: str, columns: List[str]) -> ops.Rel:
    sink = t_env.scan_internal(target)
    if len(columns) != len(rel.schema):
        raise ValidationException("INSERT column list has %d columns, the query %d." %
                                  (len(columns), len(rel.schema)))
    by_name = dict(zip(columns, rel.schema.names))
    exprs = []
    for f in sink.schema:
        if f.name in by_name:
            exprs.append(ex.Alias(ex.Column(by_name[f.name]), (f.name,)))
        else:
            exprs.append(ex.Alias(ex.Cast(ex.Literal(None, DataTypes.NULL()), f.data_type),
                                  (f.name,)))
    return build.project(rel, exprs)


def _insert(t_env, node: exp.Insert) -> TableResult:
    rel, target, overwrite = _insert_parts(t_env, node)
    return t_env.execute_insert_internal(rel, target, overwrite)


def _create(t_env, node: exp.Create) -> TableResult:
    kind = (node.args.get("kind") or "").upper()
    temporary = _has_property(node, exp.TemporaryProperty) or bool(node.args.get("temporary"))
    exists = bool(node.args.get("exists"))
    if kind == "TABLE":
        target = node.this
        name = _table_name(target.this if isinstance(target, exp.Schema) else target)
        if node.expression is not None:  # CREATE TABLE ... AS SELECT: create, then insert
            rel = translate.query_to_rel(t_env, node.expression)
            builder = DeclaredSchema.new_builder()
            for f in rel.schema.without_time_attributes():
                builder.column(f.name, f.data_type)
            entry = CatalogTable(builder.build(), _with_options(node), _partition_keys(node),
                                 None)
            t_env.catalog_manager.create(name, entry, temporary=temporary, if_not_exists=exists)
            return t_env.execute_insert_internal(rel, name, False)
        entry = CatalogTable(_declared_schema(target), _with_options(node),
                             _partition_keys(node), _table_comment(node))
        like = _like_property(node)
        if like is not None:
            entry = _copied_like(t_env, like, entry)
        t_env.catalog_manager.create(name, entry, temporary=temporary, if_not_exists=exists)
        return ok()
    if kind == "VIEW":
        target = node.this
        name = _table_name(target.this if isinstance(target, exp.Schema) else target)
        rel = translate.query_to_rel(t_env, node.expression)
        if isinstance(target, exp.Schema):
            rel = build.rename_all(rel, [c.name for c in target.expressions])
        t_env.catalog_manager.create(name, CatalogView(rel, to_sql(node.expression)),
                               temporary=temporary, if_not_exists=exists)
        return ok()
    if kind in ("DATABASE", "SCHEMA"):
        t_env.catalog_manager.create_database(_table_name(node.this), if_not_exists=exists)
        return ok()
    raise UnsupportedFeatureError("CREATE %s" % kind)


def _drop(t_env, node: exp.Drop) -> TableResult:
    kind = (node.args.get("kind") or "").upper()
    exists = bool(node.args.get("exists"))
    temporary = bool(node.args.get("temporary"))
    target = node.this or (node.args.get("tables") or [None])[0]  # sqlglot: DROP TABLE's
    if kind in ("TABLE", "VIEW"):
        t_env.catalog_manager.drop(_table_name(target), temporary=temporary, if_exists=exists,
                             view=(kind == "VIEW"))
        return ok()
    if kind in ("DATABASE", "SCHEMA"):
        t_env.catalog_manager.drop_database(_table_name(node.this), if_exists=exists,
                                      cascade=bool(node.args.get("cascade")))
        return ok()
    raise UnsupportedFeatureError("DROP %s" % kind)


def _use(t_env, node: exp.Use) -> TableResult:
    kind = (node.args.get("kind").name if node.args.get("kind") is not None else "").upper()
    name = _table_name(node.this)
    if kind == "CATALOG":
        t_env.use_catalog(name)
    else:
        t_env.use_database(name)
    return ok()


def _set(t_env, node: exp.Set) -> TableResult:
    items = node.expressions
    if not items:  # SET: list the options
        rows = sorted(t_env.get_config().to_map().items())
        return TableResult.of_rows(["key", "value"], [DataTypes.STRING()] * 2, rows)
    for item in items:
        assignment = item.this
        key = assignment.this.name if hasattr(assignment.this, "name") else str(assignment.this)
        value = assignment.expression.name
        t_env.get_config().set(key, value)
    return ok()


def _describe(t_env, node: exp.Describe) -> TableResult:
    """Flink's columns: name, type, nullability, the primary key (``PRI(a, b)``), the
    extras of a computed or metadata column, the watermark of its time attribute."""
    name = _table_name(node.this)
    rel = t_env.scan_internal(name)
    entry = None if t_env.is_inline_table(name) else t_env.catalog_manager.lookup(name)[1]
    declared = {c.name: c for c in entry.schema.columns} \
        if isinstance(entry, CatalogTable) else {}
    key = entry.schema.primary_key if isinstance(entry, CatalogTable) else ()
    watermark = entry.schema.watermark_spec if isinstance(entry, CatalogTable) else None
    rows = []
    for f in rel.schema:
        t = f.data_type
        rows.append((f.name, replace(f, data_type=t.nullable()).summary(), t.is_nullable,
                     "PRI(%s)" % ", ".join(key) if f.name in key else "",
                     _extras(declared.get(f.name)),
                     _quoted_sql(watermark[1]) if watermark and watermark[0] == f.name
                     else ""))
    types = [DataTypes.STRING(), DataTypes.STRING(), DataTypes.BOOLEAN(), DataTypes.STRING(),
             DataTypes.STRING(), DataTypes.STRING()]
    return TableResult.of_rows(["name", "type", "null", "key", "extras", "watermark"], types,
                               rows, max_column_width=None)  # (Flink cuts no cell of it)


def _extras(column) -> str:
    """DESCRIBE's extras: ``AS `a` * 2`` for a computed column, ``METADATA FROM 'k'
    VIRTUAL`` for a metadata one."""
    if column is None or column.kind == "physical":
        return ""
    if column.kind == "computed":
        return "AS " + _quoted_sql(column.expression)
    text = "METADATA" + (" FROM '%s'" % column.key if column.key else "")
    return text + (" VIRTUAL" if column.virtual else "")


def _quoted_sql(expression) -> str:
    """An expression as Flink prints it, its identifiers back-quoted."""
    if not isinstance(expression, str):
        return str(expression)
    node = parse_expression(expression)
    for column in node.find_all(exp.Column):
        for part in column.parts:
            part.set("quoted", True)
    return to_sql(node)


def _table_name(node) -> str:
    if isinstance(node, exp.Table):
        return ".".join(p.name for p in node.parts)
    if isinstance(node, exp.Identifier):
        return node.name
    return node.name if hasattr(node, "name") else str(node)


def _like_property(node: exp.Create):
    props = node.args.get("properties")
    return next((p for p in (props.expressions if props is not None else [])
                 if isinstance(p, exp.LikeProperty)), None)


LIKE_FEATURES = ("CONSTRAINTS", "GENERATED", "METADATA", "OPTIONS", "PARTITIONS", "WATERMARKS")


def _copied_like(t_env, like: exp.LikeProperty, own: CatalogTable) -> CatalogTable:
    """``CREATE TABLE t (own columns) WITH (own options) LIKE source (options)``: the source's
    columns, then the table's own; the source's options overridden by the table's own
    (Flink's default: INCLUDING ALL OVERWRITING OPTIONS)."""
    source_name = _table_name(like.this)
    _, source = t_env.catalog_manager.lookup(source_name)
    if not isinstance(source, CatalogTable):
        raise ValidationException("Source table '%s' of the LIKE clause can not be a VIEW."
                                  % source_name)
    included = dict.fromkeys(LIKE_FEATURES, True)
    for option in like.expressions:
        strategy, feature = option.name.upper(), option.args["value"].name.upper()
        features = LIKE_FEATURES if feature == "ALL" else (feature,)
        for f in features:
            included[f] = strategy != "EXCLUDING"
    kinds = {"physical"} | ({"computed"} if included["GENERATED"] else set()) | \
        ({"metadata"} if included["METADATA"] else set())
    columns = [c for c in source.schema.columns if c.kind in kinds]
    names = {c.name for c in columns}
    for column in own.schema.columns:
        if column.name in names:
            raise ValidationException(
                "A column named '%s' already exists in the base table." % column.name)
        columns.append(column)
    watermark = own.schema.watermark_spec or (
        source.schema.watermark_spec if included["WATERMARKS"] else None)
    primary_key = own.schema.primary_key or (
        source.schema.primary_key if included["CONSTRAINTS"] else ())
    options = dict(source.options) if included["OPTIONS"] else {}
    options.update(own.options)
    partitions = own.partition_keys or (
        source.partition_keys if included["PARTITIONS"] else ())
    return CatalogTable(DeclaredSchema(tuple(columns), watermark, primary_key), options,
                        partitions, own.comment)


def _has_property(node: exp.Create, cls) -> bool:
    props = node.args.get("properties")
    return props is not None and any(isinstance(p, cls) for p in props.expressions)


def _with_options(node: exp.Create) -> Dict[str, str]:
    props = node.args.get("properties")
    options = {}
    for p in (props.expressions if props is not None else []):
        if type(p) is exp.Property:  # not its subclasses (TEMPORARY, PARTITIONED BY)
            key = p.name if not isinstance(p.this, exp.Literal) else p.this.name
            options[key] = p.args["value"].name
    return options


def _table_comment(node: exp.Create) -> Optional[str]:
    props = node.args.get("properties")
    return next((p.this.name for p in (props.expressions if props is not None else [])
                 if isinstance(p, exp.SchemaCommentProperty)), None)


def _partition_keys(node: exp.Create) -> Tuple[str, ...]:
    props = node.args.get("properties")
    for p in (props.expressions if props is not None else []):
        if isinstance(p, exp.PartitionedByProperty):
            schema = p.this
            return tuple(c.name for c in getattr(schema, "expressions", []))
    return ()


def _declared_schema(target) -> DeclaredSchema:
    """The columns, computed columns, metadata columns, watermark and primary key of a
    CREATE TABLE."""
    builder = DeclaredSchema.new_builder()
    for column in target.expressions if isinstance(target, exp.Schema) else []:
        if isinstance(column, exp.ColumnDef):
            kinds = [c.args.get("kind") for c in column.constraints]
            computed = next((k for k in kinds if isinstance(k, exp.ComputedColumnConstraint)),
                            None)
            metadata = next((k for k in kinds if isinstance(k, MetadataColumnConstraint)),
                            None)
            if computed is not None:
                builder.column_by_expression(column.name, to_sql(computed.this))
            elif metadata is not None:
                key = metadata.args.get("this")
                builder.column_by_metadata(column.name, column_type(column),
                                           key.name if key is not None else None,
                                           bool(metadata.args.get("virtual")))
            else:
                builder.column(column.name, column_type(column))
            comment = next((k.this.name for k in kinds
                            if isinstance(k, exp.CommentColumnConstraint)), None)
            if comment is not None:
                builder.with_comment(comment)
        elif isinstance(column, exp.PrimaryKey):
            builder.primary_key(*[c.name for c in column.expressions])
        elif isinstance(column, WatermarkColumnConstraint):
            builder.watermark(column.this.name, to_sql(column.expression))
    return builder.build()


# -- statements of the Flink dialect -------------------------------------------------------

def _show(t_env, node: Show) -> TableResult:
    kind = node.name
    listings = {
        "TABLES": ("table name", t_env.list_tables), "VIEWS": ("view name", t_env.list_views),
        "FUNCTIONS": ("function name", t_env.list_functions),
        "USER FUNCTIONS": ("function name", t_env.list_user_defined_functions),
        "CATALOGS": ("catalog name", t_env.list_catalogs),
        "DATABASES": ("database name", t_env.list_databases),
        "CURRENT CATALOG": ("current catalog name", lambda: [t_env.get_current_catalog()]),
        "CURRENT DATABASE": ("current database name", lambda: [t_env.get_current_database()]),
        "MODULES": ("module name", lambda: ["core"]),
    }
    if kind == "COLUMNS":
        return _describe(t_env, exp.Describe(this=exp.to_table(node.args["target"])))
    if kind in ("CREATE TABLE", "CREATE VIEW"):
        return TableResult.of_rows(["result"], [DataTypes.STRING()],
                                   [(_show_create(t_env, kind, node.args["target"]),)],
                                   max_column_width=None)
    if kind not in listings:
        raise UnsupportedFeatureError("SHOW %s" % kind)
    column, names = listings[kind]
    values = names()
    like = node.args.get("like")
    if like is not None:
        matches = {n for n in values if _like(n, like)}
        values = [n for n in values if (n in matches) != bool(node.args.get("not_like"))]
    return TableResult.of_rows([column], [DataTypes.STRING()], [(n,) for n in values])


def _show_create(t_env, kind: str, name: str) -> str:
    """The DDL of a table or view, as Flink writes it (its types as Flink serializes them,
    its options sorted)."""
    catalogs = t_env.catalog_manager
    if not catalogs.exists(name):
        raise ValidationException("Could not execute SHOW %s. %s with identifier '%s' doesn't "
                                  "exist." % (kind, kind.split()[1].title(), name))
    path, entry = catalogs.lookup(name)
    temporary = "TEMPORARY " if catalogs.is_temporary(name) else ""
    if kind == "CREATE VIEW":
        if not isinstance(entry, CatalogView):
            raise ValidationException("SHOW CREATE VIEW is only supported for views, but %s is "
                                      "a table. Please use SHOW CREATE TABLE instead." % path)
        columns = ",\n".join("  `%s`" % f.name for f in entry.rel.schema)
        return "CREATE %sVIEW %s (\n%s\n)\nAS %s\n" % (temporary, path, columns,
                                                        _expanded_query(t_env, entry.query))
    if not isinstance(entry, CatalogTable):
        raise ValidationException("SHOW CREATE TABLE is only supported for tables, but %s is a "
                                  "view. Please use SHOW CREATE VIEW instead." % path)
    schema = entry.schema
    lines = [_column_ddl(c) for c in schema.columns]
    if schema.watermark_spec:
        lines.append("  WATERMARK FOR `%s` AS %s" % (schema.watermark_spec[0],
                                                     _quoted_sql(schema.watermark_spec[1])))
    if schema.primary_key:
        lines.append("  CONSTRAINT `PK_%s` PRIMARY KEY (%s) NOT ENFORCED" % (
            "_".join(schema.primary_key), ", ".join("`%s`" % k for k in schema.primary_key)))
    text = "CREATE %sTABLE %s (\n%s\n)\n" % (temporary, path, ",\n".join(lines))
    if entry.comment:
        text += "COMMENT %s\n" % _sql_string(entry.comment)
    if entry.partition_keys:
        text += "PARTITIONED BY (%s)\n" % ", ".join("`%s`" % k for k in entry.partition_keys)
    options = ",\n".join("  %s = %s" % (_sql_string(k), _sql_string(v))
                          for k, v in sorted(entry.options.items()))
    return text + "WITH (\n%s\n)\n" % options


def _expanded_query(t_env, text: Optional[str]) -> Optional[str]:
    """A view's query as Flink's SHOW CREATE VIEW prints it (Calcite's expansion): tables
    by their full paths with their aliases, every column qualified, ``*`` spelled out, one
    clause per line. A query beyond one SELECT over tables and views (with joins, WHERE,
    GROUP BY, HAVING, ORDER BY) is shown as it was written."""
    from sqlglot import exp


    try:
        tree = parse_statement(text)
    except Exception:  # noqa: BLE001 - shown as written
        return text
    from_ = tree.args.get("from_") or tree.args.get("from") if isinstance(tree, exp.Select) \
        else None
    tables = [from_.this] if from_ is not None else []
    tables += [j.this for j in tree.args.get("joins") or []]
    if not tables or not all(isinstance(t, exp.Table) for t in tables) or tree.args.get("with") \
            or any(isinstance(n, (exp.Subquery, exp.Window)) for n in tree.walk()):
        return text
    sources = []  # (alias, full path, field names)
    for table in tables:
        name = ".".join(p.name for p in table.parts)
        try:
            path, entry = t_env.catalog_manager.lookup(name)
        except Exception:  # noqa: BLE001 - an unknown table: as written
            return text
        fields = [c.name for c in entry.schema.columns] if isinstance(entry, CatalogTable) \
            else list(entry.rel.schema.names)
        sources.append((table.alias_or_name, str(path), fields))

    def qualified(node):
        if isinstance(node, exp.Column) and not node.table and isinstance(node.this,
                                                                        exp.Identifier):
            owners = [a for a, _, fields in sources
                      if node.name.lower() in (f.lower() for f in fields)]
            if len(owners) == 1:
                return exp.column(node.name, table=owners[0])
        return node

    def sql(node) -> str:
        return node.transform(qualified).sql(dialect=Flink, identify=True)

    items = []
    for item in tree.expressions:
        if isinstance(item, exp.Star):
            items += ["`%s`.`%s`" % (a, f) for a, _, fields in sources for f in fields]
        else:
            items.append(sql(item))
    lines = ["SELECT %s%s" % ("DISTINCT " if tree.args.get("distinct") else "",
                              ", ".join(items)),
             "FROM %s AS `%s`" % (sources[0][1], sources[0][0])]
    for join, (alias, path, _) in zip(tree.args.get("joins") or [], sources[1:]):
        side = " ".join(w for w in (join.side, join.kind) if w).upper()
        on = join.args.get("on")
        lines.append("%s JOIN %s AS `%s`%s" % (side or "INNER", path, alias,
                                               " ON %s" % sql(on) if on is not None else ""))
    for key, word in (("where", "WHERE"), ("group", "GROUP BY"), ("having", "HAVING"),
                      ("order", "ORDER BY")):
        clause = tree.args.get(key)
        if clause is not None:
            parts = clause.expressions if key in ("group", "order") else [clause.this]
            lines.append("%s %s" % (word, ", ".join(sql(p) for p in parts)))
    return "\n".join(lines)


def _column_ddl(column) -> str:
    """A declared column as SHOW CREATE TABLE writes it."""
    if column.kind == "computed":
        text = "  `%s` AS %s" % (column.name, _quoted_sql(column.expression))
    else:
        text = "  `%s` %s" % (column.name, _serialized_type(column.data_type))
        if column.kind == "metadata":
            text += " METADATA" + (" FROM '%s'" % column.key
                                   if column.key and column.key != column.name else "")
            text += " VIRTUAL" if column.virtual else ""
    return text + (" COMMENT %s" % _sql_string(column.comment) if column.comment else "")


def _serialized_type(data_type) -> str:
    """Flink's ``asSerializableString``: STRING and BYTES as the types they stand for."""
    import re

    text = data_type.summary_string()
    text = re.sub(r"\bSTRING\b", "VARCHAR(2147483647)", text)
    return re.sub(r"\bBYTES\b", "VARBINARY(2147483647)", text)


def _sql_string(text: str) -> str:
    return "'%s'" % text.replace("'", "''")


def _like(value: str, pattern: str) -> bool:
    import re

    regex = "".join(".*" if c == "%" else "." if c == "_" else re.escape(c) for c in pattern)
    return re.fullmatch(regex, value) is not None


def explained(t_env, sql: str) -> ops.Rel:
    """The tree ``explain_sql`` shows: a query's, or an INSERT's query's."""
    return _explained(t_env, parse_statement(sql))


def _explained(t_env, statement: exp.Expression) -> ops.Rel:
    if isinstance(statement, exp.Insert):
        return _insert_parts(t_env, statement)[0]
    if not isinstance(statement, QUERIES):
        raise ValidationException("Only queries and INSERT statements can be explained: %s"
                                  % statement.sql()[:60])
    return translate.query_to_rel(t_env, statement)


def _explain(t_env, node: Explain) -> TableResult:
    rel = _explained(t_env, node.this)
    return TableResult.of_rows(["result"], [DataTypes.STRING()], [(t_env.explain_internal(rel),)])


def _statement_set(t_env, node: StatementSet) -> TableResult:
    statements = t_env.create_statement_set()
    for insert in node.expressions:
        if not isinstance(insert, exp.Insert):
            raise ValidationException("A statement set holds INSERT statements only.")
        statements.add_insert_internal(*_insert_parts(t_env, insert))
    return statements.execute()


def _reset(t_env, node: Reset) -> TableResult:
    t_env.get_config().reset(node.name or None)
    return ok()


def _create_function(t_env, node: CreateFunction) -> TableResult:
    language = (node.args.get("language") or "PYTHON").upper()
    if language != "PYTHON":
        raise UnsupportedFeatureError("CREATE FUNCTION ... LANGUAGE %s (Python functions only)"
                                      % language)
    t_env.create_function(node.name, node.args["expression"],
                          ignore_if_exists=bool(node.args.get("exists")))
    return ok()


def _create_catalog(t_env, node: CreateCatalog) -> TableResult:
    options = _options_text(node.args.get("options") or "()")
    check_catalog_type(options.get("type"))
    if node.name in t_env.list_catalogs():
        if node.args.get("exists"):
            return ok()
        raise ValidationException("Catalog %s already exists." % node.name)
    t_env.catalog_manager.create_catalog(node.name)
    return ok()


def _options_text(text: str) -> Dict[str, str]:
    """The options of a ``('k' = 'v', ...)`` text, read by sqlglot."""
    return _with_options(parse_statement("CREATE TABLE __options (__c INT) WITH %s" % text))


def _alter_table(t_env, node: AlterTable) -> TableResult:
    """``ALTER TABLE``: the table's catalog entry replaced by an altered copy."""
    catalogs, name = t_env.catalog_manager, node.name
    if not catalogs.exists(name):
        if node.args.get("exists"):
            return ok()
        raise ValidationException("Table %s doesn't exist or is a temporary table."
                                  % path_text(catalogs.path(name)))
    _, entry = catalogs.lookup(name)
    if isinstance(entry, CatalogView):
        raise ValidationException("ALTER TABLE for a view is not allowed")
    action, rest = node.args["action"], node.args.get("rest") or ""
    if action == "RENAME TO":
        catalogs.rename(name, _table_name(parse_expression(rest)))
        return ok()
    catalogs.replace(name, ALTERATIONS[action](entry, rest))
    return ok()


def _set_options(entry: CatalogTable, rest: str) -> CatalogTable:
    return replace(entry, options={**entry.options, **_options_text(rest)})


def _reset_options(entry: CatalogTable, rest: str) -> CatalogTable:
    keys = {e.name for e in parse_expression(rest).find_all(exp.Literal)}
    if not keys:
        raise ValidationException("ALTER TABLE RESET does not support empty key")
    return replace(entry, options={k: v for k, v in entry.options.items() if k not in keys})


def _columns_of(rest: str) -> DeclaredSchema:
    """``c INT`` or ``(c INT, d AS c * 2, WATERMARK FOR ...)`` as a declared schema."""
    text = rest if rest.startswith("(") else "(%s)" % rest
    return _declared_schema(parse_statement("CREATE TABLE __columns %s" % text).this)


def _with_columns(entry: CatalogTable, columns, watermark, primary_key) -> CatalogTable:
    return replace(entry, schema=DeclaredSchema(tuple(columns), watermark, primary_key))


def _add_columns(entry: CatalogTable, rest: str) -> CatalogTable:
    schema, added = entry.schema, _columns_of(rest)
    names = {c.name for c in schema.columns}
    for column in added.columns:
        if column.name in names:
            raise ValidationException("Try to add a column `%s` which already exists in the "
                                      "table." % column.name)
    return _with_columns(entry, schema.columns + added.columns,
                         added.watermark_spec or schema.watermark_spec,
                         added.primary_key or schema.primary_key)


def _modify_columns(entry: CatalogTable, rest: str) -> CatalogTable:
    schema, changed = entry.schema, _columns_of(rest)
    by_name = {c.name: c for c in changed.columns}
    unknown = sorted(set(by_name) - {c.name for c in schema.columns})
    if unknown:
        raise ValidationException("Try to modify a column `%s` which does not exist in the "
                                  "table." % unknown[0])
    return _with_columns(entry, [by_name.get(c.name, c) for c in schema.columns],
                         changed.watermark_spec or schema.watermark_spec,
                         changed.primary_key or schema.primary_key)


def _drop_columns(entry: CatalogTable, rest: str) -> CatalogTable:
    schema, words = entry.schema, rest.upper().split()
    if words == ["PRIMARY", "KEY"]:
        return _with_columns(entry, schema.columns, schema.watermark_spec, ())
    if words == ["WATERMARK"]:
        return _with_columns(entry, schema.columns, None, schema.primary_key)
    names = [c.name for c in parse_expression(rest).find_all(exp.Column)] or [rest.strip("`")]
    existing = {c.name for c in schema.columns}
    for name in names:
        if name not in existing:
            raise ValidationException("The column `%s` does not exist in the base table."
                                      % name)
        if schema.watermark_spec and schema.watermark_spec[0] == name:
            raise ValidationException("The column `%s` is used as the watermark's time "
                                      "attribute; drop the watermark first." % name)
        if name in schema.primary_key:
            raise ValidationException("The column `%s` is used as the primary key." % name)
    return _with_columns(entry, [c for c in schema.columns if c.name not in names],
                         schema.watermark_spec, schema.primary_key)


def _rename_column(entry: CatalogTable, rest: str) -> CatalogTable:
    if " TO " not in rest.upper():
        raise ValidationException("Expected ALTER TABLE <name> RENAME <column> TO <new name>")
    index = rest.upper().index(" TO ")
    old, new = rest[:index].strip().strip("`"), rest[index + 4:].strip().strip("`")
    schema = entry.schema
    if old not in {c.name for c in schema.columns}:
        raise ValidationException("The column `%s` does not exist in the base table." % old)
    if new in {c.name for c in schema.columns}:
        raise ValidationException("The column `%s` already existed in table schema." % new)
    columns = [replace(c, name=new) if c.name == old else c for c in schema.columns]
    watermark = schema.watermark_spec
    if watermark is not None and watermark[0] == old:
        watermark = (new, watermark[1])
    return _with_columns(entry, columns, watermark,
                         tuple(new if k == old else k for k in schema.primary_key))


ALTERATIONS: Dict[str, Callable[[CatalogTable, str], CatalogTable]] = {
    "SET": _set_options, "RESET": _reset_options, "ADD": _add_columns,
    "MODIFY": _modify_columns, "DROP": _drop_columns, "RENAME": _rename_column,
}


HANDLERS: Dict[type, Callable] = {
    exp.Insert: _insert,
    exp.Create: _create,
    exp.Drop: _drop,
    exp.Use: _use,
    exp.Set: _set,
    exp.Describe: _describe,
    QUERIES: _query,
}

# Statement nodes of the Flink dialect (pystream.sql.parse), by class name.
NAMED_HANDLERS: Dict[str, Callable] = {
    "Show": _show, "Explain": _explain, "StatementSet": _statement_set, "Reset": _reset,
    "CreateFunction": _create_function, "AlterTable": _alter_table,
    "CreateCatalog": _create_catalog,
}
