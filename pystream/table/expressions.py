"""Functions that make expressions, as in PyFlink (``pyflink.table.expressions``)."""
from __future__ import annotations

from typing import Any, Union

from pystream.common import type_rules
from pystream.common.data_types import DataType, DataTypes
from pystream.relational import expressions as ex
from pystream.relational import functions
from pystream.table.expression import (
    Expression,
    JsonOnNull,
    JsonType,
    TimeIntervalUnit,
    TimePointUnit,
    _call,
    _data_type,
    to_node,
)

__all__ = [
    "col", "lit", "range_", "and_", "or_", "not_", "current_date", "current_time",
    "current_timestamp", "current_watermark", "local_time", "local_timestamp", "to_date",
    "to_timestamp", "to_timestamp_ltz", "date_format", "timestamp_diff", "from_unixtime",
    "unix_timestamp", "convert_tz", "temporal_overlaps", "lag", "lead", "array", "row", "map_",
    "map_from_arrays", "json_string", "json_object", "object_of", "current_database",
    "json_array", "json", "json_array_agg", "json_object_agg", "row_interval", "pi", "e",
    "rand", "rand_integer",
    "atan2", "negative", "concat", "concat_ws", "uuid", "null_of", "log", "source_watermark",
    "if_then_else", "coalesce", "with_columns", "without_columns", "with_all_columns", "call",
    "call_sql", "UNBOUNDED_ROW", "UNBOUNDED_RANGE", "CURRENT_ROW", "CURRENT_RANGE",
    "TimeIntervalUnit", "TimePointUnit", "JsonType", "JsonOnNull",
]


def col(name: str) -> Expression:
    """A field of the table, by name (``col('*')``: all fields)."""
    return Expression(ex.Star() if name == "*" else ex.Column(name))


def lit(v: Any, data_type: DataType = None) -> Expression:
    """A literal value; its type is derived from the value unless ``data_type`` is given."""
    if data_type is None:
        return Expression(ex.Literal(v, type_rules.literal_type(v)))
    data_type = _data_type(data_type)
    return Expression(ex.Literal(v, data_type if v is None else data_type.not_null()))


def range_(start: Union[str, int], end: Union[str, int]) -> Expression:
    """The fields from ``start`` to ``end`` (names, or 1-based positions), for with_columns."""
    return Expression(ex.ColumnRange(start, end))


def with_columns(head, *tails) -> Expression:
    """The fields named or ranged by the arguments (``with_columns(range_(1, 3), col('e'))``)."""
    return Expression(ex.Call("with_columns", tuple(to_node(a) for a in (head,) + tails)))


def without_columns(head, *tails) -> Expression:
    """All fields except those named or ranged by the arguments."""
    return Expression(ex.Call("without_columns", tuple(to_node(a) for a in (head,) + tails)))


def with_all_columns() -> Expression:
    return col("*")


def and_(predicate0, predicate1, *predicates) -> Expression:
    result = _call("and", predicate0, predicate1)
    for p in predicates:
        result = _call("and", result, p)
    return result


def or_(predicate0, predicate1, *predicates) -> Expression:
    result = _call("or", predicate0, predicate1)
    for p in predicates:
        result = _call("or", result, p)
    return result


def not_(expression) -> Expression:
    return _call("not", expression)


def current_date() -> Expression:
    return _call("current_date")


def current_time() -> Expression:
    return _call("current_time")


def current_timestamp() -> Expression:
    return _call("current_timestamp")


def current_watermark(rowtimeAttribute) -> Expression:  # PyFlink's parameter name
    return _call("current_watermark", rowtimeAttribute)


def local_time() -> Expression:
    return _call("local_time")


def local_timestamp() -> Expression:
    return _call("local_timestamp")


def to_date(date_str, format=None) -> Expression:
    return _call("to_date", date_str) if format is None else _call("to_date", date_str, format)


