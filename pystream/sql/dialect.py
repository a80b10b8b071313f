"""Flink SQL as a sqlglot dialect: Spark's grammar (backtick identifiers, ``ARRAY<INT>``,
``PARTITIONED BY``) with Flink's differences.

* strings escape a quote by doubling it (``'it''s'``), never with a backslash;
* types ``STRING``, ``BYTES``, ``TIMESTAMP_LTZ(p)``, ``ROW<a INT>``, ``MULTISET<T>`` (an
  ARRAY node whose ``meta["multiset"]`` is set);
* ``CREATE TABLE`` columns: ``c AS expr`` (computed), ``m ... METADATA [FROM 'k'] [VIRTUAL]``,
  ``WATERMARK FOR ts AS expr``, ``PRIMARY KEY (k) NOT ENFORCED``, ``WITH ('k' = 'v')``;
* window table functions in FROM: ``TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL ...))``
  (a ``WindowTVF`` node), and table functions ``LATERAL TABLE(f(x)) AS T(a, b)``
  (a ``LateralTable`` node).

Statements sqlglot has no grammar for (SHOW, EXPLAIN, statement sets, RESET, ...) are read
in ``pystream.sql.parse``.
"""
from __future__ import annotations

from typing import List, Optional

from sqlglot import exp
from sqlglot.dialects.spark import Spark
from sqlglot.parser import Parser
from sqlglot.tokens import TokenType

__all__ = ["Flink", "WindowTVF", "LateralTable", "MetadataColumnConstraint",
           "WatermarkColumnConstraint", "JsonPathCall", "to_sql"]

WatermarkColumnConstraint = exp.WatermarkColumnConstraint
WINDOW_FUNCTIONS = ("TUMBLE", "HOP", "CUMULATE", "SESSION")



def _says_multiset(token) -> bool:
    """Whether a token of a type is the word MULTISET (the tokenizer reads it as ARRAY)."""
    return token is not None and token.text.upper() == "MULTISET"

class WindowTVF(exp.Expression):
    """``TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), size [, offset]))``: ``this`` the kind
    (TUMBLE, HOP, CUMULATE, SESSION), ``table`` the input (a table or sub-query),
    ``time_col`` the descriptor's column, ``intervals`` the interval arguments in order (HOP:
    slide, size; CUMULATE: step, size; SESSION: gap), ``partition_by`` SESSION's keys."""

    arg_types = {"this": True, "table": True, "time_col": True, "intervals": True,
                 "partition_by": False, "alias": False}


class JsonPathCall(exp.Expression):
    """``JSON_VALUE``, ``JSON_QUERY`` or ``JSON_EXISTS`` with Flink's clauses: ``this`` the
    function's name, ``expressions`` the JSON text and the path, ``returning`` a type,
    ``wrapper`` (WITHOUT_ARRAY, CONDITIONAL_ARRAY, UNCONDITIONAL_ARRAY), ``on_empty`` and
    ``on_error`` a behaviour's name as a Var (NULL, ERROR, DEFAULT, EMPTY_ARRAY, EMPTY_OBJECT, TRUE,
    FALSE, UNKNOWN), ``empty_default`` and ``error_default`` DEFAULT's values."""

    arg_types = {"this": True, "expressions": True, "returning": False, "wrapper": False,
                 "on_empty": False, "empty_default": False, "on_error": False,
                 "error_default": False}


JSON_PATH_FUNCTIONS = ("JSON_VALUE", "JSON_QUERY", "JSON_EXISTS")


class LateralTable(exp.Expression):
    """``LATERAL TABLE(f(x)) [AS T(a, b)]``: ``this`` the function call (an Anonymous)."""

    arg_types = {"this": True, "alias": False}


class MetadataColumnConstraint(exp.Expression, exp.ColumnConstraintKind):
    """``METADATA [FROM 'key'] [VIRTUAL]`` of a column."""

    arg_types = {"this": False, "virtual": False}


def _as_written(name: str):
    """A parser of ``name(...)`` that keeps its arguments as written (an Anonymous call)."""
    return lambda args: exp.Anonymous(this=name, expressions=args)


