"""Resolving expressions against a table's fields: names checked, types derived (Flink's rules).

``type_of(expr, schema)`` is the only place an expression's type is computed; the Table API
calls it as each operation is built (so a wrong name fails at that call) and the compiler reads
the same types to give Spark's results Flink's types.
"""
from __future__ import annotations

from typing import List, Optional, Sequence

from pystream.common.data_types import (
    BooleanType,
    DataType,
    DataTypes,
    DecimalType,
    RowField,
    RowType,
    StructuredType,
    VariantType,
)
from pystream.relational import functions
from pystream.relational.expressions import (
    Alias,
    Call,
    Cast,
    Column,
    ColumnRange,
    Expr,
    Literal,
    OverCall,
    Star,
    Symbol,
    UserCall,
    WindowRef,
    walk,
)
from pystream.relational.schema import Field, Schema
from pystream.util.exceptions import ValidationException

__all__ = ["type_of", "field_of", "expand", "output_name", "is_aggregate", "aggregate_calls",
           "has_over", "check_boolean"]

WINDOW_PROPERTIES = ("window_start", "window_end", "window_rowtime", "window_proctime")


def type_of(expr: Expr, schema: Schema) -> DataType:
    """The Flink type of ``expr`` over ``schema``'s fields; ValidationException if invalid."""
    return field_of(expr, schema, 0).data_type


def field_of(expr: Expr, schema: Schema, index: int, sql: bool = False) -> Field:
    """The output field ``expr`` gives at position ``index`` of a projection."""
    name = output_name(expr, index, sql)
    if isinstance(expr, Alias):
        inner = field_of(expr.expr, schema, index, sql)
        return Field(name, inner.data_type, inner.time)
    if isinstance(expr, Column):
        f = schema.field(expr.name)
        return Field(name, f.data_type, f.time)
    if isinstance(expr, Call) and expr.name in WINDOW_PROPERTIES:
        time = "rowtime" if expr.name == "window_rowtime" else None
        if expr.name == "window_proctime":
            return Field(name, DataTypes.TIMESTAMP_LTZ(3).not_null(), "proctime")
        return Field(name, _window_time_type(expr, schema), time)
    return Field(name, _derive(expr, schema))


def _rounded_decimal(expr: Call, decimal: DecimalType) -> DataType:
    """ROUND(DECIMAL(p, s), r) and TRUNCATE as Flink types them
    (``LogicalTypeMerging.findRoundDecimalType``): to ``r`` decimal places; rounding to fewer
    digits may carry one more into the integral part."""
    digits = _integer_constant(expr.args[1]) if len(expr.args) > 1 else 0
    if digits is None:
        return decimal
    p, s = decimal.precision, decimal.scale
    if digits >= s:
        result = DataTypes.DECIMAL(p, s)
    elif digits < 0:
        result = DataTypes.DECIMAL(min(38, 1 + p - s), 0)
    else:
        result = DataTypes.DECIMAL(1 + p - s + digits, digits)
    return result if decimal.is_nullable else result.not_null()


def _integer_constant(expr: Expr) -> Optional[int]:
    """The value of an integer literal (``-1`` too), else None."""
    if isinstance(expr, Call) and expr.name == "negate":
        value = _integer_constant(expr.args[0])
        return None if value is None else -value
    return int(expr.value) if isinstance(expr, Literal) and isinstance(expr.value, int) \
        else None


def _window_time_type(expr: Call, schema: Schema) -> DataType:
    rowtime = schema.rowtime()
    base = rowtime.data_type if rowtime is not None else DataTypes.TIMESTAMP(3)
    if expr.name == "window_rowtime":
        return base.not_null()
    # window_start/end are TIMESTAMP(3) even over TIMESTAMP_LTZ rowtimes, as in Flink
    return DataTypes.TIMESTAMP(3).not_null()


def _derive(expr: Expr, schema: Schema) -> DataType:
    if isinstance(expr, Literal):
        return expr.data_type
    if isinstance(expr, Cast):
        source = type_of(expr.expr, schema)
        if isinstance(source, VariantType) and not isinstance(expr.to, VariantType):
            raise ValidationException("Cast function cannot convert value of type VARIANT to "
                                      "type %s" % expr.to.summary_string())
        return expr.to.nullable() if expr.safe or source.is_nullable else expr.to.not_null()
    if isinstance(expr, OverCall):
        return type_of(expr.agg, schema)
    if isinstance(expr, UserCall):
        for a in expr.args:
            type_of(a, schema)  # unknown columns fail here, listing the fields
        return expr.function.result_type
    if isinstance(expr, (Star, ColumnRange)):
        raise ValidationException("'*' and column ranges are allowed only as select fields.")
    if isinstance(expr, (Symbol, WindowRef)):
        raise ValidationException("%r is not a value." % (expr,))
    if isinstance(expr, Call):
        if expr.name == "get":
            return _field_access(expr, schema)
        if expr.name in ("object_of", "object_update"):
            return _structured(expr, schema)
        if expr.name == "row":  # fields f0, f1, ... unless named by an alias
            return RowType([RowField(a.names[0] if isinstance(a, Alias) else "f%d" % i,
                                     type_of(a, schema)) for i, a in enumerate(expr.args)],
                           False)
        function = functions.lookup(expr.name)
        if function is None:
            raise ValidationException("No match found for function signature %s()." % expr.name)
        args = [type_of(a, schema) for a in expr.args if not isinstance(a, Symbol)]
        if expr.name in ("round", "truncate") and isinstance(args[0], DecimalType):
            return _rounded_decimal(expr, args[0])
        return function.result(args)
    raise ValidationException("Unsupported expression: %r" % (expr,))