def to_timestamp(timestamp_str, format=None) -> Expression:
    if format is None:
        return _call("to_timestamp", timestamp_str)
    return _call("to_timestamp", timestamp_str, format)


def to_timestamp_ltz(*args) -> Expression:
    """A TIMESTAMP_LTZ of an epoch time (``(numeric[, precision])``: milliseconds, or
    seconds with precision 0) or of a string (``(string[, format[, time zone]])``, by
    default ``yyyy-MM-dd HH:mm:ss`` in the session's time zone)."""
    return _call("to_timestamp_ltz", *args)


def date_format(timestamp, format) -> Expression:
    return _call("date_format", timestamp, format)


def timestamp_diff(time_point_unit: TimePointUnit, time_point1, time_point2) -> Expression:
    return _call("timestampdiff", time_point_unit, time_point1, time_point2)


def from_unixtime(unixtime, format=None) -> Expression:
    return _call("from_unixtime", unixtime) if format is None else \
        _call("from_unixtime", unixtime, format)


def unix_timestamp(date_str=None, format=None) -> Expression:
    args = [a for a in (date_str, format) if a is not None]
    return _call("unix_timestamp", *args)


def convert_tz(date_str, tz_from, tz_to) -> Expression:
    """The datetime text ``date_str`` ('yyyy-MM-dd HH:mm:ss') of zone ``tz_from`` as the
    text of the same instant in zone ``tz_to``."""
    return _call("convert_tz", date_str, tz_from, tz_to)


def temporal_overlaps(left_time_point, left_temporal, right_time_point,
                      right_temporal) -> Expression:
    """Whether the time ranges [left_time_point, left_time_point + left_temporal] and
    [right_time_point, right_time_point + right_temporal] overlap (each temporal an
    interval: ``lit(1).hours``)."""
    left = (to_node(left_time_point), ex.Call("plus", (to_node(left_time_point),
                                                       to_node(left_temporal))))
    right = (to_node(right_time_point), ex.Call("plus", (to_node(right_time_point),
                                                         to_node(right_temporal))))

    def reaches(one, other) -> ex.Expr:
        return ex.Call("greater_than_or_equal", (ex.Call("greatest", one),
                                                 ex.Call("least", other)))

    return Expression(ex.Call("and", (reaches(left, right), reaches(right, left))))


def lag(expr, offset=1, default=None) -> Expression:
    """Over a window: the value of ``expr`` ``offset`` rows before (``default``, else NULL,
    where there is none)."""
    return _call("lag", expr, offset) if default is None else \
        _call("lag", expr, offset, default)


def lead(expr, offset=1, default=None) -> Expression:
    """Over a window: the value of ``expr`` ``offset`` rows after (``default``, else NULL,
    where there is none); BATCH mode only, as in Flink."""
    return _call("lead", expr, offset) if default is None else \
        _call("lead", expr, offset, default)


def array(head, *tail) -> Expression:
    return _call("array", head, *tail)


def row(head, *tail) -> Expression:
    return _call("row", head, *tail)


def current_database() -> Expression:
    """The name of the current database (of the environment the expression is used in)."""
    return Expression(ex.Call("current_database", ()))


def object_of(class_name: str, *args) -> Expression:
    """A structured object of the class ``class_name`` from alternating field names (string
    literals) and values: ``object_of("com.example.User", "name", "Alice", "age", 30)``."""
    return _call("object_of", class_name, *args)


def map_(key, value, *tail) -> Expression:
    return _call("map", key, value, *tail)


def json_string(value) -> Expression:
    """The JSON text of ``value`` (NULL for NULL)."""
    return _call("json_string", value)


def json_object(on_null: JsonOnNull = JsonOnNull.NULL, *args) -> Expression:
    """A JSON object of the key-value pairs ``args`` (keys sorted; a NULL value written
    as null, or left out with ``JsonOnNull.ABSENT``)."""
    nodes = [to_node(a) for a in args]
    return Expression(functions.json_object(on_null.name, zip(nodes[0::2], nodes[1::2])))


