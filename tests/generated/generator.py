"""A seeded generator of Flink SQL for differential testing against PyFlink (in the spirit of
SQLancer and sqlsmith): typed random expressions over a fixed table holding every common type,
NULLs and edge values, asked many at a time (one query per batch of expressions, so that one
PyFlink process and one Spark job answer fifty of them), and random relational queries
(filters, grouping with aggregates, DISTINCT, set operations, joins) ordered so that their rows
are deterministic.

The same seed gives the same corpus: ``corpus(seed, expressions, queries, shapes,
streaming)`` is what
``tests/oracle/record_generated.py`` records on PyFlink 2.3 and what
``tests/generated/test_generated.py`` checks on pystream.
"""
from __future__ import annotations

import datetime
import json
import math
import random
import re
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path
from typing import Any, Callable, Dict, List, Sequence, Tuple

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


# a second table, of timestamped events, for windows, ranking, OVER and time joins: every
# timestamp differs, so that orderings by time are total
EVENTS = [("k", "STRING"), ("v", "INT"), ("x", "DOUBLE"), ("ts", "TIMESTAMP(3)")]
EVENT_ROWS = [
    ("'a'", "1", "1.5", "'2024-01-01 00:00:01.000'"),
    ("'b'", "5", "-2.0", "'2024-01-01 00:00:02.500'"),
    ("'a'", "-3", "0.25", "'2024-01-01 00:00:04.000'"),
    ("'c'", "NULL", "10.0", "'2024-01-01 00:00:05.999'"),
    ("'a'", "7", "NULL", "'2024-01-01 00:00:06.000'"),
    ("'b'", "5", "3.5", "'2024-01-01 00:00:09.250'"),
    ("NULL", "2", "1.0", "'2024-01-01 00:00:11.000'"),
    ("'c'", "0", "0.0", "'2024-01-01 00:00:12.000'"),
    ("'a'", "100", "-0.5", "'2024-01-01 00:00:15.500'"),
    ("'b'", "-1", "2.25", "'2024-01-01 00:00:21.000'"),
]


def events_sql(name: str = "w") -> str:
    """The view of events: ``CREATE TEMPORARY VIEW w AS VALUES ...``."""
    rows = ", ".join("(%s)" % ", ".join("CAST(%s AS %s)" % (v, t)
                                        for v, (_, t) in zip(row, EVENTS))
                     for row in EVENT_ROWS)
    return "CREATE TEMPORARY VIEW %s AS SELECT * FROM (VALUES %s) AS v(%s)" % (
        name, rows, ", ".join(c for c, _ in EVENTS))


def events_table_sql(directory: str, name: str = "w") -> str:
    """The events as a table of JSON lines in ``directory`` (``write_events``): the input of
    STREAMING queries, read in the file's order by both systems (a VALUES view's rows reach
    PyFlink's operators in an order its planner chooses)."""
    columns = ", ".join("%s %s" % c for c in EVENTS)
    return ("CREATE TEMPORARY TABLE %s (%s) WITH ('connector' = 'filesystem', 'path' = '%s', "
            "'format' = 'json')" % (name, columns, directory))


def write_events(directory: str) -> None:
    """The events' JSON lines, one file in ``directory``."""
    def value(text: str):
        if text == "NULL":
            return None
        return text.strip("'") if text.startswith("'") else json.loads(text)

    lines = [json.dumps({c: value(v) for (c, _), v in zip(EVENTS, row)}) for row in EVENT_ROWS]
    Path(directory, "events.json").write_text("\n".join(lines) + "\n")


def environments(table_environment, settings, directory: str) -> Dict[bool, Any]:
    """A BATCH (False) and a STREAMING (True) environment of PyFlink's or pystream's Table
    API (its ``TableEnvironment`` and ``EnvironmentSettings`` classes), set up."""
    made = {}
    for streaming in (False, True):
        made[streaming] = table_environment.create(
            settings.in_streaming_mode() if streaming else settings.in_batch_mode())
        set_up(made[streaming], streaming, directory)
    return made