class FlinkParser(Spark.Parser):
    CONSTRAINT_PARSERS = {
        **Spark.Parser.CONSTRAINT_PARSERS,
        "WATERMARK": lambda self: self.expression(
            exp.WatermarkColumnConstraint(
                this=self._match(TokenType.FOR) and self._parse_column(),
                expression=self._match(TokenType.ALIAS) and self._parse_disjunction(),
            )
        ),
        "METADATA": lambda self: self.expression(
            MetadataColumnConstraint(
                this=self._match(TokenType.FROM) and self._parse_string(),
                virtual=self._match_text_seq("VIRTUAL"),
            )
        ),
    }
    SCHEMA_UNNAMED_CONSTRAINTS = {*Spark.Parser.SCHEMA_UNNAMED_CONSTRAINTS, "WATERMARK"}

    def _parse_types(self, check_func: bool = False, schema: bool = False,
                     allow_identifiers: bool = True, with_collation: bool = False):
        """Types as written: CHAR(n) and VARCHAR(n) keep their lengths (Hive's parser, which
        Spark's extends, turns them into STRING outside table schemas); a type inside another
        may say NOT NULL (``ARRAY<INT NOT NULL>``: the node's ``nullable`` is False)."""
        self._type_depth = getattr(self, "_type_depth", 0) + 1
        first = self._curr
        try:
            node = Parser._parse_types(self, check_func=check_func, schema=schema,
                                       allow_identifiers=allow_identifiers,
                                       with_collation=with_collation)
        finally:
            self._type_depth -= 1
        if isinstance(node, exp.DataType) and node.this == exp.DataType.Type.ARRAY and (
                _says_multiset(first) or _says_multiset(self._prev)):  # MULTISET<T>, T MULTISET
            node.meta["multiset"] = True
        if isinstance(node, exp.DataType) and self._type_depth and \
                self._match_text_seq("NOT", "NULL"):
            node.set("nullable", False)
        return node

    FUNCTIONS = {
        **Spark.Parser.FUNCTIONS,
        # MATCH_RECOGNIZE's navigation: FIRST(A.price [, n]) / LAST(A.price [, n])
        "FIRST": lambda args: exp.Anonymous(this="FIRST", expressions=args),
        "LAST": lambda args: exp.Anonymous(this="LAST", expressions=args),
        # Flink functions whose arguments Spark's parsing would change: its ARRAY_SORT
        # drops a third argument, its SPLIT takes a regex, its ARRAY_SLICE counts from 0, its
        # DATE_FORMAT reads a string argument as a time and converts the Java pattern, its
        # REGEXP_EXTRACT without an index takes group 1 (Flink: the whole match), its
        # LPAD/RPAD become one PAD node our translation does not know, its UNIX_TIMESTAMP
        # and FROM_UNIXTIME convert the Java pattern, its LTRIM/RTRIM take the characters
        # first (Flink's: LTRIM(text, characters)), its STR_TO_MAP splits keys at ':' (Flink's
        # at '='), its TO_TIMESTAMP converts the Java pattern
        **{name: _as_written(name) for name in ("ARRAY_SORT", "SPLIT", "ARRAY_SLICE",
                                                  "DATE_FORMAT", "REGEXP_EXTRACT", "LPAD",
                                                  "RPAD", "UNIX_TIMESTAMP", "FROM_UNIXTIME",
                                                  "LTRIM", "RTRIM", "STR_TO_MAP",
                                                  "TO_TIMESTAMP")},
        # PERCENTILE(value, percentage, frequency): sqlglot's QUANTILE keeps two arguments
        "PERCENTILE": _as_written("PERCENTILE"),
        # TYPEOF(x, force): sqlglot's TYPEOF takes one argument
        "TYPEOF": _as_written("TYPEOF"),
    }

    FUNCTION_PARSERS = {  # Spark's PERCENTILE parser makes a QUANTILE (see FUNCTIONS)
        **{name: parse for name, parse in Spark.Parser.FUNCTION_PARSERS.items()
           if name != "PERCENTILE"},
        "JSON_ARRAY": lambda self: self._parse_json_array(),
        "JSON_ARRAYAGG": lambda self: self._parse_json_arrayagg(),
        **{name: lambda self, name=name: self._parse_json_path_call(name)
           for name in JSON_PATH_FUNCTIONS},
    }

    def _parse_case(self) -> Optional[exp.Expression]:
        """sqlglot's CASE, and Flink's simple CASE whose WHEN lists values (``CASE k WHEN 'y',
        'z' THEN 2 ...``): such a CASE becomes the searched form, ``WHEN k IN ('y', 'z')``."""
        if self._match(TokenType.DOT, advance=False):  # case.* : not a CASE
            self._retreat(self._index - 1)
            return None
        comments = self._prev_comments
        subject = self._parse_disjunction()
        branches = []
        while self._match(TokenType.WHEN):
            values = [self._parse_disjunction()]
            while subject is not None and self._match(TokenType.COMMA):
                values.append(self._parse_disjunction())
            self._match(TokenType.THEN)
            branches.append((values, self._parse_disjunction()))
        default = self._parse_disjunction() if self._match(TokenType.ELSE) else None
        if not self._match(TokenType.END):
            self.raise_error("Expected END after CASE", self._prev)
        if subject is not None and any(len(values) > 1 for values, _ in branches):
            ifs = [exp.If(this=exp.In(this=subject.copy(), expressions=values), true=then)
                   for values, then in branches]
            return self.expression(exp.Case(ifs=ifs, default=default), comments=comments)
        ifs = [exp.If(this=values[0], true=then) for values, then in branches]
        return self.expression(exp.Case(this=subject, ifs=ifs, default=default),
                               comments=comments)

    def _parse_json_array(self) -> exp.JSONArray:
        """Flink's ``JSON_ARRAY(value, ... [NULL | ABSENT] ON NULL)``."""
        values = [] if self._curr is None or self._curr.token_type == TokenType.R_PAREN \
            or self._curr.text.upper() == "ABSENT" else self._parse_csv(self._parse_assignment)
        return self.expression(exp.JSONArray(
            expressions=[v for v in values if v is not None],
            null_handling=self._parse_on_handling("NULL", "NULL", "ABSENT")))

    def _parse_json_arrayagg(self) -> exp.JSONArrayAgg:
        """Flink's ``JSON_ARRAYAGG(value [NULL | ABSENT] ON NULL)``."""
        value = self._parse_assignment()
        return self.expression(exp.JSONArrayAgg(
            this=value, null_handling=self._parse_on_handling("NULL", "NULL", "ABSENT")))

    def _parse_json_path_call(self, name: str) -> JsonPathCall:
        """``JSON_VALUE(json, path [RETURNING type] [{NULL | ERROR | DEFAULT value} ON
        EMPTY] [... ON ERROR])``, ``JSON_QUERY(json, path [RETURNING type] [{WITHOUT |
        WITH [CONDITIONAL | UNCONDITIONAL]} [ARRAY] WRAPPER] [{NULL | EMPTY ARRAY | EMPTY
        OBJECT | ERROR} ON EMPTY] [... ON ERROR])``, ``JSON_EXISTS(json, path [{TRUE |
        FALSE | UNKNOWN | ERROR} ON ERROR])``."""
        json = self._parse_assignment()
        self._match(TokenType.COMMA)
        path = self._parse_assignment()
        args = {}
        while self._curr is not None and self._curr.token_type != TokenType.R_PAREN:
            if self._match_text_seq("RETURNING"):
                args["returning"] = self._parse_types()
            elif self._match_text_seq("WITHOUT"):
                self._match_text_seq("ARRAY")
                self._expect_words("WRAPPER")
                args["wrapper"] = exp.var("WITHOUT_ARRAY")
            elif self._match(TokenType.WITH):
                if self._match_text_seq("CONDITIONAL"):
                    kind = "CONDITIONAL"
                else:  # WITH [UNCONDITIONAL]
                    self._match_text_seq("UNCONDITIONAL")
                    kind = "UNCONDITIONAL"
                self._match_text_seq("ARRAY")
                self._expect_words("WRAPPER")
                args["wrapper"] = exp.var(kind + "_ARRAY")
            else:
                default = None
                if self._match(TokenType.DEFAULT):
                    behaviour, default = "DEFAULT", self._parse_assignment()
                elif self._match_text_seq("EMPTY", "ARRAY"):
                    behaviour = "EMPTY_ARRAY"
                elif self._match_text_seq("EMPTY", "OBJECT"):
                    behaviour = "EMPTY_OBJECT"
                elif self._match_texts(("NULL", "ERROR", "TRUE", "FALSE", "UNKNOWN")):
                    behaviour = self._prev.text.upper()
                else:
                    self.raise_error("Expecting ) or a clause of %s" % name, self._curr)
                    break
                self._expect_words("ON")
                if not self._match_texts(("EMPTY", "ERROR")):
                    self.raise_error("Expecting ON EMPTY or ON ERROR", self._curr)
                    break
                when = self._prev.text.lower()
                args["on_" + when] = exp.var(behaviour)
                args[when + "_default"] = default
        return self.expression(JsonPathCall(this=exp.var(name), expressions=[json, path],
                                            **args))

    def _expect_words(self, *words: str) -> None:
        if not self._match_text_seq(*words):
            self.raise_error("Expecting %s" % " ".join(words), self._curr)

    def _parse_match_recognize(self) -> Optional[exp.MatchRecognize]:
        """Flink's MATCH_RECOGNIZE clause: sqlglot's, with ``WITHIN INTERVAL ...`` after the
        pattern (kept in ``within``)."""
        if not self._match(TokenType.MATCH_RECOGNIZE):
            return None
        self._match_l_paren()
        partition = self._parse_csv(self._parse_disjunction) \
            if self._match(TokenType.PARTITION_BY) else None
        order = self._parse_order()
        measures = self._parse_csv(self._parse_match_recognize_measure) \
            if self._match_text_seq("MEASURES") else None
        rows = None
        if self._match_text_seq("ONE", "ROW", "PER", "MATCH"):
            rows = exp.var("ONE ROW PER MATCH")
        elif self._match_text_seq("ALL", "ROWS", "PER", "MATCH"):
            rows = exp.var("ALL ROWS PER MATCH")
        after = None
        if self._match_text_seq("AFTER", "MATCH", "SKIP"):
            words = []
            while self._curr and not self._curr.text.upper() == "PATTERN":
                words.append(self._curr.text)
                self._advance()
            after = exp.var(" ".join(words))
        pattern = None
        if self._match_text_seq("PATTERN"):
            self._match_l_paren()
            depth, start, end = 1, self._curr, self._curr
            while self._curr and depth:
                depth += {TokenType.L_PAREN: 1, TokenType.R_PAREN: -1}.get(
                    self._curr.token_type, 0)
                end = self._prev if depth == 0 else self._curr
                self._advance()
            if depth:
                self.raise_error("Expecting )", self._curr)
            pattern = exp.var(self._find_sql(start, end))
        within = self._parse_interval() if self._match_text_seq("WITHIN") else None
        define = self._parse_csv(self._parse_name_as_expression) \
            if self._match_text_seq("DEFINE") else None
        self._match_r_paren()
        node = exp.MatchRecognize(partition_by=partition, order=order, measures=measures,
                                  rows=rows, after=after, pattern=pattern, define=define,
                                  alias=self._parse_table_alias())
        node.set("within", within)
        return node

    def _parse_table(self, *args, **kwargs) -> Optional[exp.Expr]:
        if self._curr and self._curr.token_type == TokenType.TABLE \
                and self._next and self._next.token_type == TokenType.L_PAREN:
            return self._parse_window_tvf()
        return super()._parse_table(*args, **kwargs)

    def _parse_create_like(self) -> Optional[exp.LikeProperty]:
        """``LIKE source [( {INCLUDING | EXCLUDING | OVERWRITING} {ALL | CONSTRAINTS |
        GENERATED | METADATA | OPTIONS | PARTITIONS | WATERMARKS} ... )]``, Flink's form."""
        parts = [self._parse_id_var(any_token=False)]
        while self._match(TokenType.DOT):
            parts.append(self._parse_id_var(any_token=True))
        if parts[0] is None:
            self.raise_error("Expected the name of the table to copy")
        table = exp.Table(this=parts[-1], db=parts[-2] if len(parts) > 1 else None,
                          catalog=parts[-3] if len(parts) > 2 else None)
        options = []
        if self._match(TokenType.L_PAREN):
            while self._match_texts(("INCLUDING", "EXCLUDING", "OVERWRITING")):
                strategy = self._prev.text.upper()
                feature = self._parse_var(any_token=True)
                if feature is None:
                    self.raise_error("Expected ALL, CONSTRAINTS, GENERATED, METADATA, OPTIONS, "
                                     "PARTITIONS or WATERMARKS")
                options.append(self.expression(exp.Property(
                    this=strategy, value=exp.var(feature.name.upper()))))
                self._match(TokenType.COMMA)
            self._match_r_paren()
        return self.expression(exp.LikeProperty(this=table, expressions=options))

    def _parse_lateral(self) -> Optional[exp.Expr]:
        index = self._index
        if self._match(TokenType.LATERAL) and self._match(TokenType.TABLE):
            self._match_l_paren()
            name = self._parse_id_var(any_token=True)
            self._match_l_paren()
            arguments = self._parse_csv(self._parse_disjunction) \
                if not self._match(TokenType.R_PAREN, advance=False) else []
            self._match_r_paren()
            self._match_r_paren()
            call = exp.Anonymous(this=name.name, expressions=arguments)
            return self.expression(LateralTable(this=call,
                                                alias=self._parse_table_alias()))
        self._retreat(index)
        return super()._parse_lateral()

    def _parse_window_tvf(self) -> exp.Expr:
        self._advance()  # TABLE
        self._match_l_paren()
        kind = self._curr.text.upper()
        if kind not in WINDOW_FUNCTIONS:
            self.raise_error("Expected a window function (%s) in TABLE(...)"
                             % ", ".join(WINDOW_FUNCTIONS))
        self._advance()
        self._match_l_paren()
        table = partition_by = time_col = None
        intervals: List[exp.Expr] = []
        while not self._match(TokenType.R_PAREN):
            start = self._index
            if self._curr is None:
                self.raise_error("Expected ) to close %s(...)" % kind)
                break
            self._named_argument_name()
            if self._match(TokenType.TABLE):
                table = self._parse_table_parts()
                if self._match(TokenType.PARTITION_BY):
                    partition_by = self._parse_wrapped_csv(self._parse_column) \
                        if self._match(TokenType.L_PAREN, advance=False) \
                        else [self._parse_column()]
            elif self._match_text_seq("DESCRIPTOR"):
                self._match_l_paren()
                time_col = self._parse_column()
                self._match_r_paren()
            else:
                intervals.append(self._parse_disjunction())
            self._match(TokenType.COMMA)
            if self._index == start:
                self.raise_error("Unexpected %s in %s(...)" % (self._curr.text, kind))
                break
        self._match_r_paren()
        if table is None or time_col is None:
            self.raise_error("%s needs TABLE <name> and DESCRIPTOR(<time column>)" % kind)
        return self.expression(WindowTVF(this=kind, table=table, time_col=time_col,
                                         intervals=intervals, partition_by=partition_by,
                                         alias=self._parse_table_alias()))

    def _named_argument_name(self) -> None:
        """Skips ``NAME =>`` of a named argument (``TIMECOL => DESCRIPTOR(ts)``)."""
        if self._next and self._next.token_type == TokenType.FARROW:
            self._advance(2)


