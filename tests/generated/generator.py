"""A seeded generator of Flink SQL for differential testing against PyFlink (in the spirit of
SQLancer and sqlsmith): typed random expressions over a fixed table holding every common type,
NULLs and edge values, asked many at a time (one query per batch of expressions, so that one
PyFlink process and one Spark job answer fifty of them), and random relational queries
(filters, grouping with aggregates, DISTINCT, set operations, joins) ordered so that their rows
are deterministic.

The same seed gives the same corpus: ``corpus(seed, expressions, queries)`` is what
``tests/oracle/record_generated.py`` records on PyFlink 2.3 and what
``tests/generated/test_generated.py`` checks on pystream.
"""
from __future__ import annotations

import datetime
import math
import random
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable, Dict, List, Tuple

EXPECTED_FILE = "tests/generated/expected.jsonl"  # PyFlink's answers (record_generated.py)

# the table every query reads: (name, SQL type) and rows of SQL literals, NULLs and edges
COLUMNS: List[Tuple[str, str]] = [
    ("i", "INT"), ("b", "BIGINT"), ("f", "DOUBLE"), ("d", "DECIMAL(10, 2)"), ("s", "STRING"),
    ("t", "BOOLEAN"), ("k", "STRING")]
ROWS = [
    ("1", "10", "1.5", "1.25", "'apple'", "TRUE", "'x'"),
    ("-2", "-3000000000", "-0.25", "0.00", "'Banana split'", "FALSE", "'y'"),
    ("0", "0", "0.0", "-7.50", "''", "NULL", "'x'"),
    ("NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL"),
    ("2147483647", "9223372036854775807", "1e300", "99999999.99", "'  pad  '", "TRUE", "'z'"),
    ("7", "7", "3.0", "3.33", "'x'", "FALSE", "'y'"),
    ("-2147483648", "-1", "-1e-300", "-0.01", "'ÄÖü ß'", "TRUE", "'x'"),
]


def table_sql(name: str = "g") -> str:
    """The view every generated query reads: ``CREATE TEMPORARY VIEW g AS VALUES ...``."""
    rows = ", ".join("(%s)" % ", ".join("CAST(%s AS %s)" % (v, t)
                                        for v, (_, t) in zip(row, COLUMNS)) for row in ROWS)
    return "CREATE TEMPORARY VIEW %s AS SELECT * FROM (VALUES %s) AS v(%s)" % (
        name, rows, ", ".join(c for c, _ in COLUMNS))


NUMERIC = ("INT", "BIGINT", "DOUBLE", "DECIMAL")


