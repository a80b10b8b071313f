"""Built-in functions by name: what each one returns (Flink's type rules) and its kind.

One table, ``FUNCTIONS``, keyed by the function's name in ``Call`` nodes. The Table API's
expression methods and Flink SQL's function calls both resolve to these names; the compiler
has one Spark translation per name (``pystream.compiler.expressions``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence

from pystream.common import type_rules
from pystream.common.data_types import (
    ArrayType,
    BitmapType,
    DataType,
    DataTypes,
    VariantType,
)
from pystream.relational import expressions as ex
from pystream.util.exceptions import ValidationException

__all__ = ["Function", "FUNCTIONS", "lookup", "SQL_NAMES"]

TypeRule = Callable[[List[DataType]], DataType]


@dataclass(frozen=True)
class Function:
    """A built-in function: ``kind`` is 'scalar', 'aggregate' or 'window' (ROW_NUMBER, ...)."""

    name: str
    result: TypeRule
    kind: str = "scalar"
    arity: Optional[Sequence[int]] = None  # allowed argument counts (None: any)

    @property
    def is_aggregate(self) -> bool:
        return self.kind == "aggregate"


def _nullable_if_any(types: List[DataType], result: DataType) -> DataType:
    return result if any(t.is_nullable for t in types) else result.not_null()


def returns(make: Callable[[], DataType], nullable: str = "args") -> TypeRule:
    """A fixed result type; nullable when an argument is ('args'), always ('always'), never."""
    def rule(types: List[DataType]) -> DataType:
        t = make()
        if nullable == "never":
            return t.not_null()
        if nullable == "always":
            return t
        return _nullable_if_any(types, t)
    return rule


def same_as(index: int = 0, nullable: str = "args") -> TypeRule:
    def rule(types: List[DataType]) -> DataType:
        t = types[index]
        if nullable == "always":
            return t.nullable()
        return _nullable_if_any(types, t)
    return rule


def floor_or_ceil(types: List[DataType]) -> DataType:
    """FLOOR and CEIL: a DECIMAL(p, s) gives DECIMAL(1 + p - s, 0), as Flink's rounding of
    decimals types it (the digits may grow by one); other types their own."""
    t = types[0]
    scale = getattr(t, "scale", None)
    if not scale:
        return _nullable_if_any(types, t)
    rounded = DataTypes.DECIMAL(min(38, 1 + t.precision - scale), 0)
    return _nullable_if_any(types, rounded)


def arithmetic(op: str) -> TypeRule:
    return lambda types: type_rules.arithmetic_type(op, types[0], types[1])


def aggregate(name: str) -> TypeRule:
    return lambda types: type_rules.aggregate_type(name, types[0] if types else None)


def common(start: int = 0, step: int = 1, nullable_from: Sequence[int] = ()) -> TypeRule:
    """The common type of the arguments ``start``, ``start + step``, ... (IF, CASE, COALESCE)."""
    def rule(types: List[DataType]) -> DataType:
        result = type_rules.common_type(types[start::step])
        if any(types[i].is_nullable for i in nullable_from):
            result = result.nullable()
        return result
    return rule


def _coalesce(types: List[DataType]) -> DataType:
    result = type_rules.common_type(types)
    return result if all(t.is_nullable for t in types) else result.not_null()


def _element(types: List[DataType]) -> DataType:
    return types[0].element_type.nullable()


def _item(types: List[DataType]) -> DataType:
    container = types[0]
    if isinstance(container, VariantType):
        return VariantType()
    if hasattr(container, "value_type"):
        return container.value_type.nullable()
    return container.element_type.nullable()


def _typed_by_literals(types: List[DataType]) -> DataType:
    raise ValidationException("This function's type depends on its literal arguments.")


BOOLEAN = DataTypes.BOOLEAN
STRING = DataTypes.STRING
INT = DataTypes.INT
BIGINT = DataTypes.BIGINT
DOUBLE = DataTypes.DOUBLE

_SCALAR = {
    # arithmetic and comparison
    "plus": arithmetic("+"), "minus": arithmetic("-"), "times": arithmetic("*"),
    "divide": arithmetic("/"), "mod": arithmetic("%"),
    "negate": same_as(0), "unary_plus": same_as(0),
    "equals": returns(BOOLEAN), "not_equals": returns(BOOLEAN),
    "greater_than": returns(BOOLEAN), "greater_than_or_equal": returns(BOOLEAN),
    "less_than": returns(BOOLEAN), "less_than_or_equal": returns(BOOLEAN),
    "between": returns(BOOLEAN), "not_between": returns(BOOLEAN),
    "in": returns(BOOLEAN), "not_in": returns(BOOLEAN),
    "is_distinct_from": returns(BOOLEAN, "never"),
    "is_not_distinct_from": returns(BOOLEAN, "never"),
    # logic
    "and": returns(BOOLEAN), "or": returns(BOOLEAN), "not": returns(BOOLEAN),
    "is_null": returns(BOOLEAN, "never"), "is_not_null": returns(BOOLEAN, "never"),
    "is_true": returns(BOOLEAN, "never"), "is_false": returns(BOOLEAN, "never"),
    "is_not_true": returns(BOOLEAN, "never"), "is_not_false": returns(BOOLEAN, "never"),
    # conditionals
    "if": common(1, 1, nullable_from=()),
    "case": lambda types: _case_type(types),
    "coalesce": _coalesce,
    "nullif": same_as(0, "always"),
    # strings
    "concat": returns(STRING), "concat_ws": returns(STRING),
    "upper": returns(STRING), "lower": returns(STRING), "init_cap": returns(STRING),
    # (json, path, a NULL of the RETURNING type, behaviours and their defaults: see
    # compiler.json_path_functions; the path and behaviours are keywords)
    "json_value": lambda types: types[-3].nullable(),
    "json_query": lambda types: types[-1].nullable(),
    "json_exists": returns(BOOLEAN, "always"),
    "char_length": returns(INT), "substring": returns(STRING), "trim": returns(STRING),
    "ltrim": returns(STRING), "rtrim": returns(STRING), "replace": returns(STRING),
    "like": returns(BOOLEAN), "not_like": returns(BOOLEAN), "similar": returns(BOOLEAN),
    "position": returns(INT), "locate": returns(INT), "instr": returns(INT),
    "lpad": returns(STRING), "rpad": returns(STRING), "repeat": returns(STRING),
    "reverse": returns(STRING), "left": returns(STRING), "right": returns(STRING),
    "regexp_replace": returns(STRING), "regexp_extract": returns(STRING, "always"),
    "regexp": returns(BOOLEAN), "split_index": returns(STRING, "always"),
    "starts_with": returns(BOOLEAN), "ends_with": returns(BOOLEAN),
    "is_alpha": returns(BOOLEAN, "never"), "is_decimal": returns(BOOLEAN, "never"),
    "is_digit": returns(BOOLEAN, "never"),
    "greatest": lambda types: _nullable_if_any(types, type_rules.common_type(types)),
    "least": lambda types: _nullable_if_any(types, type_rules.common_type(types)),
    "ascii": returns(INT), "chr": returns(STRING), "to_base64": returns(STRING),
    "from_base64": returns(STRING), "md5": returns(STRING), "sha1": returns(STRING),
    "sha224": returns(STRING), "sha256": returns(STRING), "sha384": returns(STRING),
    "sha512": returns(STRING), "sha2": returns(STRING), "overlay": returns(STRING),
    "uuid": returns(STRING, "never"), "hex": returns(STRING), "bin": returns(STRING),
    # math
    "abs": same_as(0), "sign": same_as(0),
    "floor": floor_or_ceil, "ceil": floor_or_ceil,
    "round": same_as(0), "truncate": same_as(0),
    "power": returns(DOUBLE), "sqrt": returns(DOUBLE), "exp": returns(DOUBLE),
    "ln": returns(DOUBLE), "log10": returns(DOUBLE), "log2": returns(DOUBLE),
    "log": returns(DOUBLE), "sin": returns(DOUBLE), "cos": returns(DOUBLE),
    "tan": returns(DOUBLE), "asin": returns(DOUBLE), "acos": returns(DOUBLE),
    "atan": returns(DOUBLE), "atan2": returns(DOUBLE), "sinh": returns(DOUBLE),
    "cosh": returns(DOUBLE), "tanh": returns(DOUBLE), "cot": returns(DOUBLE),
    "degrees": returns(DOUBLE), "radians": returns(DOUBLE), "pi": returns(DOUBLE, "never"),
    "e": returns(DOUBLE, "never"), "rand": returns(DOUBLE, "never"),
    "rand_integer": returns(INT, "never"),
    # temporal
    "current_date": returns(DataTypes.DATE, "never"),
    "current_time": returns(lambda: DataTypes.TIME(0), "never"),
    "current_timestamp": returns(lambda: DataTypes.TIMESTAMP_LTZ(3), "never"),
    "local_time": returns(lambda: DataTypes.TIME(0), "never"),
    "local_timestamp": returns(lambda: DataTypes.TIMESTAMP(3), "never"),
    "now": returns(lambda: DataTypes.TIMESTAMP_LTZ(3), "never"),
    "proctime": returns(lambda: DataTypes.TIMESTAMP_LTZ(3), "never"),
    "current_row_timestamp": returns(lambda: DataTypes.TIMESTAMP_LTZ(3), "never"),
    "to_date": returns(DataTypes.DATE), "to_time": returns(lambda: DataTypes.TIME(0)),
    "to_timestamp": returns(lambda: DataTypes.TIMESTAMP(3), "always"),  # a text may not parse
    "to_timestamp_ltz": returns(lambda: DataTypes.TIMESTAMP_LTZ(3), "always"),
    "date_format": returns(STRING), "extract": returns(BIGINT),
    "year": returns(BIGINT), "quarter": returns(BIGINT), "month": returns(BIGINT),
    "week": returns(BIGINT), "dayofyear": returns(BIGINT), "dayofmonth": returns(BIGINT),
    "dayofweek": returns(BIGINT), "hour": returns(BIGINT), "minute": returns(BIGINT),
    "second": returns(BIGINT), "floor_time": same_as(0), "ceil_time": same_as(0),
    "timestampdiff": returns(INT), "timestampadd": same_as(1),
    "unix_timestamp": returns(BIGINT),
    "from_unixtime": returns(STRING), "convert_tz": returns(STRING),
    # collections and rows
    "array": lambda types: DataTypes.ARRAY(type_rules.common_type(types)).not_null(),
    "map": lambda types: DataTypes.MAP(type_rules.common_type(types[0::2]),
                                       type_rules.common_type(types[1::2])).not_null(),
    "cardinality": returns(INT), "element": _element, "item": _item,
    "array_contains": returns(BOOLEAN),
    **{name: same_as(0) for name in (
        "array_append", "array_prepend", "array_concat", "array_distinct", "array_remove",
        "array_reverse", "array_slice", "array_sort", "array_union", "array_intersect",
        "array_except", "map_union")},
    "array_position": returns(INT), "array_max": _element, "array_min": _element,
    "array_join": returns(STRING),
    "map_keys": lambda types: _nullable_if_any(types, DataTypes.ARRAY(types[0].key_type)),
    "map_values": lambda types: _nullable_if_any(types, DataTypes.ARRAY(types[0].value_type)),
    "map_entries": lambda types: _nullable_if_any(types, DataTypes.ARRAY(DataTypes.ROW([
        DataTypes.FIELD("key", types[0].key_type),
        DataTypes.FIELD("value", types[0].value_type)]))),
    "map_from_arrays": lambda types: _nullable_if_any(types, DataTypes.MAP(
        types[0].element_type, types[1].element_type)),
    # more strings
    "split": returns(lambda: DataTypes.ARRAY(DataTypes.STRING())),
    "translate": returns(STRING), "btrim": returns(STRING), "printf": returns(STRING),
    "regexp_count": returns(INT), "regexp_instr": returns(INT),
    "regexp_substr": returns(STRING, "always"),
    "regexp_extract_all": returns(lambda: DataTypes.ARRAY(DataTypes.STRING())),
    "url_encode": returns(STRING, "always"), "url_decode": returns(STRING, "always"),
    "parse_url": returns(STRING, "always"),
    "str_to_map": returns(lambda: DataTypes.MAP(DataTypes.STRING(), DataTypes.STRING())),
    "elt": lambda types: type_rules.common_type(types[1:]).nullable(),
    "encode": returns(DataTypes.BYTES), "decode": returns(STRING),
    "unhex": returns(DataTypes.BYTES, "always"),
    "is_json": returns(BOOLEAN, "never"), "json_quote": returns(STRING),
    "json_unquote": returns(STRING),
    "inet_aton": returns(BIGINT, "always"), "inet_ntoa": returns(STRING, "always"),
    "json_object": returns(STRING, "never"), "json_array": returns(STRING, "never"),
    "json_string": returns(STRING), "json": returns(STRING),
    # VARIANT: PARSE_JSON(text [, allow duplicate keys]) and TRY_PARSE_JSON (NULL for text
    # that is not JSON)
    "parse_json": returns(VariantType), "try_parse_json": returns(VariantType, "always"),
    # GROUPING(k, ...) / GROUPING_ID (which keys a grouping set leaves out, as bits),
    # GROUP_ID() (which repetition of its set a row's is): 0 in a plain GROUP BY
    "grouping": returns(BIGINT, "never"), "grouping_id": returns(BIGINT, "never"),
    "group_id": returns(BIGINT, "never"),
    # OBJECT_OF / OBJECT_UPDATE: STRUCTURED types, typed by their literal arguments
    # (resolve._structured)
    "object_of": _typed_by_literals, "object_update": _typed_by_literals,
    # bitmaps
    **{name: returns(BitmapType) for name in (
        "bitmap_build", "bitmap_and", "bitmap_or", "bitmap_xor", "bitmap_andnot",
        "bitmap_from_bytes")},
    "bitmap_cardinality": returns(BIGINT), "bitmap_to_string": returns(STRING),
    "bitmap_to_bytes": returns(DataTypes.BYTES),
    "bitmap_to_array": returns(lambda: DataTypes.ARRAY(DataTypes.INT().not_null())),
    # the type of the argument as Flink writes it (a second argument, TRUE: "at run time",
    # gives the same text)
    "typeof": returns(STRING, "always"),
    # a value written into a NOT NULL sink column (pystream's: Flink's sink enforcer; its
    # second argument the message a NULL fails the job with)
    "sink_not_null": lambda types: types[0].not_null(),
}

_AGGREGATE = ["sum", "sum0", "count", "avg", "min", "max", "stddev_pop", "stddev_samp",
              "var_pop", "var_samp", "collect", "first_value", "last_value", "listagg",
              "array_agg", "array_agg_ignore_nulls"]

# JSON_ARRAYAGG and JSON_OBJECTAGG, by what they do with a NULL value: the JSON text
JSON_AGGREGATES = ("json_arrayagg_null_on_null", "json_arrayagg_absent_on_null",
                   "json_objectagg_null_on_null", "json_objectagg_absent_on_null")


# BITMAP_<op>_AGG and BITMAP_<op>_CARDINALITY_AGG: a bitmap of INTs (build) or of bitmaps
BITMAP_AGGREGATES = ("build", "and", "or", "xor")


def _percentile_type(types: List[DataType]) -> DataType:
    """PERCENTILE(value, percentage [, frequency]): a DOUBLE, or an ARRAY<DOUBLE> for an
    array of percentages."""
    if len(types) < 2:
        raise ValidationException("PERCENTILE needs a value and a percentage.")
    if isinstance(types[1], ArrayType):
        return DataTypes.ARRAY(DataTypes.DOUBLE())
    return DataTypes.DOUBLE()


_WINDOW = {
    "row_number": returns(BIGINT, "never"), "rank": returns(BIGINT, "never"),
    "dense_rank": returns(BIGINT, "never"),
    "cume_dist": returns(DOUBLE, "never"), "percent_rank": returns(DOUBLE, "never"),
    "ntile": returns(INT, "never"),
    # LAG/LEAD(value [, offset [, default]]): the value of a row before/after, of its type
    "lag": lambda types: type_rules.common_type([types[0]] + types[2:3]).nullable(),
    "lead": lambda types: type_rules.common_type([types[0]] + types[2:3]).nullable(),
}


def _case_type(types: List[DataType]) -> DataType:
    """CASE WHEN c1 THEN v1 ... ELSE e: arguments are c1, v1, c2, v2, ..., e."""
    values = types[1::2] + [types[-1]] if len(types) % 2 else types[1::2]
    result = type_rules.common_type(values)
    return result.nullable() if len(types) % 2 == 0 else result


FUNCTIONS: Dict[str, Function] = {
    **{name: Function(name, rule) for name, rule in _SCALAR.items()},
    **{name: Function(name, aggregate(name), "aggregate") for name in _AGGREGATE},
    **{name: Function(name, returns(STRING, "never"), "aggregate") for name in JSON_AGGREGATES},
    "percentile": Function("percentile", _percentile_type, "aggregate"),
    **{"bitmap_%s_agg" % op: Function("bitmap_%s_agg" % op, returns(BitmapType, "always"),
                                      "aggregate") for op in BITMAP_AGGREGATES},
    **{"bitmap_%s_cardinality_agg" % op: Function(
        "bitmap_%s_cardinality_agg" % op, returns(BIGINT, "always"), "aggregate")
       for op in BITMAP_AGGREGATES},
    **{name: Function(name, rule, "window") for name, rule in _WINDOW.items()},
}

# Flink SQL's names for functions whose Table API name differs.
SQL_NAMES = {
    "upper": "upper", "lower": "lower", "initcap": "init_cap", "char_length": "char_length",
    "character_length": "char_length", "substr": "substring", "stddev": "stddev_samp",
    "variance": "var_samp", "var": "var_samp", "ceiling": "ceil", "power": "power",
    "pow": "power", "trunc": "truncate", "localtimestamp": "local_timestamp",
    "localtime": "local_time", "dayofmonth": "dayofmonth", "ifnull": "coalesce",
    "startswith": "starts_with", "endswith": "ends_with",
}


def lookup(name: str) -> Optional[Function]:
    """The built-in function of this name (Table API or SQL spelling, any case), or None."""
    key = name.lower()
    return FUNCTIONS.get(SQL_NAMES.get(key, key))


def json_object(on_null: str, pairs) -> ex.Call:
    """JSON_OBJECT's call: ``on_null`` 'NULL' or 'ABSENT', then keys and values, keys in
    Flink's order (sorted, when they are literals)."""
    pairs = list(pairs)
    if all(isinstance(key, ex.Literal) for key, _ in pairs):
        pairs.sort(key=lambda pair: str(pair[0].value))
    return ex.Call("json_object", (ex.Symbol(on_null),) + tuple(
        node for pair in pairs for node in pair))


def json_array(on_null: str, values) -> ex.Call:
    """JSON_ARRAY's call: ``on_null`` 'NULL' or 'ABSENT', then the values."""
    return ex.Call("json_array", (ex.Symbol(on_null),) + tuple(values))


def json_array_agg(on_null: str, value: ex.Expr) -> ex.Call:
    """JSON_ARRAYAGG's call, named as Flink names it by ``on_null`` ('NULL' or 'ABSENT')."""
    return ex.Call("json_arrayagg_%s_on_null" % on_null.lower(), (value,))


def json_object_agg(on_null: str, key: ex.Expr, value: ex.Expr) -> ex.Call:
    """JSON_OBJECTAGG's call, named as Flink names it by ``on_null`` ('NULL' or 'ABSENT')."""
    return ex.Call("json_objectagg_%s_on_null" % on_null.lower(), (key, value))