def set_up(t_env, streaming: bool, directory: str) -> None:
    """The tables every generated query reads, in a TableEnvironment (PyFlink's or
    pystream's) of parallelism 1: ``g``, and the events ``w`` (STREAMING: from the JSON lines
    written into ``directory``)."""
    t_env.get_config().set("parallelism.default", "1")
    t_env.execute_sql(table_sql())
    if streaming:
        write_events(directory)
        t_env.execute_sql(events_table_sql(directory))
    else:
        t_env.execute_sql(events_sql())


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
    (asked one by one where the whole query fails). A STREAMING query is answered by its
    changelog (each row with its kind), compared in order where ``ordered``."""

    id: str
    sql: str
    expressions: Tuple[str, ...] = ()
    streaming: bool = False
    ordered: bool = True
    shape: str = "SELECT %s FROM g ORDER BY i, b, s"  # a query of expressions' SELECT

    def alone(self, n: int) -> str:
        """The query of expression ``n`` alone."""
        return self.shape % ("%s AS e0" % self.expressions[n])


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


class Shapes:
    """Random queries of the shapes Flink's query pages teach, over the events ``w``: window
    TVF aggregates and window Top-N, Top-N, deduplication, OVER aggregates, grouping sets,
    subqueries, ORDER BY with LIMIT, WITH, time-bounded joins and UNNEST (BATCH, ordered by
    all their columns); and STREAMING changelogs of filters, group aggregates, DISTINCT,
    Top-N and deduplication over one input, compared in PyFlink's order."""

    AGGREGATES = ["COUNT(*)", "COUNT(v)", "SUM(v)", "MIN(v)", "MAX(x)", "AVG(x)",
                  "COUNT(DISTINCT k)", "SUM(v) FILTER (WHERE v > 0)", "MAX(k)", "MIN(ts)",
                  "SUM(x)", "AVG(v)", "COUNT(DISTINCT v)"]

    def __init__(self, rng: random.Random):
        self.rng = rng

    def pick(self, options):
        return self.rng.choice(list(options))

    def aggregates(self, n: int) -> List[str]:
        return self.rng.sample(self.AGGREGATES, n)

    def condition(self) -> str:
        return self.pick(["v > 0", "v IS NULL", "k <> 'a'", "x < 1.0", "v BETWEEN -3 AND 5",
                          "k IS NOT NULL", "ts >= TIMESTAMP '2024-01-01 00:00:05'",
                          "MOD(v, 2) = 1", "k LIKE 'a%' OR v > 4", "TRUE"])

    def window(self) -> str:
        return self.pick([
            "TUMBLE(TABLE w, DESCRIPTOR(ts), INTERVAL '%d' SECOND)" % self.pick([2, 5, 10]),
            "HOP(TABLE w, DESCRIPTOR(ts), INTERVAL '%d' SECOND, INTERVAL '%d' SECOND)"
            % self.pick([(2, 4), (5, 10), (3, 9)]),
            "CUMULATE(TABLE w, DESCRIPTOR(ts), INTERVAL '%d' SECOND, INTERVAL '%d' SECOND)"
            % self.pick([(2, 6), (5, 10)])])

    def batch(self) -> Tuple[str, int]:
        """A BATCH query and its width (ordered by every column)."""
        shape = self.pick(["window", "window", "window_topn", "topn", "dedup", "over", "over",
                           "grouping_sets", "subquery", "cte", "time_join", "unnest",
                           "case_aggregate"])
        return getattr(self, "batch_" + shape)()

    def batch_window(self) -> Tuple[str, int]:
        aggs = self.aggregates(self.rng.randint(1, 3))
        keyed = self.rng.random() < 0.6
        select = ", ".join("%s AS a%d" % (a, n) for n, a in enumerate(aggs))
        return ("SELECT window_start, window_end%s, %s FROM TABLE(%s) WHERE %s "
                "GROUP BY window_start, window_end%s" % (
                    ", k" if keyed else "", select, self.window(), self.condition(),
                    ", k" if keyed else ""), 2 + keyed + len(aggs))

    def batch_window_topn(self) -> Tuple[str, int]:
        n = self.pick([1, 2])
        return ("SELECT window_start, window_end, k, total, rn FROM (SELECT *, ROW_NUMBER() "
                "OVER (PARTITION BY window_start, window_end ORDER BY total DESC, k) AS rn "
                "FROM (SELECT window_start, window_end, k, SUM(v) AS total FROM TABLE(%s) "
                "WHERE k IS NOT NULL AND v IS NOT NULL GROUP BY window_start, window_end, k)) "
                "WHERE rn <= %d" % (self.window(), n), 5)

    def batch_topn(self) -> Tuple[str, int]:
        function = self.pick(["ROW_NUMBER()", "RANK()", "DENSE_RANK()"])
        order = self.pick(["v DESC, ts", "x, ts", "ts DESC", "v ASC NULLS FIRST, ts"])
        return ("SELECT k, v, ts, rn FROM (SELECT k, v, ts, %s OVER (PARTITION BY k ORDER BY "
                "%s) AS rn FROM w WHERE %s) WHERE rn <= %d" % (
                    function, order, self.condition(), self.pick([1, 2, 3])), 4)

    def batch_dedup(self) -> Tuple[str, int]:
        return ("SELECT k, v, x, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER "
                "BY ts %s) AS rn FROM w) WHERE rn = 1" % self.pick(["ASC", "DESC"]), 4)

    def batch_over(self) -> Tuple[str, int]:
        aggregate = self.pick(["SUM(v)", "COUNT(v)", "MIN(x)", "MAX(v)", "AVG(x)", "COUNT(*)"])
        frame = self.pick(["ROWS BETWEEN %d PRECEDING AND CURRENT ROW" % self.pick([1, 2]),
                           "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW",
                           "RANGE BETWEEN INTERVAL '%d' SECOND PRECEDING AND CURRENT ROW"
                           % self.pick([2, 5]),
                           "RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"])
        other = self.pick(["LAG(v) OVER (PARTITION BY k ORDER BY ts)",
                           "LEAD(v, 1) OVER (PARTITION BY k ORDER BY ts)",
                           "ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts)",
                           "%s OVER (ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)"
                           % aggregate])
        return ("SELECT k, ts, %s OVER (PARTITION BY k ORDER BY ts %s) AS o, %s AS p FROM w "
                "WHERE %s" % (aggregate, frame, other, self.condition()), 4)

    def batch_grouping_sets(self) -> Tuple[str, int]:
        aggs = self.aggregates(2)
        groups = self.pick(["GROUPING SETS ((k, b), (k), ())", "ROLLUP (k, b)", "CUBE (k, b)",
                            "GROUPING SETS ((k, b), (b))"])
        return ("SELECT k, b, %s, %s FROM (SELECT *, v > 2 AS b FROM w) GROUP BY %s" % (
            aggs[0], aggs[1], groups), 4)

    def batch_subquery(self) -> Tuple[str, int]:
        return self.pick([
            ("SELECT k, v FROM w WHERE v IN (SELECT v FROM w WHERE %s)" % self.condition(), 2),
            ("SELECT k, v FROM w WHERE v NOT IN (SELECT v FROM w WHERE %s)"
             % self.condition(), 2),
            ("SELECT k, v FROM w AS o WHERE EXISTS (SELECT 1 FROM w AS i WHERE i.k = o.k "
             "AND i.ts > o.ts AND %s)" % self.condition().replace("v", "i.v"), 2),
            ("SELECT k, v, (SELECT MAX(v) FROM w) AS m FROM w WHERE %s" % self.condition(), 3),
            ("SELECT k, v FROM w AS o WHERE v > (SELECT AVG(i.v) FROM w AS i WHERE i.k = o.k)",
             2)])

    def batch_cte(self) -> Tuple[str, int]:
        agg = self.pick(["SUM(v)", "MAX(v)", "COUNT(*)"])
        return ("WITH t AS (SELECT k, %s AS a FROM w WHERE %s GROUP BY k) SELECT w.k, w.v, "
                "t.a FROM w JOIN t ON w.k = t.k" % (agg, self.condition()), 3)

    def batch_time_join(self) -> Tuple[str, int]:
        seconds = self.pick([1, 3, 6])
        kind = self.pick(["JOIN", "LEFT JOIN"])
        return ("SELECT l.k, l.ts, r.v FROM w AS l %s w AS r ON l.k = r.k AND r.ts BETWEEN "
                "l.ts - INTERVAL '%d' SECOND AND l.ts + INTERVAL '%d' SECOND AND l.ts <> r.ts"
                % (kind, seconds, seconds), 3)

    def batch_unnest(self) -> Tuple[str, int]:
        array = self.pick(["ARRAY[v, v + 1]", "ARRAY[k, 'z']", "ARRAY[x]"])
        return ("SELECT k, e FROM w CROSS JOIN UNNEST(%s) AS u(e) WHERE %s" % (
            array, self.condition()), 2)

    def batch_case_aggregate(self) -> Tuple[str, int]:
        return ("SELECT k, SUM(CASE WHEN %s THEN 1 ELSE 0 END) AS c, MAX(CASE WHEN %s THEN v "
                "END) AS m FROM w GROUP BY k" % (self.condition(), self.condition()), 3)

    def streaming(self) -> Tuple[str, bool]:
        """A STREAMING query over one input and whether its changelog's order is PyFlink's
        (deterministic: parallelism 1, one source)."""
        shape = self.pick(["filter", "group", "group", "global", "distinct", "topn", "dedup",
                           "having", "regroup"])
        if shape == "filter":
            return "SELECT k, v * 2 AS v2, x FROM w WHERE %s" % self.condition(), True
        if shape == "group":
            aggs = ", ".join(self.aggregates(self.rng.randint(1, 3)))
            return "SELECT k, %s FROM w WHERE %s GROUP BY k" % (aggs, self.condition()), True
        if shape == "global":
            return "SELECT %s FROM w" % ", ".join(self.aggregates(2)), True
        if shape == "distinct":
            return "SELECT DISTINCT k, v > 2 AS big FROM w", True
        if shape == "having":
            return "SELECT k, SUM(v) AS s FROM w GROUP BY k HAVING COUNT(*) > 1", True
        if shape == "regroup":  # an aggregate of an updating aggregate
            return ("SELECT c, COUNT(*) AS n FROM (SELECT k, COUNT(*) AS c FROM w GROUP BY k) "
                    "GROUP BY c"), True
        if shape == "topn":
            return ("SELECT k, v, rn FROM (SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k "
                    "ORDER BY v %s) AS rn FROM w WHERE v IS NOT NULL) WHERE rn <= %d" % (
                        self.pick(["DESC", "ASC"]), self.pick([1, 2])), True)
        return ("SELECT k, v, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY "
                "PROCTIME() %s) AS rn FROM w) WHERE rn = 1" % self.pick(["ASC", "DESC"]), True)