def _structured(expr: Call, schema: Schema) -> StructuredType:
    """OBJECT_OF('class', 'field', value, ...): a STRUCTURED type of the values' types;
    OBJECT_UPDATE(object, 'field', value, ...): the object's type, those fields retyped."""
    names = [a.value if isinstance(a, Literal) and isinstance(a.value, str) else None
             for a in expr.args[1::2]]
    if expr.name == "object_of":
        head = expr.args[0]
        if not (isinstance(head, Literal) and isinstance(head.value, str)) or None in names:
            raise ValidationException("OBJECT_OF takes a class name and field names as "
                                      "string literals.")
        return StructuredType(head.value, [RowField(n, type_of(v, schema)) for n, v in
                                           zip(names, expr.args[2::2])])
    source = type_of(expr.args[0], schema)
    updates = dict(zip(names, expr.args[2::2]))
    if not isinstance(source, StructuredType) or None in updates:
        raise ValidationException("OBJECT_UPDATE takes a structured object and field names "
                                  "as string literals.")
    unknown = [n for n in updates if n not in source.names]
    if unknown:
        raise ValidationException("The structured type %s has no field '%s'." % (
            source.class_name, unknown[0]))
    return StructuredType(source.class_name, [
        RowField(f.name, type_of(updates[f.name], schema) if f.name in updates
                 else f.data_type) for f in source.fields])


def _field_access(expr: Call, schema: Schema) -> DataType:
    row = type_of(expr.args[0], schema)
    key = expr.args[1].value
    if not isinstance(row, RowType):
        raise ValidationException("get(%r) needs a ROW, not %s." % (key, row.summary_string()))
    fields = row.fields
    if isinstance(key, int):
        if not 0 <= key < len(fields):
            raise ValidationException("Field index %d out of range for %s." %
                                      (key, row.summary_string()))
        field = fields[key]
    else:
        field = next((f for f in fields if f.name == key), None)
        if field is None:
            raise ValidationException("Field '%s' not found in %s. Fields: [%s]." % (
                key, row.summary_string(), ", ".join(f.name for f in fields)))
    return field.data_type.nullable() if row.is_nullable else field.data_type


def output_name(expr: Expr, index: int, sql: bool = False) -> str:
    """The name Flink gives a projected expression: its alias, its column, else ``_c<i>``
    (Table API) or ``EXPR$<i>`` (SQL)."""
    if isinstance(expr, Alias):
        return expr.names[0]
    if isinstance(expr, Column):
        return expr.name
    if isinstance(expr, Cast) and isinstance(expr.expr, Column) and not sql:
        return "%s-%s" % (expr.expr.name, expr.to.sql_text())  # Flink's name: a-STRING
    if isinstance(expr, Call) and expr.name == "get" and isinstance(expr.args[0], Column):
        key = expr.args[1].value
        return "%s$%s" % (expr.args[0].name, key if isinstance(key, str) else "_" + str(key))
    return ("EXPR$%d" if sql else "_c%d") % index


def expand(exprs: Sequence[Expr], schema: Schema) -> List[Expr]:
    """Select fields with ``*``, column ranges and ``flatten()`` replaced by plain columns."""
    result: List[Expr] = []
    for expr in exprs:
        if isinstance(expr, Star):
            result.extend(Column(n) for n in schema.names)
        elif isinstance(expr, ColumnRange):
            result.extend(Column(n) for n in _range(expr, schema))
        elif isinstance(expr, Call) and expr.name == "flatten":
            row = type_of(expr.args[0], schema)
            if not isinstance(row, RowType):
                result.append(expr.args[0])
                continue
            for f in row.fields:
                access = Call("get", (expr.args[0], Literal(f.name, DataTypes.STRING())))
                base = output_name(expr.args[0], 0)
                result.append(Alias(access, ("%s$%s" % (base, f.name),)))
        else:
            result.append(expr)
    return result


def _range(expr: ColumnRange, schema: Schema) -> List[str]:
    names = list(schema.names)

    def position(bound) -> int:
        if isinstance(bound, int):
            return bound - 1
        if isinstance(bound, Column):
            bound = bound.name
        if bound not in names:
            schema.field(bound)  # raises with the list of fields
        return names.index(bound)

    return names[position(expr.start):position(expr.end) + 1]


def is_aggregate(expr: Expr) -> bool:
    """Whether ``expr`` contains an aggregate call that is not inside an OVER window."""
    return bool(aggregate_calls(expr))


def aggregate_calls(expr: Expr) -> List[Call]:
    """The aggregate calls in ``expr`` (not those of OVER windows), outermost first."""
    found: List[Call] = []

    def visit(node: Expr):
        if isinstance(node, OverCall):
            return
        if isinstance(node, UserCall) and getattr(node.function, "is_aggregate_function",
                                                  False):
            found.append(node)
            return
        if isinstance(node, Call):
            function = functions.lookup(node.name)
            if function is not None and function.is_aggregate:
                found.append(node)
                return
        for child in node.children():
            visit(child)

    visit(expr)
    return found


def has_over(expr: Expr) -> bool:
    return any(isinstance(node, OverCall) for node in walk(expr))


def check_boolean(expr: Expr, schema: Schema, where: str) -> None:
    t = type_of(expr, schema)
    if not isinstance(t, BooleanType):
        raise ValidationException("%s predicate must be of type BOOLEAN, but is %s." %
                                  (where, t.summary_string()))


def rename(schema: Schema, names: Sequence[str], origin: Optional[str] = None) -> Schema:
    if len(names) > len(schema):
        raise ValidationException("%s: %d names for %d fields." %
                                  (origin or "alias", len(names), len(schema)))
    fields = [Field(n, f.data_type, f.time) for n, f in zip(names, schema.fields)]
    return Schema(tuple(fields) + schema.fields[len(names):]).check_unique()
