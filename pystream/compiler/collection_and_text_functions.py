"""Array, map, string, JSON and network functions -> Spark columns, as Flink computes them.

Part of ``compiler.expressions.SPARK_FUNCTIONS`` (same signature: argument columns, their
Flink types, the result's type). Where Spark's function of the same name differs (duplicate
map keys are an error, ANSI mode raises on a bad URL or index, a split takes a regex) the
translation does what Flink does: Flink returns NULL or lets the last key win.
"""
from __future__ import annotations

import functools
from typing import Callable, Dict, List

from pyspark.sql import Column
from pyspark.sql import functions as F

from pystream.errors import UnsupportedFeatureError
from pystream.runtime import json_values


def _call(name: str) -> Callable:
    return lambda args, types, result: F.call_function(name, *args)


def _empty_like(array: Column) -> Column:
    """An empty array of ``array``'s type."""
    return F.filter(array, lambda x: F.lit(False))


def _array_slice(args: List[Column], types, result) -> Column:
    """ARRAY_SLICE(array, start[, end]): 1-based and inclusive, 0 is the first element,
    negative offsets count from the end; out of bounds, empty."""
    array = args[0]
    size = F.size(array)

    def position(offset: Column) -> Column:
        return F.when(offset < 0, size + offset + 1).when(offset == 0, 1).otherwise(offset)

    start = F.greatest(position(args[1]), F.lit(1))
    end = F.least(position(args[2]), size) if len(args) > 2 else size
    sliced = F.when(start > end, _empty_like(array)).otherwise(
        F.slice(array, start, end - start + 1))
    offsets = [offset.isNotNull() for offset in args[1:]]  # (GREATEST skips a NULL)
    return F.when(functools.reduce(lambda a, b: a & b, offsets), sliced)  # a NULL offset: NULL


def _array_sort(args: List[Column], types, result) -> Column:
    """ARRAY_SORT(array[, ascending[, nulls_first]]): nulls first when ascending."""
    array = args[0]
    ascending = args[1] if len(args) > 1 else F.lit(True)
    nulls_first = args[2] if len(args) > 2 else ascending
    values = F.filter(array, lambda x: x.isNotNull())
    nulls = F.filter(array, lambda x: x.isNull())
    ordered = F.when(ascending, F.sort_array(values, True)).otherwise(F.sort_array(values, False))
    return F.when(nulls_first, F.concat(nulls, ordered)).otherwise(F.concat(ordered, nulls))


def _map_union(args: List[Column], types, result) -> Column:
    """MAP_UNION(map, ...): a key of a later map replaces the same key of an earlier one."""
    def without_keys_of(earlier: Column, later: Column) -> Column:
        keys = F.map_keys(later)
        return F.map_filter(earlier, lambda k, v: ~F.array_contains(keys, k))

    union = args[0]  # in Flink's order: a later map's entries first
    for later in args[1:]:
        union = F.map_concat(later, without_keys_of(union, later))
    return union


def _split(args: List[Column], types, result) -> Column:
    """SPLIT(string, delimiter): the delimiter taken literally, trailing empty strings kept;
    '' is no string at all, an empty delimiter splits into the characters."""
    string, delimiter = args
    by_delimiter = F.split(string, F.concat(F.lit("\\Q"), delimiter, F.lit("\\E")), -1)
    characters = F.split(string, "")  # an empty delimiter: each character
    return F.when(string == F.lit(""), _empty_like(by_delimiter)) \
        .when(delimiter == F.lit(""), characters).otherwise(by_delimiter)


def _str_to_map(args: List[Column], types, result) -> Column:
    """STR_TO_MAP(string[, pair delimiter ',', key-value delimiter '=']): both regexes; a
    later pair replaces an earlier one of the same key; '' is the empty map."""
    string = args[0]
    pairs = args[1] if len(args) > 1 else F.lit(",")
    separator = args[2] if len(args) > 2 else F.lit("=")
    empty = F.create_map().cast("map<string,string>")

    def add(acc: Column, pair: Column) -> Column:
        parts = F.split(pair, separator, 2)
        key, value = F.get(parts, 0), F.get(parts, 1)
        return F.map_concat(F.map_filter(acc, lambda k, v: k != key), F.create_map(key, value))

    return F.when(string == F.lit(""), empty).when(
        string.isNotNull(), F.aggregate(F.split(string, pairs, -1), empty, add))