class FlinkGenerator(Spark.Generator):
    """Writes Flink SQL back (error messages, computed columns kept as text)."""

    TRANSFORMS = {
        **Spark.Generator.TRANSFORMS,
        MetadataColumnConstraint: lambda self, e: "METADATA%s%s" % (
            " FROM %s" % self.sql(e, "this") if e.args.get("this") else "",
            " VIRTUAL" if e.args.get("virtual") else ""),
        WindowTVF: lambda self, e: "TABLE(%s(TABLE %s%s, DESCRIPTOR(%s), %s))%s" % (
            e.name, self.sql(e, "table"),
            " PARTITION BY %s" % self.expressions(e, "partition_by", flat=True)
            if e.args.get("partition_by") else "",
            self.sql(e, "time_col"), self.expressions(e, "intervals", flat=True),
            " AS %s" % self.sql(e, "alias") if e.args.get("alias") else ""),
        LateralTable: lambda self, e: "LATERAL TABLE(%s)%s" % (
            self.sql(e, "this"), " AS %s" % self.sql(e, "alias") if e.args.get("alias")
            else ""),
    }

    def datatype_sql(self, expression: exp.DataType) -> str:
        """Spark's writer drops a timestamp's precision; Flink's keeps it."""
        names = {exp.DataType.Type.TIMESTAMP: "TIMESTAMP",
                 exp.DataType.Type.TIMESTAMPLTZ: "TIMESTAMP_LTZ"}
        if expression.this in names and expression.expressions:
            return "%s(%s)" % (names[expression.this], self.expressions(expression, flat=True))
        return super().datatype_sql(expression)


