"""JSON_VALUE, JSON_QUERY and JSON_EXISTS -> Spark columns, as Flink answers them.

Part of ``compiler.expressions.SPARK_FUNCTIONS`` (same signature: argument columns, their
Flink types, the result's type). The path and the behaviours come as keywords (strings):

* ``json_value(json, path, returning, on_empty, empty_default, on_error, error_default)``
* ``json_query(json, path, returning, wrapper, on_empty, on_error)``
* ``json_exists(json, path, on_error)``

``returning`` is a typed NULL (its type is the result's). A path starts with ``lax`` (a
missing member is empty) or ``strict`` (a missing member is an error; Flink's default, as
Calcite's, for a path without either). The
document is read as Spark's VARIANT where the path is a plain chain of members and indices
(``$.a.b[1]``); a path with wildcards is read with ``get_json_object``.
"""
from __future__ import annotations

import re
from typing import Callable, Dict, List, Tuple, Union

from pyspark.sql import Column
from pyspark.sql import functions as F

from pystream.common.data_types import ArrayType
from pystream.errors import UnsupportedFeatureError

_PLAIN_PATH = re.compile(r"\$(\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\]|\['[^']*'\])*")


def _path(path: Union[str, Column]) -> Tuple[str, Union[str, Column]]:
    """(mode, path without its mode); a path computed per row is strict."""
    if not isinstance(path, str):
        return "strict", path
    words = path.strip().split(None, 1)
    if len(words) == 2 and words[0].lower() in ("lax", "strict"):
        return words[0].lower(), words[1].strip()
    return "strict", path.strip()


class _Found:
    """What a path finds in a JSON document: ``missing`` (no such member, or the text is not
    JSON: Flink's empty in lax mode, error in strict mode), ``null`` (a JSON null),
    ``container`` (an object or an array), ``array``, ``text`` (the JSON text found),
    ``scalar`` (a scalar's text, a string's without quotes) and ``exists`` (a value that is
    not a JSON null)."""

    def __init__(self, json: Column, path: Union[str, Column]):
        if isinstance(path, str) and _PLAIN_PATH.fullmatch(path):
            document = F.try_parse_json(json)
            item = F.try_variant_get(document, F.lit(path), "variant")
            self.missing = json.isNotNull() & item.isNull()
            self.null = F.coalesce(F.is_variant_null(item), F.lit(False))
            kind = F.schema_of_variant(item)
            self.container = kind.startswith("OBJECT") | kind.startswith("ARRAY")
            self.array = kind.startswith("ARRAY")
            # an object's or array's numbers as Jackson writes them (1.0 stays 1.0), a
            # scalar's JSON text (a string's with its quotes)
            self.text = F.when(self.container, _get_json_object(json, path)) \
                .otherwise(F.to_json(item))
            self.scalar = F.try_variant_get(document, F.lit(path), "string")
            self.exists = ~self.null
        else:
            found = _get_json_object(json, path)
            invalid = json.isNotNull() & F.try_parse_json(json).isNull()
            if isinstance(path, str):  # wildcards: the matches, none an empty array (lax)
                self.missing = invalid
                self.text = F.when(~invalid, F.coalesce(found, F.lit("[]")))
            else:  # a path computed per row
                self.missing = invalid | (json.isNotNull() & found.isNull())
                self.text = found
            self.exists = found.isNotNull()
            self.null = F.lit(False)
            self.container = F.substring(self.text, 1, 1).isin("{", "[")
            self.array = F.substring(self.text, 1, 1) == "["
            self.scalar = self.text


def _get_json_object(json: Column, path: Union[str, Column]) -> Column:
    return F.call_function("get_json_object", json,
                           F.lit(path) if isinstance(path, str) else path)


def _fail(what: str) -> Column:
    return F.raise_error(F.lit(what))


def _json_value(args: List, types, result) -> Column:
    """JSON_VALUE: the scalar at the path, cast to the RETURNING type (a value that does not
    convert fails the job, as on Flink). Empty (lax, no such member or not JSON): the ON
    EMPTY behaviour; an error (strict and no such member or not JSON, an object or array,
    ERROR ON EMPTY): the ON ERROR one. A JSON null is NULL."""
    json, path, _, on_empty, empty_default, on_error, error_default = args
    mode, path = _path(path)
    found = _Found(json, path)
    error = {"NULL": F.lit(None), "DEFAULT": error_default,
             "ERROR": _fail("JSON_VALUE: no scalar at the path")}[on_error]
    empty = {"NULL": F.lit(None), "DEFAULT": empty_default, "ERROR": error}[on_empty]
    return F.when(json.isNull() | found.null, F.lit(None)) \
        .when(found.missing, error if mode == "strict" else empty) \
        .when(found.container, error) \
        .otherwise(found.scalar)


_QUERY_FALLBACKS: Dict[str, Callable[[], Column]] = {
    "NULL": lambda: F.lit(None), "EMPTY_ARRAY": lambda: F.lit("[]"),
    "EMPTY_OBJECT": lambda: F.lit("{}"),
    "ERROR": lambda: _fail("JSON_QUERY: no JSON object or array at the path"),
}


def _json_query(args: List, types, result) -> Column:
    """JSON_QUERY: the JSON text of the object or array at the path; a scalar only inside an
    array wrapper (WITH [CONDITIONAL | UNCONDITIONAL] ARRAY WRAPPER; CONDITIONAL leaves an
    array unwrapped, an object too is wrapped), else an error. An error (strict and no
    such member or not JSON, a scalar without a wrapper, ERROR ON EMPTY): the ON ERROR
    behaviour; lax and no such member or not JSON: the ON EMPTY one; a JSON null: NULL.
    RETURNING ARRAY<...>: the array's elements."""
    json, path, _, wrapper, on_empty, on_error = args
    mode, path = _path(path)
    found = _Found(json, path)
    error = _QUERY_FALLBACKS[on_error]()
    empty = error if on_empty == "ERROR" else _QUERY_FALLBACKS[on_empty]()
    wrapped = F.concat(F.lit("["), found.text, F.lit("]"))
    text = {"WITHOUT_ARRAY": F.when(found.container, found.text).otherwise(error),
            "CONDITIONAL_ARRAY": F.when(found.array, found.text).otherwise(wrapped),
            "UNCONDITIONAL_ARRAY": wrapped}[wrapper]
    answer = F.when(json.isNull() | found.null, F.lit(None)) \
        .when(found.missing, error if mode == "strict" else empty) \
        .otherwise(text)
    if isinstance(result, ArrayType):  # its elements' text, cast to their type by the caller
        return F.from_json(answer, "array<string>")
    return answer


def _json_exists(args: List, types, result) -> Column:
    """JSON_EXISTS: whether the path finds a value that is not a JSON null. An error (strict
    and no such member or not JSON): the ON ERROR behaviour (FALSE unless said)."""
    json, path, on_error = args
    mode, path = _path(path)
    found = _Found(json, path)
    error = {"FALSE": F.lit(False), "TRUE": F.lit(True), "UNKNOWN": F.lit(None),
             "ERROR": _fail("JSON_EXISTS: no such member")}.get(on_error)
    if error is None:
        raise UnsupportedFeatureError("JSON_EXISTS ... %s ON ERROR" % on_error)
    return F.when(json.isNull(), F.lit(None)) \
        .when(found.missing, error if mode == "strict" else F.lit(False)) \
        .otherwise(found.exists)


JSON_PATH_FUNCTIONS = {
    "json_value": _json_value, "json_query": _json_query, "json_exists": _json_exists,
}
