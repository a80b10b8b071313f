"""Parsing Flink SQL: one statement, a script, an expression or a type, with the Flink
dialect (``pystream.sql.dialect``). Every error is a ``SqlParserException`` with the line, the
column and a caret under the token; sqlglot's own errors never reach the user.

Statements sqlglot has no grammar for are read here from the dialect's tokens, into the
nodes below: ``Show`` (SHOW TABLES, ...), ``Explain``, ``StatementSet`` (EXECUTE STATEMENT
SET BEGIN ... END, and a script's BEGIN STATEMENT SET; ... END;), ``Reset``,
``CreateFunction`` (CREATE [TEMPORARY [SYSTEM]] FUNCTION f AS 'module.f' [LANGUAGE PYTHON]).
"""
from __future__ import annotations

import logging
from typing import Iterator, List, Optional, Sequence

import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError, TokenError
from sqlglot.tokens import Token, TokenType

from pystream.sql import hints
from pystream.sql.dialect import Flink
from pystream.util.exceptions import SqlParserException

__all__ = ["parse_statement", "parse_statements", "iter_statements", "parse_expression",
           "parse_type_node",
           "Show", "Explain", "StatementSet", "Reset", "CreateFunction"]


class Show(exp.Expression):
    """``SHOW <this> [FROM|IN <target>] [[NOT] LIKE 'pattern']``; ``this`` is TABLES, VIEWS,
    FUNCTIONS, USER FUNCTIONS, CATALOGS, DATABASES, CURRENT CATALOG, CURRENT DATABASE,
    COLUMNS, CREATE TABLE, CREATE VIEW, MODULES, JOBS."""

    arg_types = {"this": True, "target": False, "like": False, "not_like": False}


class Explain(exp.Expression):
    """``EXPLAIN [PLAN FOR] <statement>``."""

    arg_types = {"this": True}


class StatementSet(exp.Expression):
    """INSERT statements that run as one job."""

    arg_types = {"expressions": True}


class Reset(exp.Expression):
    """``RESET ['key']``: one setting back to its default, or all."""

    arg_types = {"this": False}


class CreateFunction(exp.Expression):
    """``CREATE [TEMPORARY [SYSTEM]] FUNCTION [IF NOT EXISTS] name AS 'module.f'``."""

    arg_types = {"this": True, "expression": True, "temporary": False, "system": False,
                 "exists": False, "language": False}


class AlterTable(exp.Expression):
    """``ALTER TABLE [IF EXISTS] name <action> <rest>``: the action (``RENAME TO``, ``SET``,
    ``RESET``, ``ADD``, ``MODIFY``, ``DROP``, ``RENAME``) and the text after it, read by
    ``pystream.sql.statements`` (column definitions and options through sqlglot)."""

    arg_types = {"this": True, "action": True, "rest": False, "exists": False}


class CreateCatalog(exp.Expression):
    """``CREATE CATALOG [IF NOT EXISTS] name WITH (...)``: the options' text."""

    arg_types = {"this": True, "options": False, "exists": False}


# what a statement parses into (a bare expression such as ``SELEC 1`` is not one)
STATEMENTS = (exp.Query, exp.DDL, exp.DML, exp.Use, exp.Set, exp.Describe, exp.Command,
              exp.Alter, exp.Values, exp.Drop)


def _quiet() -> None:
    """sqlglot logs a warning when it falls back to a generic command; we raise instead."""
    logging.getLogger("sqlglot").setLevel(logging.ERROR)


def _error(sql: str, message: str, line: int, column: int,
           line_offset: int = 0) -> SqlParserException:
    """``line`` counts in ``sql``; the message counts from the script's start
    (``line_offset`` lines before ``sql``)."""
    lines = sql.splitlines() or [""]
    line = min(max(line, 1), len(lines))
    text = lines[line - 1]
    caret = " " * max(column - 1, 0) + "^"
    return SqlParserException("SQL parse failed. %s at line %d, column %d.\n%s\n%s" % (
        message, line + line_offset, column, text, caret), line + line_offset, column)