class Flink(Spark):
    """Flink SQL (see the module's docstring)."""

    class Tokenizer(Spark.Tokenizer):
        QUOTES = ["'"]
        STRING_ESCAPES = ["'"]
        IDENTIFIERS = ["`"]
        VAR_SINGLE_TOKENS = {"$"}  # Calcite's identifiers may hold $ (UnnamedTable$0)
        # SHOW and EXECUTE are read token by token (pystream.sql.parse), not as raw text
        COMMANDS = Spark.Tokenizer.COMMANDS - {TokenType.SHOW, TokenType.EXECUTE}
        KEYWORDS = {
            **Spark.Tokenizer.KEYWORDS,
            "BYTES": TokenType.VARBINARY,
            "TIMESTAMP": TokenType.TIMESTAMP,
            "TIMESTAMP_LTZ": TokenType.TIMESTAMPLTZ,
            "MULTISET": TokenType.ARRAY,
            "ROW": TokenType.STRUCT,
            "EXPLAIN": TokenType.VAR,  # read token by token (pystream.sql.parse)
            "MATCH_RECOGNIZE": TokenType.MATCH_RECOGNIZE,
            "SESSION": TokenType.VAR,  # a function: GROUP BY SESSION(ts, ...), TABLE(SESSION(...
        }

    Parser = FlinkParser
    Generator = FlinkGenerator


def to_sql(node: exp.Expr) -> str:
    """Flink SQL text of a node (a computed column's expression, kept to parse again)."""
    return node.sql(dialect=Flink)