def _elt(args: List[Column], types, result) -> Column:
    """ELT(index, expr, ...): the index-th expression, NULL when out of range."""
    index, choices = args[0], args[1:]
    return F.when((index >= 1) & (index <= len(choices)), F.element_at(F.array(*choices), index))


def _is_json(args: List[Column], types, result) -> Column:
    """IS_JSON(string[, VALUE | SCALAR | ARRAY | OBJECT]): FALSE for NULL."""
    string = args[0]
    kind = args[1] if len(args) > 1 else "VALUE"  # a JsonType's name
    valid = F.try_parse_json(string).isNotNull()
    first = F.substring(F.ltrim(string), 1, 1)
    shape = {"VALUE": F.lit(True), "OBJECT": first == "{", "ARRAY": first == "[",
             "SCALAR": ~first.isin("{", "[")}
    if kind not in shape:
        raise UnsupportedFeatureError("IS_JSON of type %s" % kind)
    return F.coalesce(valid & shape[kind], F.lit(False))


def json_text(value: Column) -> Column:
    """The JSON text of a value (NULL for NULL; a VARIANT, a JSON value inside another,
    as it is): Spark's JSON writer's, the value of a one-field object."""
    text = F.to_json(F.struct(value.alias("v")), {"ignoreNullFields": "false"})
    return F.when(value.isNotNull(), F.substring(text, F.lit(6), F.length(text) - 6))


def _json_quote(args: List[Column], types, result) -> Column:
    """JSON_QUOTE(string): a JSON string literal, Flink's escapes (also '/' as '\\/', and
    characters beyond ASCII as \\uXXXX)."""
    text = F.replace(json_text(args[0]), F.lit("/"), F.lit("\\/"))

    def escaped(char: Column) -> Column:  # beyond ASCII as \\u00c4 (in the BMP)
        point = F.ascii(char)
        return F.when((point > 127) & (point < 65536), F.concat(
            F.lit("\\u"), F.lower(F.lpad(F.hex(point), 4, "0")))).otherwise(char)

    return F.when(text.isNotNull(), F.array_join(F.transform(F.split(text, ""), escaped), ""))


def _json_unquote(args: List[Column], types, result) -> Column:
    """JSON_UNQUOTE(string): the value of a JSON string literal; anything else as it is."""
    string = args[0]
    literal = string.startswith('"') & string.endswith('"') & (F.length(string) >= 2)
    value = F.get_json_object(F.concat(F.lit("["), string, F.lit("]")), "$[0]")
    return F.when(literal, F.coalesce(value, string)).otherwise(string)


def _json_object(args: list, types, result) -> Column:
    """JSON_OBJECT(on_null, key, value, ...): members in the order given (the call sorts
    its keys, see ``relational.functions.json_object``); a NULL value written as null (NULL
    ON NULL) or left out (ABSENT ON NULL)."""
    on_null, pairs = args[0], list(zip(args[1::2], args[2::2]))
    members = [F.when(value.isNotNull(),
                      F.concat(json_text(key), F.lit(":"), json_text(value)))
               .otherwise(F.concat(json_text(key), F.lit(":null")) if on_null == "NULL"
                          else F.lit(None))
               for key, value in pairs]
    return F.concat(F.lit("{"), F.concat_ws(",", *members), F.lit("}"))


def _json_array(args: list, types, result) -> Column:
    """JSON_ARRAY(on_null, value, ...): NULL values left out (ABSENT ON NULL) or null."""
    on_null, values = args[0], args[1:]
    null = F.lit("null") if on_null == "NULL" else F.lit(None)
    elements = [F.coalesce(json_text(v), null) for v in values]
    return F.concat(F.lit("["), F.concat_ws(",", *elements), F.lit("]"))


def _inet_aton(args: List[Column], types, result) -> Column:
    """INET_ATON(string): a dotted IPv4 address as a number, in the short forms too (inet_aton's:
    the last part fills the bytes left, '127.1' is 127.0.0.1); NULL if it is not one."""
    parts = F.split(args[0], "\\.", -1)
    count = F.size(parts)
    last = F.element_at(parts, -1)
    leading = F.slice(parts, 1, count - 1)
    valid = count.between(1, 4) & F.forall(parts, lambda p: p.rlike("^[0-9]{1,10}$")) \
        & F.forall(leading, lambda p: p.cast("bigint") <= 255) \
        & (last.cast("bigint") < F.pow(F.lit(256), 5 - count))
    high = F.aggregate(leading, F.lit(0).cast("bigint"), lambda acc, p: acc * 256 + p.cast(
        "bigint"))
    return F.when(valid, high * F.pow(F.lit(256), 5 - count).cast("bigint")
                  + last.cast("bigint"))