def _error_at(sql: str, message: str, offset: int, line_offset: int) -> SqlParserException:
    """The error of ``message`` at the character ``offset`` of ``sql``."""
    line = sql.count("\n", 0, offset) + 1
    return _error(sql, message, line, offset - sql.rfind("\n", 0, offset), line_offset)


def _from_sqlglot(sql: str, e: Exception, line_offset: int = 0) -> SqlParserException:
    if isinstance(e, ParseError) and e.errors:
        first = e.errors[0]
        line, column = first.get("line") or 1, first.get("col") or 1
        token = first.get("highlight") or ""
        column = max(1, column - len(token) + 1)  # sqlglot points at the token's end
        message = first.get("description") or str(e).splitlines()[0]
        if "<Token" in message:  # sqlglot's end-of-input sentinel
            message = message.split(" but got <Token")[0] + " but reached the end"
        if token:
            message += " (near '%s')" % token
        return _error(sql, message, line, column, line_offset)
    return _error(sql, str(e).splitlines()[0], 1, 1, line_offset)


def _tokens(sql: str) -> List[Token]:
    try:
        return Flink().tokenize(sql)
    except TokenError as e:
        raise _error(sql, "Lexical error: %s" % e, 1, 1) from None


def parse_statement(sql: str, line_offset: int = 0) -> exp.Expr:
    """One statement (a trailing ``;`` is fine)."""
    _quiet()
    tokens = [t for t in _tokens(sql)]
    while tokens and tokens[-1].token_type == TokenType.SEMICOLON:
        tokens.pop()
    if not tokens:
        raise _error(sql, "Empty statement", 1, 1, line_offset)
    special = _special_statement(sql, tokens, line_offset)
    if special is not None:
        return special
    parsed = hints.marked(sql, [t for t in tokens if t.token_type != TokenType.HINT],
                          lambda message, at: _error_at(sql, message, at, line_offset))
    try:
        statements = [s for s in sqlglot.parse(parsed, read=Flink) if s is not None]
    except (ParseError, TokenError) as e:
        raise _from_sqlglot(sql, e, line_offset) from None
    if len(statements) != 1:
        raise _error(sql, "Expected one statement, found %d" % len(statements), 1, 1,
                     line_offset)
    node = statements[0]
    if not isinstance(node, STATEMENTS):
        raise _error(sql, "Non-query expression encountered in illegal context",
                     tokens[0].line, tokens[0].col - len(tokens[0].text) + 1, line_offset)
    if isinstance(node, exp.Command):
        raise _error(sql, "Unsupported statement: %s" % node.name.upper(),
                     tokens[0].line, tokens[0].col - len(tokens[0].text) + 1, line_offset)
    return node


def parse_statements(script: str) -> List[exp.Expr]:
    """The statements of a script, in order (``--`` and ``/* */`` comments; statements end
    with ``;``; ``BEGIN STATEMENT SET; ... END;`` is one statement)."""
    return list(iter_statements(script))


def iter_statements(script: str) -> Iterator[exp.Expr]:
    """``parse_statements`` one at a time: a script runs its statements up to the first that
    does not parse, as Flink's SQL client does."""
    pending: Optional[List[exp.Expr]] = None
    for text, line in _split(script):
        words = " ".join(text.upper().split())
        if words == "BEGIN STATEMENT SET":
            pending = []
            continue
        if words == "END" and pending is not None:
            yield StatementSet(expressions=pending)
            pending = None
            continue
        node = parse_statement(text, line - 1)
        if pending is not None:
            pending.append(node)
        else:
            yield node
    if pending is not None:
        raise _error(script, "BEGIN STATEMENT SET without END", script.count("\n") + 1, 1)