def json_array(on_null: JsonOnNull = JsonOnNull.ABSENT, *args) -> Expression:
    """A JSON array of ``args`` (NULLs left out, or written as null with
    ``JsonOnNull.NULL``)."""
    return Expression(functions.json_array(on_null.name, [to_node(a) for a in args]))


def json(value) -> Expression:
    """The JSON text ``value`` as the JSON value it is inside ``json_object`` or
    ``json_array`` (not as a string; a text that is not JSON: null)."""
    return _call("json", value)


def json_array_agg(on_null: JsonOnNull, item_expr) -> Expression:
    """A JSON array of the group's values of ``item_expr`` (NULLs left out with
    ``JsonOnNull.ABSENT``, written as null with ``JsonOnNull.NULL``)."""
    return Expression(functions.json_array_agg(on_null.name, to_node(item_expr)))


def json_object_agg(on_null: JsonOnNull, key_expr, value_expr) -> Expression:
    """A JSON object of the group's keys and values (keys sorted; a key twice fails; a NULL
    value written as null with ``JsonOnNull.NULL``, left out with ``JsonOnNull.ABSENT``)."""
    return Expression(functions.json_object_agg(on_null.name, to_node(key_expr),
                                                to_node(value_expr)))


def map_from_arrays(key, value) -> Expression:
    """A map of the keys in array ``key`` to the values at the same places of ``value``."""
    return _call("map_from_arrays", key, value)


def row_interval(rows: int) -> Expression:
    """A frame of ``rows`` rows for over windows (``preceding(row_interval(2))``)."""
    return Expression(ex.Literal(rows, DataTypes.BIGINT().not_null()))


def pi() -> Expression:
    return _call("pi")


def e() -> Expression:
    return _call("e")


def rand(seed=None) -> Expression:
    return _call("rand") if seed is None else _call("rand", seed)


def rand_integer(bound, seed=None) -> Expression:
    return _call("rand_integer", bound) if seed is None else _call("rand_integer", seed, bound)


def atan2(y, x) -> Expression:
    return _call("atan2", y, x)


def negative(v) -> Expression:
    return _call("negate", v)


def concat(first, *others) -> Expression:
    return _call("concat", first, *others)


def concat_ws(separator, first, *others) -> Expression:
    return _call("concat_ws", separator, first, *others)


def uuid() -> Expression:
    return _call("uuid")


def null_of(data_type: DataType) -> Expression:
    """A NULL of the given type."""
    return Expression(ex.Literal(None, _data_type(data_type).nullable()))


def log(v, base=None) -> Expression:
    return _call("ln", v) if base is None else _call("log", base, v)


def source_watermark() -> Expression:
    """The watermark the source declares (``Schema.watermark('ts', source_watermark())``)."""
    return _call("source_watermark")


def if_then_else(condition, if_true, if_false) -> Expression:
    return _call("if", condition, if_true, if_false)


def coalesce(*args) -> Expression:
    return _call("coalesce", *args)


def call(f: Union[str, Any], *args) -> Expression:
    """A call of a function by name (built-in or registered) or of a user-defined function."""
    if isinstance(f, str):
        return Expression(ex.Call(f.lower(), tuple(to_node(a) for a in args)))
    return Expression(ex.UserCall(f, tuple(to_node(a) for a in args)))


def call_sql(sql_expression: str) -> Expression:
    """An expression written in Flink SQL (``call_sql('a + 1')``)."""
    from pystream.sql.translate import expression_from_sql  # the SQL parser, when needed

    return Expression(expression_from_sql(sql_expression))


UNBOUNDED_ROW = Expression(ex.Symbol("UNBOUNDED_ROW"))
UNBOUNDED_RANGE = Expression(ex.Symbol("UNBOUNDED_RANGE"))
CURRENT_ROW = Expression(ex.Symbol("CURRENT_ROW"))
CURRENT_RANGE = Expression(ex.Symbol("CURRENT_RANGE"))