def _inet_ntoa(args: List[Column], types, result) -> Column:
    """INET_NTOA(number): the dotted IPv4 address of a number in [0, 2^32)."""
    number = args[0].cast("bigint")
    octets = [F.shiftright(number, shift).bitwiseAND(255) for shift in (24, 16, 8, 0)]
    return F.when((number >= 0) & (number < 2 ** 32), F.concat_ws(".", *octets))


def _parse_json(parse: Callable[[Column], Column]) -> Callable:
    """PARSE_JSON / TRY_PARSE_JSON(text [, allow duplicate keys]): with TRUE, an object's
    duplicate keys keep their last value (normalised in Python: Spark's parser refuses
    them)."""
    def translate(args: List[Column], types, result) -> Column:
        text = args[0]
        if len(args) > 1:
            lenient = F.udf(lambda t: json_values.last_key_kept(t), "string")(text)
            text = F.when(args[1], lenient).otherwise(text)
        return parse(text)
    return translate


def variant_item(variant: Column, key: Column, by_index: bool) -> Column:
    """``variant[i]`` (1-based; outside the array NULL) or ``variant['key']`` (a key it does
    not have: NULL); an index of a non-array or a key of a non-object fails, as in Flink."""
    kind = F.schema_of_variant(variant)
    if by_index:
        path = F.concat(F.lit("$["), (key - 1).cast("string"), F.lit("]"))
        value = F.when(key >= 1, F.try_variant_get(variant, path, "variant"))
        wrong, message = ~kind.startswith("ARRAY"), (
            "Integer index access on variant requires an array variant, but a non-array "
            "variant was provided.")
    else:
        path = F.concat(F.lit('$["'), F.replace(key, F.lit('"'), F.lit('\\"')), F.lit('"]'))
        value = F.try_variant_get(variant, path, "variant")
        wrong, message = ~kind.startswith("OBJECT"), (
            "String key access on variant requires an object variant, but a non-object "
            "variant was provided.")
    return F.when(variant.isNotNull() & key.isNotNull(), F.when(
        wrong, F.raise_error(F.lit(message))).otherwise(value))


COLLECTION_AND_TEXT_FUNCTIONS: Dict[str, Callable] = {
    "array_append": _call("array_append"), "array_prepend": _call("array_prepend"),
    "array_concat": _call("concat"), "array_distinct": _call("array_distinct"),
    "array_remove": lambda args, types, result: F.filter(  # NULL removes the NULLs
        args[0], lambda e: ~e.eqNullSafe(args[1])), "array_reverse": _call("reverse"),
    "array_position": _call("array_position"), "array_max": _call("array_max"),
    "array_min": _call("array_min"), "array_join": _call("array_join"),
    "array_union": _call("array_union"), "array_intersect": _call("array_intersect"),
    "array_except": _call("array_except"), "array_slice": _array_slice,
    "array_sort": _array_sort,
    "map_keys": _call("map_keys"), "map_values": _call("map_values"),
    "map_entries": _call("map_entries"), "map_union": _map_union,
    "map_from_arrays": _call("map_from_arrays"),
    "split": _split, "translate": _call("translate"), "btrim": _call("btrim"),
    "regexp_count": _call("regexp_count"), "regexp_substr": _call("regexp_substr"),
    "regexp_instr": _call("regexp_instr"), "regexp_extract_all": _call("regexp_extract_all"),
    "url_encode": _call("url_encode"), "url_decode": _call("try_url_decode"),
    "parse_url": _call("try_parse_url"), "str_to_map": _str_to_map,
    "printf": _call("printf"), "elt": _elt,
    "encode": _call("encode"), "decode": _call("decode"), "unhex": _call("unhex"),
    "is_json": _is_json, "json_quote": _json_quote, "json_unquote": _json_unquote,
    "inet_aton": _inet_aton, "inet_ntoa": _inet_ntoa,
    "json_object": _json_object, "json_array": _json_array,
    "json_string": lambda args, types, result: json_text(args[0]),
    "json": lambda args, types, result: args[0],  # JSON(text): as JSON inside JSON_OBJECT
    "parse_json": _parse_json(F.parse_json), "try_parse_json": _parse_json(F.try_parse_json),
}

# functions whose JSON result goes into an enclosing one as JSON, not as a string
JSON_CONSTRUCTORS = ("json_object", "json_array")