def _split(script: str):
    """(statement text, its first line) for each ``;``-separated statement of ``script``
    (leading blank lines kept, so the line numbers of errors are the script's)."""
    tokens = _tokens(script)
    start, depth, in_block = 0, 0, False
    pieces = []
    for i, t in enumerate(tokens):
        if t.token_type == TokenType.L_PAREN:
            depth += 1
        elif t.token_type == TokenType.R_PAREN:
            depth -= 1
        elif t.text.upper() == "BEGIN" and i >= 2 and \
                _words(tokens[i - 2:i]) == ["STATEMENT", "SET"]:
            in_block = True  # EXECUTE STATEMENT SET BEGIN ... END: one statement
        elif t.text.upper() == "END" and in_block:
            in_block = False
        if t.token_type == TokenType.SEMICOLON and depth == 0 and not in_block:
            pieces.append((start, t.start))
            start = t.end + 1
    pieces.append((start, len(script)))
    for begin, end in pieces:
        text = script[begin:end]
        if text.strip():
            yield text, script.count("\n", 0, begin) + 1


def parse_expression(text: str) -> exp.Expr:
    """One scalar expression (``price * 2``, ``ts - INTERVAL '5' SECOND``)."""
    _quiet()
    try:
        node = sqlglot.parse_one(text, read=Flink)
    except (ParseError, TokenError) as e:
        raise _from_sqlglot(text, e) from None
    if isinstance(node, (exp.Query, exp.Command, exp.DDL, exp.DML)):
        raise _error(text, "Expected an expression", 1, 1)
    return node


def parse_type_node(text: str) -> exp.ColumnDef:
    """A SQL type as a column definition (its NOT NULL is one of its constraints)."""
    _quiet()
    try:
        node = sqlglot.parse_one("CREATE TABLE t (x %s)" % text, read=Flink)
    except (ParseError, TokenError) as e:
        raise _error(text, "Invalid type: %s" % str(e).splitlines()[0], 1, 1) from None
    return node.this.expressions[0]


# -- statements sqlglot cannot read ----------------------------------------------------------

def _words(tokens: Sequence[Token]) -> List[str]:
    return [t.text.upper() for t in tokens]


def _special_statement(sql: str, tokens: List[Token], line_offset: int) -> Optional[exp.Expr]:
    words = _words(tokens)
    if words[0] == "SHOW":
        return _show(sql, tokens, line_offset)
    if words[0] == "EXPLAIN":
        rest = 1 + (2 if words[1:3] == ["PLAN", "FOR"] else 0)
        return Explain(this=parse_statement(sql[tokens[rest].start:], line_offset))
    if words[:3] == ["EXECUTE", "STATEMENT", "SET"]:
        inner = sql[tokens[4].start:tokens[-1].start] if words[3:4] == ["BEGIN"] and \
            words[-1] == "END" else None
        if inner is None:
            raise _error(sql, "Expected EXECUTE STATEMENT SET BEGIN ... END", 1, 1,
                         line_offset)
        return StatementSet(expressions=[parse_statement(text, line - 1 + line_offset)
                                         for text, line in _split(inner)])
    if words[0] == "EXECUTE" and len(words) > 1 and words[1] == "INSERT":
        return parse_statement(sql[tokens[1].start:], line_offset)
    if words[0] == "RESET":
        return Reset(this=tokens[1].text if len(tokens) > 1 else None)
    if words[0] == "DESC":
        return exp.Describe(this=exp.to_table(sql[tokens[1].start:].strip().rstrip(";")))
    if words[0] == "CREATE" and "FUNCTION" in words[:5]:
        return _create_function(sql, tokens, words, line_offset)
    if words[:2] == ["ALTER", "TABLE"]:
        return _alter_table(sql, tokens, words, line_offset)
    if words[:2] == ["CREATE", "CATALOG"]:
        exists = words[2:5] == ["IF", "NOT", "EXISTS"]
        at = 5 if exists else 2
        if at >= len(tokens):
            raise _error(sql, "Expected a catalog name", tokens[0].line, 1, line_offset)
        options = sql[tokens[at + 2].start:].strip().rstrip(";") if \
            words[at + 1:at + 2] == ["WITH"] else None
        return CreateCatalog(this=tokens[at].text, options=options, exists=exists)
    if words[0] in ("LOAD", "UNLOAD") or words[:2] == ["ALTER", "DATABASE"]:
        raise _error(sql, "Unsupported statement: %s" % " ".join(words[:2]),
                     tokens[0].line, 1, line_offset)
    return None