def _new_relational_queries(rng: random.Random, count: int, before: List[Query]) -> List[Query]:
    """``count`` relational queries unlike those ``before``, numbered on from theirs."""
    seen, fresh = {q.sql for q in before}, []
    first = sum(q.id.startswith("rel-") for q in before)
    while len(fresh) < count:
        for query in relational_queries(rng, count - len(fresh)):
            if query.sql not in seen:
                seen.add(query.sql)
                fresh.append(query)
    return [replace(q, id="rel-%04d" % (first + n)) for n, q in enumerate(fresh)]


def shape_queries(seed: int, rounds: Sequence[Tuple[int, int]]) -> List[Query]:
    """Per round (each from its own seed), ``batch`` BATCH queries and ``streaming``
    STREAMING ones, numbered on from the rounds before; each query once (a query drawn again
    is drawn anew, up to a hundred times)."""
    def distinct(draw: Callable[[], Tuple[str, Any]], seen: set) -> Tuple[str, Any]:
        for _ in range(100):
            sql, extra = draw()
            if sql not in seen:
                break
        seen.add(sql)
        return sql, extra

    batches, streams, seen = [], [], set()
    for n, (batch, streaming) in enumerate(rounds):
        shapes = Shapes(random.Random(seed * 7919 + n * 104729))
        for _ in range(batch):
            sql, width = distinct(shapes.batch, seen)
            order = ", ".join(str(i + 1) for i in range(width))
            batches.append(Query("shape-%04d" % len(batches),
                                 "SELECT * FROM (%s) ORDER BY %s" % (sql, order)))
        for _ in range(streaming):
            sql, ordered = distinct(shapes.streaming, seen)
            streams.append(Query("stream-%04d" % len(streams), sql, streaming=True,
                                 ordered=ordered))
    return batches + streams