class Expressions:
    """Random typed expressions: ``expr(kind, depth)`` for kind in INT, BIGINT, DOUBLE,
    DECIMAL, STRING, BOOLEAN."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.rules: Dict[str, List[Callable[[int], str]]] = {
            "INT": [lambda d: "i", lambda d: self.int_literal(),
                    lambda d: "(%s %s %s)" % (self.expr("INT", d), self.pick("+-*"),
                                              self.expr("INT", d)),
                    lambda d: "(%s / %s)" % (self.expr("INT", d), self.nonzero("INT", d)),
                    lambda d: "MOD(%s, %s)" % (self.expr("INT", d), self.nonzero("INT", d)),
                    lambda d: "ABS(%s)" % self.expr("INT", d),
                    lambda d: "CHAR_LENGTH(%s)" % self.expr("STRING", d),
                    lambda d: "POSITION(%s IN %s)" % (self.string_literal(),
                                                      self.expr("STRING", d)),
                    lambda d: "CAST(%s AS INT)" % self.expr(self.pick(NUMERIC), d),
                    lambda d: "COALESCE(%s, %s)" % (self.expr("INT", d), self.int_literal()),
                    lambda d: self.case("INT", d),
                    lambda d: "SIGN(%s)" % self.expr("INT", d)],
            "BIGINT": [lambda d: "b", lambda d: "CAST(%s AS BIGINT)" % self.int_literal(),
                       lambda d: "(%s %s %s)" % (self.expr("BIGINT", d), self.pick("+-*"),
                                                 self.expr(self.pick(("INT", "BIGINT")), d)),
                       lambda d: "ABS(%s)" % self.expr("BIGINT", d),
                       lambda d: "CAST(%s AS BIGINT)" % self.expr(self.pick(NUMERIC), d),
                       lambda d: "(%s / %s)" % (self.expr("BIGINT", d), self.nonzero("INT", d)),
                       lambda d: self.case("BIGINT", d)],
            "DOUBLE": [lambda d: "f", lambda d: self.double_literal(),
                       lambda d: "(%s %s %s)" % (self.expr("DOUBLE", d), self.pick("+-*"),
                                                 self.expr(self.pick(NUMERIC), d)),
                       lambda d: "(%s / %s)" % (self.expr("DOUBLE", d), self.nonzero("DOUBLE", d)),
                       lambda d: "ABS(%s)" % self.expr("DOUBLE", d),
                       lambda d: "SQRT(ABS(%s))" % self.expr("DOUBLE", d),
                       lambda d: "POWER(%s, 2)" % self.expr("DOUBLE", d),
                       lambda d: "ROUND(%s, %d)" % (self.expr("DOUBLE", d),
                                                    self.rng.randint(0, 3)),
                       lambda d: "FLOOR(%s)" % self.expr("DOUBLE", d),
                       lambda d: "CEIL(%s)" % self.expr("DOUBLE", d),
                       lambda d: "CAST(%s AS DOUBLE)" % self.expr(self.pick(NUMERIC), d),
                       lambda d: "EXP(%s)" % self.expr("INT", d),
                       lambda d: self.case("DOUBLE", d)],
            "DECIMAL": [lambda d: "d", lambda d: "CAST(%s AS DECIMAL(10, 2))" % self.rng.choice(
                            ["0.5", "-1.25", "100", "0.01"]),
                        lambda d: "(%s %s %s)" % (self.expr("DECIMAL", d), self.pick("+-*"),
                                                  self.expr(self.pick(("DECIMAL", "INT")), d)),
                        lambda d: "ABS(%s)" % self.expr("DECIMAL", d),
                        lambda d: "ROUND(%s, %d)" % (self.expr("DECIMAL", d),
                                                     self.rng.randint(0, 2)),
                        lambda d: "FLOOR(%s)" % self.expr("DECIMAL", d),
                        lambda d: self.case("DECIMAL", d)],
            "STRING": [lambda d: "s", lambda d: "k", lambda d: self.string_literal(),
                       lambda d: "UPPER(%s)" % self.expr("STRING", d),
                       lambda d: "LOWER(%s)" % self.expr("STRING", d),
                       lambda d: "TRIM(%s)" % self.expr("STRING", d),
                       lambda d: "CONCAT(%s, %s)" % (self.expr("STRING", d),
                                                     self.expr("STRING", d)),
                       lambda d: "(%s || %s)" % (self.expr("STRING", d), self.expr("STRING", d)),
                       lambda d: "SUBSTRING(%s FROM %d FOR %d)" % (
                           self.expr("STRING", d), self.rng.randint(0, 4),
                           self.rng.randint(0, 5)),
                       lambda d: "REPLACE(%s, %s, %s)" % (self.expr("STRING", d),
                                                          self.string_literal(),
                                                          self.string_literal()),
                       lambda d: "CAST(%s AS STRING)" % self.expr(
                           self.pick(NUMERIC + ("BOOLEAN",)), d),
                       lambda d: "LPAD(%s, %d, '*')" % (self.expr("STRING", d),
                                                        self.rng.randint(0, 8)),
                       lambda d: "REVERSE(%s)" % self.expr("STRING", d),
                       lambda d: "INITCAP(%s)" % self.expr("STRING", d),
                       lambda d: "COALESCE(%s, 'none')" % self.expr("STRING", d),
                       lambda d: self.case("STRING", d)],
            "BOOLEAN": [lambda d: "t",
                        lambda d: "(%s %s %s)" % (self.expr(k := self.pick(NUMERIC), d),
                                                  self.pick(("=", "<>", "<", "<=", ">", ">=")),
                                                  self.expr(k, d)),
                        lambda d: "(%s %s %s)" % (self.expr("STRING", d),
                                                  self.pick(("=", "<>", "<")),
                                                  self.expr("STRING", d)),
                        lambda d: "(%s AND %s)" % (self.expr("BOOLEAN", d),
                                                   self.expr("BOOLEAN", d)),
                        lambda d: "(%s OR %s)" % (self.expr("BOOLEAN", d),
                                                  self.expr("BOOLEAN", d)),
                        lambda d: "(NOT %s)" % self.expr("BOOLEAN", d),
                        lambda d: "(%s IS NULL)" % self.expr(self.pick(tuple(self.rules)), d),
                        lambda d: "(%s LIKE %s)" % (self.expr("STRING", d), self.rng.choice(
                            ["'%a%'", "'_'", "'B%'", "''", "'%'"])),
                        lambda d: "(%s BETWEEN %s AND %s)" % (
                            self.expr("INT", d), self.int_literal(), self.int_literal()),
                        lambda d: "(%s IN (%s, %s))" % (self.expr("INT", d), self.int_literal(),
                                                        self.int_literal()),
                        lambda d: "(%s IS TRUE)" % self.expr("BOOLEAN", d)],
        }

    def pick(self, options):
        return self.rng.choice(list(options))

    def int_literal(self) -> str:
        return str(self.rng.choice([0, 1, -1, 2, 3, 7, 100, -50, 2147483647]))

    def double_literal(self) -> str:
        return self.rng.choice(["0.5", "-2.5", "1e10", "3.0", "0.1", "-0.0"])

    def string_literal(self) -> str:
        return self.rng.choice(["'a'", "''", "'an'", "'B'", "' '", "'x'", "'ß'"])

    def nonzero(self, kind: str, d: int) -> str:
        """A divisor: NULL where it would be zero (a division by zero fails the whole query
        of fifty expressions, on both systems)."""
        return "NULLIF(%s, 0)" % self.expr(kind, d)

    def case(self, kind: str, d: int) -> str:
        return "CASE WHEN %s THEN %s ELSE %s END" % (self.expr("BOOLEAN", d),
                                                     self.expr(kind, d), self.expr(kind, d))

    def expr(self, kind: str, depth: int = 3) -> str:
        rules = self.rules[kind]
        if depth <= 0:
            return rules[0](0)  # a column: the leaves
        return self.rng.choice(rules)(depth - 1)


@dataclass(frozen=True)
class Query:
    """One generated query: its id, its SQL, and for a query of expressions the expressions
    (asked one by one where the whole query fails)."""

    id: str
    sql: str
    expressions: Tuple[str, ...] = ()

    def alone(self, n: int) -> str:
        """The query of expression ``n`` alone."""
        return "SELECT %s AS e0 FROM g ORDER BY i, b, s" % self.expressions[n]


def expression_queries(rng: random.Random, count: int, per_query: int = 50) -> List[Query]:
    """``count`` random expressions, ``per_query`` to a SELECT over the table (row order by
    ``i``, ``b``, ``s``)."""
    gen = Expressions(rng)
    kinds = list(gen.rules)
    queries = []
    for start in range(0, count, per_query):
        exprs = [gen.expr(rng.choice(kinds), rng.randint(1, 3))
                 for _ in range(min(per_query, count - start))]
        select = ", ".join("%s AS e%d" % (e, n) for n, e in enumerate(exprs))
        queries.append(Query("expr-%04d" % (start // per_query),
                             "SELECT %s FROM g ORDER BY i, b, s" % select, tuple(exprs)))
    return queries


def relational_queries(rng: random.Random, count: int) -> List[Query]:
    """Random filters, groupings with aggregates, DISTINCT, set operations and joins over the
    table, each ordered by all its output columns."""
    gen = Expressions(rng)
    aggregates = ["COUNT(*)", "COUNT(%s)", "SUM(%s)", "MIN(%s)", "MAX(%s)", "AVG(%s)",
                  "COUNT(DISTINCT %s)"]
    queries = []
    for n in range(count):
        shape = rng.choice(["filter", "group", "distinct", "union", "join", "having"])
        where = gen.expr("BOOLEAN", 2)
        key = gen.expr(rng.choice(["STRING", "INT", "BOOLEAN"]), 1)
        if shape == "filter":
            cols = [gen.expr(rng.choice(["INT", "STRING", "DOUBLE", "DECIMAL"]), 2)
                    for _ in range(3)]
            sql = "SELECT %s FROM g WHERE %s" % (
                ", ".join("%s AS c%d" % (c, i) for i, c in enumerate(cols)), where)
            width = 3
        elif shape in ("group", "having"):
            aggs = []
            for _ in range(3):
                agg = rng.choice(aggregates)
                aggs.append(agg % gen.expr(rng.choice(NUMERIC), 1) if "%s" in agg else agg)
            sql = "SELECT %s AS g0, %s FROM g WHERE %s GROUP BY %s" % (
                key, ", ".join("%s AS a%d" % (a, i) for i, a in enumerate(aggs)), where, key)
            if shape == "having":
                sql += " HAVING COUNT(*) > %d" % rng.randint(0, 2)
            width = 4
        elif shape == "distinct":
            sql = "SELECT DISTINCT %s AS c0, %s AS c1 FROM g" % (key, gen.expr("BOOLEAN", 1))
            width = 2
        elif shape == "union":
            op = rng.choice(["UNION", "UNION ALL", "INTERSECT", "EXCEPT"])
            sql = "SELECT %s AS c0 FROM g WHERE %s %s SELECT %s AS c0 FROM g WHERE %s" % (
                key, where, op, key, gen.expr("BOOLEAN", 2))
            width = 1
        else:
            kind = rng.choice(["JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"])
            extra = rng.choice(["TRUE", "l.i <= r.i", "r.t", "l.s <> r.s", "l.b > 0"])
            sql = ("SELECT l.k AS c0, l.i AS c1, r.s AS c2 FROM g AS l %s g AS r "
                   "ON l.k = r.k AND %s" % (kind, extra))
            width = 3
        order = ", ".join(str(i + 1) for i in range(width))
        queries.append(Query("rel-%04d" % n, "SELECT * FROM (%s) ORDER BY %s" % (sql, order)))
    return queries


def corpus(seed: int = 1, expressions: int = 700, queries: int = 150) -> List[Query]:
    rng = random.Random(seed)
    return expression_queries(rng, expressions) + relational_queries(rng, queries)


def canonical(value: Any) -> Any:
    """A result value as JSON both systems agree on: floats to 12 significant digits (libm
    and Java's StrictMath may differ in the last bits), decimals and times as text."""
    if isinstance(value, float):
        return repr(value) if math.isnan(value) or math.isinf(value) else float("%.12g" % value)
    if isinstance(value, Decimal):
        return "decimal %s" % value
    if isinstance(value, (datetime.date, datetime.time, datetime.datetime)):
        return value.isoformat()
    if value is None or isinstance(value, (bool, int, str)):
        return value
    return repr(value)


def canonical_rows(rows) -> List[List[Any]]:
    return [[canonical(v) for v in row] for row in rows]


def answer(t_env, sql: str) -> dict:
    """What a TableEnvironment (PyFlink's or pystream's) answers: its rows, or its error."""
    try:
        with t_env.execute_sql(sql).collect() as rows:
            return {"rows": canonical_rows(list(rows))}
    except Exception as e:  # noqa: BLE001 - an error is an answer too
        text = str(e).strip().splitlines()
        return {"error": (text[0] if text else type(e).__name__)[:300]}