def _show(sql: str, tokens: List[Token], line_offset: int) -> Show:
    words = _words(tokens)[1:]
    kinds = ("CURRENT CATALOG", "CURRENT DATABASE", "USER FUNCTIONS", "CREATE TABLE",
             "CREATE VIEW", "TABLES", "VIEWS", "FUNCTIONS", "CATALOGS", "DATABASES",
             "COLUMNS", "MODULES", "FULL MODULES", "JOBS", "PARTITIONS")
    for kind in kinds:
        size = len(kind.split())
        if words[:size] == kind.split():
            rest = tokens[1 + size:]
            break
    else:
        raise _error(sql, "Unsupported SHOW statement: SHOW %s" % " ".join(words[:2]),
                     tokens[0].line, 1, line_offset)
    target = like = None
    not_like = False
    rest_words = _words(rest)
    if rest_words[:1] in (["FROM"], ["IN"]) or (rest_words and kind in (
            "CREATE TABLE", "CREATE VIEW", "PARTITIONS")):
        i = 1 if rest_words[0] in ("FROM", "IN") else 0
        names = []
        while i < len(rest) and rest_words[i] not in ("LIKE", "NOT", "ILIKE"):
            names.append(rest[i].text)
            i += 1
        target = "".join(names)
        rest, rest_words = rest[i:], rest_words[i:]
    if rest_words[:1] == ["NOT"]:
        not_like = True
        rest, rest_words = rest[1:], rest_words[1:]
    if rest_words[:1] in (["LIKE"], ["ILIKE"]) and len(rest) > 1:
        like = rest[1].text
    return Show(this=kind, target=target, like=like, not_like=not_like)


def _alter_table(sql: str, tokens: List[Token], words: List[str],
                 line_offset: int) -> AlterTable:
    exists = words[2:4] == ["IF", "EXISTS"]
    i = 4 if exists else 2
    name = []
    while i < len(words) and words[i] not in ("RENAME", "SET", "RESET", "ADD", "MODIFY",
                                                "DROP"):
        name.append(tokens[i].text if tokens[i].token_type != TokenType.DOT else ".")
        i += 1
    if not name or i >= len(words):
        raise _error(sql, "Expected ALTER TABLE <name> RENAME TO, SET, RESET, ADD, MODIFY, "
                     "DROP or RENAME <column> TO", tokens[0].line, 1, line_offset)
    action = "RENAME TO" if words[i:i + 2] == ["RENAME", "TO"] else words[i]
    start = i + (2 if action == "RENAME TO" else 1)
    rest = sql[tokens[start].start:].strip().rstrip(";").strip() if start < len(tokens) \
        else ""
    return AlterTable(this="".join(name), action=action, rest=rest, exists=exists)


def _create_function(sql: str, tokens: List[Token], words: List[str],
                     line_offset: int) -> CreateFunction:
    temporary = "TEMPORARY" in words[:4]
    system = "SYSTEM" in words[:4]
    i = words.index("FUNCTION") + 1
    exists = words[i:i + 3] == ["IF", "NOT", "EXISTS"]
    if exists:
        i += 3
    name_tokens = []
    while i < len(words) and words[i] != "AS":
        name_tokens.append(tokens[i].text)
        i += 1
    if i + 1 >= len(tokens) or tokens[i + 1].token_type != TokenType.STRING:
        raise _error(sql, "Expected AS '<module.function>'", tokens[0].line, 1, line_offset)
    language = words[i + 3] if words[i + 2:i + 3] == ["LANGUAGE"] and len(words) > i + 3 \
        else None
    return CreateFunction(this="".join(name_tokens), expression=tokens[i + 1].text,
                          temporary=temporary, system=system, exists=exists,
                          language=language)