# Flink's reference list of built-in scalar functions (docs/data/sql_functions.yml of
# apache/flink), each with a few probe expressions over the table ``g``
FUNCTIONS_FILE = Path(__file__).resolve().parent / "functions.json"


def reference_functions() -> List[dict]:
    """The entries of Flink's function reference: category, name, syntax, probes (and
    why an entry has none: ``skip``)."""
    return json.loads(FUNCTIONS_FILE.read_text())


# the SELECT of a function's probes, by the entry's "shape": a row each (scalar and OVER
# window functions), a group each (aggregate functions: BATCH, then the changelog of the
# same in STREAMING mode), a grouping set each
SHAPES = {
    "row": "SELECT %s FROM g ORDER BY i, b, s",
    "group": "SELECT k, %s FROM g GROUP BY k ORDER BY k",
    "grouping sets": "SELECT k, t, %s FROM g GROUP BY GROUPING SETS ((k), (t), ()) "
                     "ORDER BY 1, 2, 3",
}
STREAMING_SHAPES = {"group": "SELECT k, %s FROM g GROUP BY k"}


def function_queries() -> List[Query]:
    """The queries of the reference's functions, by their probes over ``g``: ``fn-<n>``
    for the entry ``n``, and ``fn-<n>-streaming`` for its STREAMING changelog."""
    queries = []
    for n, entry in enumerate(reference_functions()):
        if not entry["probes"]:
            continue
        select = ", ".join("%s AS e%d" % (p, i) for i, p in enumerate(entry["probes"]))
        shape = SHAPES[entry.get("shape", "row")]
        queries.append(Query("fn-%03d" % n, shape % select, tuple(entry["probes"]),
                             shape=shape))
        streaming = STREAMING_SHAPES.get(entry.get("shape", "row"))
        if streaming:
            queries.append(Query("fn-%03d-streaming" % n, streaming % select,
                                 tuple(entry["probes"]), streaming=True, shape=streaming))
    return queries


# the corpus grows in rounds, each drawn from its own seed, so that the queries recorded
# before stay as they are: (relational queries, BATCH shapes, STREAMING shapes) per round
ROUNDS = ((150, 600, 300), (750, 2000, 1000))


def corpus(seed: int = 1, expressions: int = 700,
           rounds: Sequence[Tuple[int, int, int]] = ROUNDS) -> List[Query]:
    rng = random.Random(seed)
    generated = expression_queries(rng, expressions) + relational_queries(rng, rounds[0][0])
    for n, (count, _, _) in enumerate(rounds[1:], 1):
        generated += _new_relational_queries(random.Random(seed * 31337 + n), count, generated)
    # the shapes draw from their own generator: the queries above stay as recorded
    return generated + shape_queries(seed, [(b, s) for _, b, s in rounds]) + \
        function_queries()


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


KINDS = ["+I", "-U", "+U", "-D"]


def answer(t_env, sql: str, changelog: bool = False) -> dict:
    """What a TableEnvironment (PyFlink's or pystream's) answers: its rows (with
    ``changelog``, each led by its kind: +I, -U, +U, -D), or its error."""
    try:
        with t_env.execute_sql(sql).collect() as rows:
            rows = list(rows)
            if changelog:
                return {"rows": [[KINDS[row.get_row_kind().value]] + canonical_rows([row])[0]
                                 for row in rows]}
            return {"rows": canonical_rows(rows)}
    except Exception as e:  # noqa: BLE001 - an error is an answer too
        return {"error": error_text(e)}


def error_text(error: Exception) -> str:
    """An error's telling line: the last cause a Java exception names (PyFlink's first line
    is Py4J's 'An error occurred while calling ...'), else the first line."""
    lines = [line.strip() for line in str(error).strip().splitlines()]
    causes = [line for line in lines if line.startswith("Caused by:")]
    text = causes[-1][len("Caused by:"):].strip() if causes else (lines[0] if lines else "")
    return (text or type(error).__name__)[:300]


def same(expected: dict, actual: dict, ordered: bool = True) -> bool:
    """Whether pystream's answer is PyFlink's: an error for an error, else the same rows
    (in the same order where ``ordered``)."""
    if "error" in expected:
        return "error" in actual
    if "rows" not in actual:
        return False
    expected_rows, actual_rows = _floats_in_lists_rounded(expected["rows"]), \
        _floats_in_lists_rounded(actual["rows"])
    if ordered:
        return actual_rows == expected_rows
    return sorted(map(repr, actual_rows)) == sorted(map(repr, expected_rows))


_FLOAT = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?")


def _floats_in_lists_rounded(rows: List[List[Any]]) -> List[List[Any]]:
    """Rows with the floats inside collection values (canonical as their repr, e.g.
    ``'[-6.002, 0.9979999999999998]'``) at 12 significant digits, as ``canonical`` gives
    floats."""
    def rounded(value: Any) -> Any:
        if isinstance(value, str) and value.startswith(("[", "{")):
            return _FLOAT.sub(lambda m: repr(float("%.12g" % float(m.group()))), value)
        return value
    return [[rounded(v) for v in row] for row in rows]
